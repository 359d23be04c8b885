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
