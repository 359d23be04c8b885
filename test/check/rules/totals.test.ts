import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../../src/check/index.js';
import { withInvoice } from '../fixtures.js';

const oneLine = (unitPrice: number) =>
  withInvoice({ lines: [{ description: 'x', quantity: 1, unitPrice, taxRate: 0, isicCode: '6202' }] });

describe('check/rules/totals', () => {
  it('rounds the expected totals with the configured rounding mode', () => {
    const even = checkInvoice(oneLine(0.125), { roundingMode: 'half-even', expectedTotals: { total: '0.125', subtotal: 0.125 } });
    expect(even.totals?.total).toBe('0.12');
    expect(even.errors).toEqual([]);

    const up = checkInvoice(oneLine(0.125), { expectedTotals: { total: '0.125' } });
    expect(up.totals?.total).toBe('0.13');
    expect(up.errors).toEqual([]);

    const off = checkInvoice(oneLine(0.125), { roundingMode: 'half-even', expectedTotals: { total: '0.135' } });
    expect(off.errors.map((i) => i.message)).toEqual([
      'options.expectedTotals.total: you expect 0.14 but the lines add up to 0.12 (difference -0.02).',
    ]);
    expect(off.errors[0]?.hint).toContain('per line, half-even');
  });
});

// 3 × 0.07 at 7.5 %: per line 0.01 tax each (0.03), per invoice 0.21 × 7.5 % = 0.01575 → 0.02.
const threeSmall = (extra: Record<string, unknown> = {}) =>
  withInvoice({
    ...extra,
    lines: [1, 2, 3].map((n) => ({ description: `item ${n}`, quantity: 1, unitPrice: 0.07, taxRate: 7.5, hsnCode: '8471.30' })),
  });

describe('check/rules/totals: figures in the input and either rounding', () => {
  it('compares totals the input carries with the lines: an error on contradiction, nothing when they agree', () => {
    const wrong = checkInvoice(withInvoice({ totalAmount: 1000 }));
    expect(wrong.ok).toBe(false);
    expect(wrong.errors.map((i) => [i.code, i.path])).toEqual([['TOTALS_MISMATCH', ['totalAmount']]]);
    expect(wrong.errors[0]?.message).toBe('totalAmount: you expect 1000.00 but the lines add up to 3762.48 (difference 2762.48).');
    const right = checkInvoice(withInvoice({ totalAmount: '3762.48', subtotal: 3499.98, tax: '262.5' }));
    expect([...right.errors, ...right.warnings]).toEqual([]);
    const nested = checkInvoice(withInvoice({ totals: { subtotal: '3499.98', total: '3762.00' } }));
    expect(nested.errors.map((i) => i.path)).toEqual([['totals', 'total']]);
  });

  it('warns about a total it cannot read, and cannot compare with lines that do not add up', () => {
    expect(checkInvoice(withInvoice({ total: 'N/A' })).warnings.map((i) => [i.code, i.path])).toEqual([['TOTAL_FIELD_NOT_ACCEPTED', ['total']]]);
    const lines = withInvoice({ totalAmount: 10, lines: [{ description: 'x', quantity: 'two', unitPrice: 1, taxRate: 0, isicCode: '6202' }] });
    expect(checkInvoice(lines).warnings.map((i) => [i.code, i.path])).toContainEqual(['TOTALS_NOT_RECONCILED', ['totalAmount']]);
  });

  it('accepts a figure rounded per line or per invoice when no rounding is given, and only the one given otherwise', () => {
    for (const taxTotal of ['0.03', '0.02']) {
      expect(checkInvoice(threeSmall(), { expectedTotals: { taxTotal } }).errors, taxTotal).toEqual([]);
      expect(checkInvoice(threeSmall({ taxTotal })).errors, taxTotal).toEqual([]);
    }
    const contradiction = checkInvoice(threeSmall(), { expectedTotals: { taxTotal: '0.05' } });
    expect(contradiction.errors.map((i) => i.code)).toEqual(['TOTALS_MISMATCH']);
    expect(contradiction.errors[0]?.hint).toContain('per rate group it is 0.02');
    expect(checkInvoice(threeSmall(), { rounding: 'line', expectedTotals: { taxTotal: '0.02' } }).errors.map((i) => i.code)).toEqual(['TOTALS_MISMATCH']);
    expect(checkInvoice(threeSmall(), { rounding: 'invoice', expectedTotals: { taxTotal: '0.03' } }).errors.map((i) => i.code)).toEqual(['TOTALS_MISMATCH']);
  });
});
