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
});
