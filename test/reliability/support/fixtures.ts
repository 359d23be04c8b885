/** The invoice the reliability suites file: valid, one good and one service, distinct per `n`. */
import type { InvoiceCreateParams } from '../../../src/model/invoice-input.js';

/**
 * A valid invoice for `businessId`; `n` makes its body distinct (two documents never share a body,
 * and the same `n` always gives the same body, as an idempotent replay needs).
 */
export function sampleInput(businessId: string, n = 0): InvoiceCreateParams {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: `Buyer ${n}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: `Setup and configuration #${n}`, quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
    ],
  };
}
