import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BuyerSchema,
  InvoiceCreateParamsSchema,
  InvoiceLineSchema,
  type InvoiceCreateParams,
} from '../../src/model/invoice-input.js';

const input = {
  businessId: 'biz_1',
  buyer: { type: 'B2B', tin: '12345678-0001' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Widget', quantity: 2, unitPrice: 9.99, taxRate: 7.5, hsnCode: '8471.30' }],
};

describe('model/invoice-input', () => {
  it('accepts the document example shape and types it as InvoiceCreateParams', () => {
    const parsed = InvoiceCreateParamsSchema.parse(input);
    expect(parsed).toEqual(input);
    const typed: InvoiceCreateParams = parsed;
    expectTypeOf(typed.buyer.type).toEqualTypeOf<'B2B' | 'B2C' | 'B2G'>();
  });

  it('keeps fields it does not know, at every level', () => {
    const parsed = InvoiceCreateParamsSchema.parse({
      ...input,
      currency: 'NGN',
      buyer: { ...input.buyer, phone: '1' },
      lines: [{ ...input.lines[0], unit: 'pcs' }],
    });
    expect(parsed).toMatchObject({ currency: 'NGN', buyer: { phone: '1' }, lines: [{ unit: 'pcs' }] });
  });

  it.each([
    ['a buyer type outside B2B, B2C, B2G', { ...input, buyer: { type: 'B2X' } }, ['buyer', 'type']],
    ['no lines', { ...input, lines: [] }, ['lines']],
    ['a quantity written as a string that is no decimal', { ...input, lines: [{ ...input.lines[0], quantity: '2,5' }] }, ['lines', 0, 'quantity']],
    ['a unitPrice with an exponent', { ...input, lines: [{ ...input.lines[0], unitPrice: '1e3' }] }, ['lines', 0, 'unitPrice']],
    ['a missing taxRate', { ...input, lines: [{ description: 'x', quantity: 1, unitPrice: 1 }] }, ['lines', 0, 'taxRate']],
    ['a missing dueDate', { ...input, dueDate: undefined }, ['dueDate']],
  ])('refuses %s, naming the field', (_label, value, path) => {
    const result = InvoiceCreateParamsSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('accepts decimal strings for quantity, unitPrice, taxRate and discountRate, in the schema and the type', () => {
    const line = { description: 'Desk', quantity: '2', unitPrice: '850.50', taxRate: '7.5', discountRate: '10', hsnCode: '9403.30' };
    const typed: InvoiceCreateParams = { ...input, buyer: { type: 'B2B' }, lines: [line] };
    expect(InvoiceCreateParamsSchema.parse(typed).lines[0]).toEqual(line);
    expectTypeOf(line.unitPrice).toExtend<InvoiceCreateParams['lines'][number]['unitPrice']>();
  });

  it('exposes the buyer and line schemas for composition', () => {
    const Order = z.object({ buyer: BuyerSchema, items: z.array(InvoiceLineSchema) });
    expect(Order.safeParse({ buyer: { type: 'B2C' }, items: [input.lines[0]] }).success).toBe(true);
  });

  it('types leave out the loose index signature, so a misspelt field fails to compile', () => {
    // @ts-expect-error: `tinn` is not a Buyer field
    const buyer: InvoiceCreateParams['buyer'] = { type: 'B2B', tinn: '1' };
    expect(BuyerSchema.parse(buyer)).toEqual({ type: 'B2B', tinn: '1' });
  });
});
