import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoice, formatIssuePath } from '../../src/check/index.js';
import { VALID_TOTALS, validInvoice, withBuyer, withInvoice, withLine } from './fixtures.js';

describe('check/index (checkInvoice)', () => {
  it('returns ok with the computed totals for a valid invoice', () => {
    const r = checkInvoice(validInvoice());
    expect(r).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(r.totals).toMatchObject(VALID_TOTALS);
    expect(r.totals?.lines).toHaveLength(2);
  });

  it('never throws on any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = checkInvoice(value);
        expect(r.ok).toBe(r.errors.length === 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on invoice-shaped values with arbitrary fields (property)', () => {
    const anyValue = fc.oneof(fc.jsonValue(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, undefined, -0, 10n, Symbol('s')));
    const line = fc.dictionary(
      fc.constantFrom('description', 'quantity', 'unitPrice', 'taxRate', 'hsnCode', 'isicCode', 'discountRate', 'productCategory', 'sku', 'x'),
      anyValue,
    );
    const invoice = fc.record({
      businessId: anyValue,
      buyer: fc.oneof(anyValue, fc.dictionary(fc.constantFrom('type', 'tin', 'email', 'name', 'y'), anyValue)),
      dueDate: anyValue,
      lines: fc.oneof(anyValue, fc.array(fc.oneof(line, anyValue), { maxLength: 5 })),
    });
    fc.assert(
      fc.property(invoice, fc.option(fc.record({ expectedTotals: fc.dictionary(fc.constantFrom('subtotal', 'total'), anyValue) })), (inv, opts) => {
        const r = checkInvoice(inv, opts ?? undefined);
        for (const issue of [...r.errors, ...r.warnings]) {
          expect(typeof issue.message).toBe('string');
          expect(Array.isArray(issue.path)).toBe(true);
        }
      }),
      { numRuns: 800 },
    );
  });

  it('reports every problem at once rather than stopping at the first', () => {
    const inv = withLine({ quantity: 0, taxRate: 0.075, hsnCode: '6202.00' });
    (inv.buyer as Record<string, unknown>).tin = 'N/A';
    inv.dueDate = '2026-12-31';
    const r = checkInvoice(inv);
    expect(r.errors.map((i) => i.code)).toEqual(['BUYER_TIN_PLACEHOLDER', 'DUE_DATE_NOT_DATE_TIME', 'LINE_TAX_RATE_FRACTION', 'HSN_CODE_PADDED_ISIC']);
    expect(r.warnings.map((i) => i.code)).toEqual(['LINE_QUANTITY_NOT_POSITIVE']);
  });

  it('turns warnings into errors with strict', () => {
    const inv = withInvoice({ dueDate: '2026-12-31T00:00:00' });
    expect(checkInvoice(inv).ok).toBe(true);
    const strict = checkInvoice(inv, { strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.warnings).toEqual([]);
    expect(strict.errors[0]).toMatchObject({ code: 'DUE_DATE_NO_OFFSET', severity: 'error' });
  });

  it('leaves ignored codes out', () => {
    expect(checkInvoice(withLine({ taxRate: 0.075 })).ok).toBe(false);
    const r = checkInvoice(withLine({ taxRate: 0.075 }), { ignore: ['LINE_TAX_RATE_FRACTION'] });
    expect(r.ok).toBe(true);
  });

  it('reports one issue per code and path', () => {
    const r = checkInvoice(withInvoice({ lines: [null, null] }));
    expect(r.errors.map((i) => formatIssuePath(i.path))).toEqual(['lines[0]', 'lines[1]']);
  });

  it('keeps the totals when other rules fail, and drops them when amounts are not numbers', () => {
    expect(checkInvoice(withBuyer({ type: 'X' })).totals?.total).toBe(VALID_TOTALS.total);
    expect(checkInvoice(withLine({ unitPrice: '999.99' })).totals?.total).toBe(VALID_TOTALS.total);
    expect(checkInvoice(withLine({ unitPrice: '999,99' })).totals).toBeUndefined();
    expect(checkInvoice(withInvoice({ lines: [] })).totals).toBeUndefined();
  });

  it('reconciles expected totals and shows both numbers', () => {
    const r = checkInvoice(validInvoice(), { expectedTotals: { subtotal: 3500, taxTotal: '262.50', total: 3762.48 } });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.path).toEqual(['options', 'expectedTotals', 'subtotal']);
    expect(r.errors[0]?.message).toContain('3500.00');
    expect(r.errors[0]?.message).toContain('3499.98');
    expect(r.errors[0]?.message).toContain('0.02');
  });

  it('reads expectedTotals.tax as taxTotal, and reports keys that name no total', () => {
    const tax = checkInvoice(validInvoice(), { expectedTotals: { tax: '262.49' } });
    expect(tax.errors.map((i) => formatIssuePath(i.path))).toEqual(['options.expectedTotals.tax']);
    expect(tax.errors[0]?.message).toContain('262.49');
    expect(tax.errors[0]?.message).toContain('262.50');
    expect(checkInvoice(validInvoice(), { expectedTotals: { tax: '262.50' } }).ok).toBe(true);

    const typo = checkInvoice(validInvoice(), { expectedTotals: { totl: 1 } as never });
    expect(typo.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['OPTION_INVALID', 'options.expectedTotals.totl']]);

    const both = checkInvoice(validInvoice(), { expectedTotals: { tax: 1, taxTotal: 2 } });
    expect(both.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['OPTION_INVALID', 'options.expectedTotals.tax']]);
  });

  it('reports unusable options instead of throwing', () => {
    const r = checkInvoice(validInvoice(), {
      hsCodes: '8471.30' as never,
      rounding: 'sometimes' as never,
      expectedTotals: { total: 'lots' },
    });
    expect(r.errors.map((i) => formatIssuePath(i.path))).toEqual([
      'options.hsCodes',
      'options.rounding',
      'options.expectedTotals.total',
    ]);
  });

  it('uses the rounding options for the totals it returns', () => {
    const inv = withInvoice({
      lines: [1, 2, 3].map(() => ({ description: 'x', quantity: 1, unitPrice: 0.333, taxRate: 10, isicCode: '6202' })),
    });
    expect(checkInvoice(inv).totals?.subtotal).toBe('0.99');
    expect(checkInvoice(inv, { rounding: 'invoice' }).totals?.subtotal).toBe('1.00');
  });

  it('formats paths as JavaScript would address them', () => {
    expect(formatIssuePath(['lines', 2, 'hsnCode'])).toBe('lines[2].hsnCode');
    expect(formatIssuePath([])).toBe('(invoice)');
    expect(formatIssuePath(['odd key'])).toBe('["odd key"]');
  });
});
