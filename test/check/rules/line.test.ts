import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../../src/check/index.js';
import { validInvoice, withInvoice, withLine } from '../fixtures.js';

const lineIssues = (patch: Record<string, unknown>, opts?: Parameters<typeof checkInvoice>[1]) => {
  const r = checkInvoice(withLine(patch), opts);
  return [...r.errors, ...r.warnings];
};

describe('check/rules/line', () => {
  it('suggests the percentage for a tax rate sent as a fraction, exactly', () => {
    const [i] = lineIssues({ taxRate: 0.075 });
    expect(i?.code).toBe('LINE_TAX_RATE_FRACTION');
    expect(i?.hint).toMatch(/^Send 7\.5\./);
    expect(lineIssues({ taxRate: 0.2 })[0]?.message).toContain('not 20 %');
    expect(lineIssues({ taxRate: 0.07 })[0]?.message).toContain('not 7 %');
  });

  it('refuses a fraction only for the document\'s example rate or another line\'s rate; a standard rate alone is a warning', () => {
    const alone = (taxRate: unknown) =>
      checkInvoice(withInvoice({ lines: [{ description: 'Laptop', quantity: 1, unitPrice: 10, taxRate, hsnCode: '8471.30' }] }));
    // 0.075 is the document's own example of the mistake: an error even alone, and as a string.
    for (const taxRate of [0.075, '0.075']) {
      expect(alone(taxRate).errors.map((i) => [i.code, i.severity]), String(taxRate)).toEqual([['LINE_TAX_RATE_FRACTION', 'error']]);
    }
    for (const [taxRate, percent] of [[0.05, '5'], [0.1, '10'], [0.25, '25']] as const) {
      const r = alone(taxRate);
      expect(r.ok, String(taxRate)).toBe(true);
      expect(r.warnings.map((i) => [i.code, i.severity])).toEqual([['LINE_TAX_RATE_LOW', 'warning']]);
      expect(r.warnings[0]?.message).toContain(`${percent} % is a standard rate`);
      expect(checkInvoice(withInvoice({ lines: [{ description: 'Laptop', quantity: 1, unitPrice: 10, taxRate, hsnCode: '8471.30' }] }), { strict: true }).ok).toBe(false);
    }
    // 0.3 × 100 = 30 is no standard rate, but line 1 uses 30.
    const inv = withLine({ taxRate: 30 }, 1);
    ((inv.lines as Record<string, unknown>[])[0] as Record<string, unknown>).taxRate = 0.3;
    const r = checkInvoice(inv);
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([['LINE_TAX_RATE_FRACTION', ['lines', 0, 'taxRate']]]);
    expect(r.errors[0]?.message).toContain('lines[1] has taxRate 30');
  });

  it('lets a real rate below 1 % pass with a warning only', () => {
    for (const taxRate of [0.5, 0.3, 0.01, 0.125, 0.0750001]) {
      const r = checkInvoice(withLine({ taxRate }));
      expect(r.ok, String(taxRate)).toBe(true);
      expect(r.warnings.map((i) => [i.code, i.severity, i.path])).toEqual([['LINE_TAX_RATE_LOW', 'warning', ['lines', 0, 'taxRate']]]);
      expect(r.warnings[0]?.message).toContain('unusually low');
      expect(r.totals).toBeDefined();
    }
  });

  it('names the standard rates of opts.standardTaxRates in the warning', () => {
    expect(lineIssues({ taxRate: 0.5 }, { standardTaxRates: [50] })[0]?.message).toContain('50 % is a standard rate');
    expect(lineIssues({ taxRate: 0.5 })[0]?.message).not.toContain('standard rate');
    // A fraction of another line's rate whatever the standard rates: line 1 of the fixture is at 7.5 %.
    const [beside] = lineIssues({ taxRate: 0.2 }, { standardTaxRates: [] });
    expect(beside).toMatchObject({ code: 'LINE_TAX_RATE_LOW', severity: 'warning' });
    const inv = withLine({ taxRate: 20 }, 1);
    ((inv.lines as Record<string, unknown>[])[0] as Record<string, unknown>).taxRate = '0.2';
    expect(checkInvoice(inv, { standardTaxRates: [] }).errors.map((i) => i.code)).toEqual(['LINE_TAX_RATE_FRACTION']);
    const frozen = Object.freeze([0.5 * 100]);
    expect(lineIssues({ taxRate: 0.5 }, { standardTaxRates: frozen })[0]?.message).toContain('50 % is a standard rate');
    expect(lineIssues({ taxRate: 0.5 }, { standardTaxRates: frozen })[0]?.message).toContain('50 % is a standard rate');
  });

  it('reports unusable standardTaxRates as OPTION_INVALID and keeps the default', () => {
    for (const standardTaxRates of [7.5, 'abc', [7.5, '20'], [0], [101], [Number.NaN]]) {
      const r = checkInvoice(withLine({ taxRate: 0.075 }), { standardTaxRates: standardTaxRates as never });
      expect(r.errors.map((i) => [i.code, i.path.join('.')]), String(standardTaxRates)).toEqual([
        ['OPTION_INVALID', 'options.standardTaxRates'],
        ['LINE_TAX_RATE_FRACTION', 'lines.0.taxRate'],
      ]);
    }
  });

  it('accepts 0 % and 100 % and rates in between', () => {
    for (const taxRate of [0, 1, 5, 7.5, 19.6, 100]) expect(lineIssues({ taxRate }), String(taxRate)).toEqual([]);
  });

  it('requires taxRate on every line', () => {
    const [i] = lineIssues({ taxRate: undefined });
    expect(i).toMatchObject({ code: 'FIELD_REQUIRED', path: ['lines', 0, 'taxRate'] });
  });

  it('accepts decimal strings for each amount, and reports other strings, wrong types and non-finite numbers', () => {
    for (const field of ['quantity', 'unitPrice', 'taxRate', 'discountRate']) {
      expect(lineIssues({ [field]: '5' }), field).toEqual([]);
      expect(lineIssues({ [field]: '5.50' }), field).toEqual([]);
      for (const bad of [' 5', '5,5', '+5', '05', '5.', '1e3', '']) {
        expect(lineIssues({ [field]: bad })[0], `${field} ${bad}`).toMatchObject({ code: 'FIELD_WRONG_TYPE', path: ['lines', 0, field] });
      }
      expect(lineIssues({ [field]: ' 5' })[0]?.hint, field).toContain('"5" or the number 5');
      expect(lineIssues({ [field]: true })[0]?.code, field).toBe('FIELD_WRONG_TYPE');
      expect(lineIssues({ [field]: Number.POSITIVE_INFINITY })[0]?.code, field).toBe('NUMBER_NOT_FINITE');
    }
  });

  it('computes totals exactly from decimal strings, two decimals', () => {
    const r = checkInvoice(withInvoice({ lines: [{ description: 'Desk', quantity: '3', unitPrice: '850.50', taxRate: '7.5', discountRate: '10', hsnCode: '9403.30' }] }));
    expect(r.ok).toBe(true);
    expect(r.totals).toMatchObject({ subtotal: '2296.35', taxTotal: '172.23', total: '2468.58' });
  });

  it('warns (never refuses) a refund or discount line: quantity ≤ 0, negative unitPrice', () => {
    for (const [patch, code] of [
      [{ quantity: -1 }, 'LINE_QUANTITY_NOT_POSITIVE'],
      [{ quantity: '0' }, 'LINE_QUANTITY_NOT_POSITIVE'],
      [{ unitPrice: -5 }, 'LINE_UNIT_PRICE_NEGATIVE'],
      [{ unitPrice: '-5.00' }, 'LINE_UNIT_PRICE_NEGATIVE'],
    ] as const) {
      const r = checkInvoice(withLine(patch));
      expect(r.ok, JSON.stringify(patch)).toBe(true);
      expect(r.warnings.map((i) => [i.code, i.severity])).toEqual([[code, 'warning']]);
      expect(r.warnings[0]?.hint).toContain('refund');
      expect(r.totals).toBeDefined();
      expect(checkInvoice(withLine(patch), { strict: true }).errors.map((i) => i.code)).toEqual([code]);
    }
  });

  it('warns (never refuses) a discountRate or taxRate outside 0 to 100', () => {
    for (const patch of [{ discountRate: 150 }, { discountRate: -5 }, { taxRate: 150 }, { taxRate: -1 }]) {
      const r = checkInvoice(withLine(patch));
      expect(r.ok, JSON.stringify(patch)).toBe(true);
      expect(r.warnings.map((i) => i.severity)).toEqual(['warning']);
    }
  });

  it('checks description presence, type and blankness', () => {
    expect(lineIssues({ description: undefined })[0]?.code).toBe('FIELD_REQUIRED');
    expect(lineIssues({ description: 5 })[0]?.code).toBe('FIELD_WRONG_TYPE');
    expect(lineIssues({ description: '\t\n' })[0]).toMatchObject({ code: 'LINE_DESCRIPTION_EMPTY', severity: 'warning' });
    expect(checkInvoice(withLine({ description: ' ' })).ok).toBe(true);
  });

  it('refuses a blank or one-character category (very short under any reading), warns below the minimum', () => {
    for (const productCategory of ['', '   ', 'A', ' b ']) {
      expect(lineIssues({ productCategory })[0], JSON.stringify(productCategory)).toMatchObject({ code: 'LINE_CATEGORY_TOO_SHORT', severity: 'error' });
      expect(lineIssues({ productCategory }, { minCategoryLength: 0 })[0]?.code).toBe('LINE_CATEGORY_TOO_SHORT');
    }
    const r = checkInvoice(withLine({ productCategory: 'IT' }));
    expect(r.ok).toBe(true);
    expect(r.warnings.map((i) => [i.code, i.severity])).toEqual([['LINE_CATEGORY_SHORT', 'warning']]);
  });

  it('measures categories after trimming, with a configurable minimum', () => {
    expect(lineIssues({ productCategory: '  ab  ' })[0]?.code).toBe('LINE_CATEGORY_SHORT');
    expect(lineIssues({ serviceCategory: 'IT' })[0]?.path).toEqual(['lines', 0, 'serviceCategory']);
    expect(lineIssues({ serviceCategory: 'IT' }, { minCategoryLength: 2 })).toEqual([]);
    expect(lineIssues({ productCategory: 'Electronics' }, { minCategoryLength: 20 })[0]?.message).toContain('20');
  });

  it('trims every space String.prototype.trim removes before measuring a category', () => {
    const spaces = ['\u2003', '\u3000', '\ufeff', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\v', '\f', '\u00a0', ' '];
    for (const space of spaces) {
      for (const serviceCategory of [`${space}IT`, `IT${space}`]) {
        const [issue] = lineIssues({ serviceCategory });
        expect(issue?.code, JSON.stringify(serviceCategory)).toBe('LINE_CATEGORY_SHORT');
      }
    }
    // Not removed by trim, so not a space here either: a zero-width space counts as a character.
    expect(lineIssues({ serviceCategory: '\u200bIT' })).toEqual([]);
    expect(lineIssues({ serviceCategory: '\u2003IT\u2003', productCategory: 'Hardware' }, { minCategoryLength: 2 })).toEqual([]);
  });

  it('checks the types of sku and inventoryItemId', () => {
    expect(lineIssues({ sku: 12 })[0]?.path).toEqual(['lines', 0, 'sku']);
    expect(lineIssues({ inventoryItemId: {} })[0]?.code).toBe('FIELD_WRONG_TYPE');
    expect(lineIssues({ sku: 'A-1', inventoryItemId: 'inv_1' })).toEqual([]);
  });

  it('suggests the real field for misspelt or aliased line fields', () => {
    const suggestion = (key: string) =>
      lineIssues({ [key]: 1 }).find((i) => i.code === 'UNKNOWN_FIELD')?.hint?.match(/Did you mean (\w+)\?/)?.[1];
    expect(suggestion('hsCode')).toBe('hsnCode');
    expect(suggestion('qunatity')).toBe('quantity');
    expect(suggestion('qty')).toBe('quantity');
    expect(suggestion('vatRate')).toBe('taxRate');
    expect(suggestion('unitprice')).toBe('unitPrice');
    expect(suggestion('colour')).toBeUndefined();
  });

  it('explains line-level tax categories and amounts instead of calling them unknown', () => {
    expect(lineIssues({ taxCategory: 'S' })[0]?.code).toBe('TAX_FIELD_NOT_ACCEPTED');
    expect(lineIssues({ lineTotal: 10 })[0]?.code).toBe('TOTAL_FIELD_NOT_ACCEPTED');
  });

  it('ignores keys whose value is undefined (JSON would drop them)', () => {
    const inv = validInvoice();
    (inv.lines as Record<string, unknown>[])[0]!.extra = undefined;
    expect(checkInvoice(inv).warnings).toEqual([]);
  });

  it('reports each bad line at its own index', () => {
    const inv = withInvoice({
      lines: [
        { description: 'a', quantity: 1, unitPrice: 1, taxRate: 7.5, isicCode: '6202' },
        null,
        { description: 'c', quantity: 1, unitPrice: 1, taxRate: 7.5 },
      ],
    });
    const paths = checkInvoice(inv).errors.map((i) => i.path.join('.'));
    expect(paths).toEqual(['lines.1', 'lines.2']);
  });

  it('reports each hole of a sparse array as a missing line, and an undefined entry as not an object', () => {
    const line = (validInvoice().lines as unknown[])[1];
    const holes = [line, , line, undefined];
    holes.length = 6;
    const r = checkInvoice(withInvoice({ lines: holes }));
    expect(r.errors.map((i) => [i.code, i.path.join('.'), i.message])).toEqual([
      ['LINE_NOT_OBJECT', 'lines.1', 'lines[1] is missing: a hole in a sparse array.'],
      ['LINE_NOT_OBJECT', 'lines.3', 'lines[3] must be a line object, got undefined.'],
      ['LINE_NOT_OBJECT', 'lines.4', 'lines[4] is missing: a hole in a sparse array.'],
      ['LINE_NOT_OBJECT', 'lines.5', 'lines[5] is missing: a hole in a sparse array.'],
    ]);
    expect(r.errors[0]?.hint).toContain('JSON.stringify would send null');
    expect(r.totals).toBeUndefined();
  });
});
