/** Invoices for the check tests: one valid invoice and small ways to break it. */

export type Json = Record<string, unknown>;

/** A fresh valid invoice: one good (hsnCode) and one service (isicCode), both at 7.5 %. */
export function validInvoice(): Json {
  return {
    businessId: 'biz_123',
    buyer: { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd', email: 'ap@acme.example' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Laptop', quantity: 2, unitPrice: 999.99, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' },
    ],
  };
}

/** Its totals: 1999.98 + 1500.00 net; 150.00 + 112.50 tax. */
export const VALID_TOTALS = { subtotal: '3499.98', taxTotal: '262.50', total: '3762.48' };

/** The valid invoice with top-level fields replaced (undefined deletes). */
export function withInvoice(patch: Json): Json {
  const inv = validInvoice();
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete inv[k];
    else inv[k] = v;
  }
  return inv;
}

/** The valid invoice with buyer fields replaced (undefined deletes). */
export function withBuyer(patch: Json): Json {
  const inv = validInvoice();
  const buyer = inv.buyer as Json;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete buyer[k];
    else buyer[k] = v;
  }
  return inv;
}

/** The valid invoice with fields of line `i` replaced (undefined deletes). */
export function withLine(patch: Json, i = 0): Json {
  const inv = validInvoice();
  const line = (inv.lines as Json[])[i] as Json;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete line[k];
    else line[k] = v;
  }
  return inv;
}
