import { describe, expect, it } from 'vitest';
import { checkInvoice, formatIssuePath, type CheckOptions } from '../../src/check/index.js';
import { validInvoice, withLine } from './fixtures.js';

const optionIssues = (opts: CheckOptions) =>
  checkInvoice(validInvoice(), opts).errors.map((i) => [i.code, formatIssuePath(i.path), i.message]);

describe('check/options', () => {
  it('states the real range of each numeric option', () => {
    for (const minorUnits of [13, 2000, 1.5, -1]) {
      expect(optionIssues({ minorUnits }), String(minorUnits)).toEqual([
        ['OPTION_INVALID', 'options.minorUnits', `Option options.minorUnits is ${minorUnits}; expected an integer from 0 to 12.`],
      ]);
    }
    expect(optionIssues({ minCategoryLength: 1001 })[0]?.[2]).toContain('expected an integer from 0 to 1000');
    expect(optionIssues({ minTinLength: 2.5 })[0]?.[2]).toContain('expected an integer from 0 to 1000');
    expect(optionIssues({ minorUnits: 12 })).toEqual([]);
  });

  it('reads a mutable array of codes afresh on every call', () => {
    const invoice = withLine({ hsnCode: '8471.41' });
    const hsCodes = ['8471.30'];
    expect(checkInvoice(invoice, { hsCodes }).errors.map((i) => i.code)).toEqual(['HSN_CODE_UNKNOWN']);
    hsCodes.push('8471.41');
    expect(checkInvoice(invoice, { hsCodes }).errors).toEqual([]);
    hsCodes.length = 0;
    expect(checkInvoice(invoice, { hsCodes }).errors.map((i) => i.code)).toEqual(['HSN_CODE_UNKNOWN']);

    const isicCodes = ['6201'];
    const service = withLine({ isicCode: '6202' }, 1);
    expect(checkInvoice(service, { isicCodes }).errors.map((i) => i.code)).toEqual(['ISIC_CODE_UNKNOWN']);
    isicCodes.push('6202');
    expect(checkInvoice(service, { isicCodes }).errors).toEqual([]);
  });

  it('reads Sets, has() objects and predicates live, and keeps a frozen array as it is', () => {
    const invoice = withLine({ hsnCode: '8471.41' });
    const set = new Set(['8471.30']);
    const known = ['8471.30'];
    const lists = [set, { has: (c: string) => known.includes(c) }, (c: string) => known.includes(c)];
    for (const hsCodes of lists) expect(checkInvoice(invoice, { hsCodes }).ok).toBe(false);
    set.add('8471.41');
    known.push('8471.41');
    for (const hsCodes of lists) expect(checkInvoice(invoice, { hsCodes }).ok).toBe(true);

    const frozen = Object.freeze(['8471.41']);
    expect(checkInvoice(invoice, { hsCodes: frozen }).ok).toBe(true);
    expect(checkInvoice(invoice, { hsCodes: frozen }).ok).toBe(true);

    // A one-shot iterator is read once and kept: a second call still knows its codes.
    const iterator = new Map([['8471.41', 'Laptops']]).keys();
    expect(checkInvoice(invoice, { hsCodes: iterator }).ok).toBe(true);
    expect(checkInvoice(invoice, { hsCodes: iterator }).ok).toBe(true);
  });

  it('compares expectedTotals.tax with taxTotal as amounts, not as text', () => {
    // validInvoice's tax is 262.50.
    for (const [tax, taxTotal] of [[262.5, '262.50'], ['262.5', 262.5], ['0262.500', '262.50'], [262.5, 262.5]] as const) {
      const r = checkInvoice(validInvoice(), { expectedTotals: { tax, taxTotal } });
      expect(r.errors, `${tax} / ${taxTotal}`).toEqual([]);
    }
    const mismatch = checkInvoice(validInvoice(), { expectedTotals: { tax: '262.4', taxTotal: 262.4 } });
    expect(mismatch.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['TOTALS_MISMATCH', 'options.expectedTotals.taxTotal']]);
    const different = checkInvoice(validInvoice(), { expectedTotals: { tax: 262.5, taxTotal: '262.51' } });
    expect(different.errors.map((i) => [i.code, formatIssuePath(i.path), i.message])).toEqual([
      [
        'OPTION_INVALID',
        'options.expectedTotals.tax',
        'Option options.expectedTotals.tax is 262.5; expected the same figure as taxTotal (262.51), or only one of the two.',
      ],
    ]);
  });

  it('reports a figure given as expectedTotals.tax at the key tax', () => {
    const wrong = checkInvoice(validInvoice(), { expectedTotals: { tax: 100 } });
    expect(wrong.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['TOTALS_MISMATCH', 'options.expectedTotals.tax']]);
    expect(wrong.errors[0]?.message).toMatch(/^options\.expectedTotals\.tax: you expect 100\.00 but the lines add up to 262\.50/);

    const unusable = checkInvoice(validInvoice(), { expectedTotals: { tax: 'abc' } });
    expect(unusable.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['OPTION_INVALID', 'options.expectedTotals.tax']]);

    const notReconciled = checkInvoice(withLine({ quantity: 'two' }), { expectedTotals: { tax: 1 } });
    expect(notReconciled.warnings.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['TOTALS_NOT_RECONCILED', 'options.expectedTotals']]);

    // One usable and one unusable figure: the unusable one is reported at its key, the other compared.
    const half = checkInvoice(validInvoice(), { expectedTotals: { tax: 'abc', taxTotal: '262.49' } });
    expect(half.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([
      ['OPTION_INVALID', 'options.expectedTotals.tax'],
      ['TOTALS_MISMATCH', 'options.expectedTotals.taxTotal'],
    ]);
  });
});
