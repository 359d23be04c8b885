import { describe, expect, it } from 'vitest';
import { checkInvoice, checkInvoiceAsSent, formatIssuePath, type CheckOptions } from '../../src/check/index.js';
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
    expect(checkInvoice(invoice, { hsCodes }).errors.map((i) => i.code)).toEqual(['HSN_CODE_NOT_LISTED']);
    hsCodes.push('8471.41');
    expect(checkInvoice(invoice, { hsCodes }).errors).toEqual([]);
    hsCodes.length = 0;
    expect(checkInvoice(invoice, { hsCodes }).errors.map((i) => i.code)).toEqual(['HSN_CODE_NOT_LISTED']);

    const isicCodes = ['6201'];
    const service = withLine({ isicCode: '6202' }, 1);
    expect(checkInvoice(service, { isicCodes }).errors.map((i) => i.code)).toEqual(['ISIC_CODE_NOT_LISTED']);
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

  describe('options that throw when read', () => {
    const boom = (what: string) => () => {
      throw new Error(what);
    };
    /** checkInvoice on the valid invoice; fails the test if it throws. */
    const run = (opts: unknown) => {
      let report: ReturnType<typeof checkInvoice> | undefined;
      expect(() => {
        report = checkInvoice(validInvoice(), opts as CheckOptions);
      }).not.toThrow();
      return report as ReturnType<typeof checkInvoice>;
    };
    const unreadable = (r: ReturnType<typeof checkInvoice>) =>
      r.errors.filter((i) => i.code === 'OPTION_INVALID').map((i) => [formatIssuePath(i.path), i.message]);

    it('reports a throwing getter as OPTION_INVALID naming the option, and checks the invoice anyway', () => {
      const r = run({ get strict() {
        throw new Error('boom');
      } });
      expect(unreadable(r)).toEqual([['options.strict', 'Option options.strict could not be read: Error: boom.']]);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]?.hint).toContain('not a problem of the invoice itself');
      expect(r.totals?.total).toBe('3762.48');
    });

    it('reports every option of a proxy that throws on every read, and uses the defaults', () => {
      const r = run(new Proxy({}, { get: boom('proxy says no') }));
      const paths = unreadable(r).map(([path]) => path);
      expect(paths).toContain('options.strict');
      expect(paths).toContain('options.hsCodes');
      expect(paths).toContain('options.expectedTotals');
      for (const [, message] of unreadable(r)) expect(message).toContain('Error: proxy says no');
      expect(r.totals?.total).toBe('3762.48');
    });

    it('reports an ignore, hsCodes or isicCodes list whose iterator throws at that option', () => {
      const throwingIterable = { [Symbol.iterator]: boom('iterator says no') };
      expect(unreadable(run({ ignore: throwingIterable }))).toEqual([
        ['options.ignore', 'Option options.ignore could not be read: Error: iterator says no.'],
      ]);
      expect(unreadable(run({ hsCodes: throwingIterable })).map(([path]) => path)).toEqual(['options.hsCodes']);
      expect(unreadable(run({ isicCodes: throwingIterable })).map(([path]) => path)).toEqual(['options.isicCodes']);
      // A code list whose has() cannot even be looked up.
      expect(unreadable(run({ hsCodes: { get has() {
        throw new Error('no has');
      } } })).map(([path]) => path)).toEqual(['options.hsCodes']);
    });

    it('reports expected totals that cannot be read or turned into text, and never calls their toString', () => {
      const hostile = { toString: boom('toString says no'), valueOf: boom('valueOf says no') };
      const r = run({ expectedTotals: { tax: hostile, taxTotal: 1 } });
      expect(unreadable(r).map(([path]) => path)).toEqual(['options.expectedTotals.tax']);
      expect(run({ expectedTotals: { total: hostile } }).errors.map((i) => formatIssuePath(i.path))).toEqual(['options.expectedTotals.total']);

      const getter = run({ expectedTotals: { get total() {
        throw new Error('getter says no');
      } } });
      expect(unreadable(getter)).toEqual([['options.expectedTotals.total', 'Option options.expectedTotals.total could not be read: Error: getter says no.']]);
      expect(getter.totals?.total).toBe('3762.48');

      const keys = run({ expectedTotals: new Proxy({}, { ownKeys: boom('ownKeys says no') }) });
      expect(unreadable(keys).map(([path]) => path)).toEqual(['options.expectedTotals']);
    });

    it('still applies the options that could be read', () => {
      const r = run({
        get strict() {
          throw new Error('boom');
        },
        ignore: ['BUYER_TIN_MISSING'],
        expectedTotals: { total: '1' },
      });
      expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([
        ['OPTION_INVALID', 'options.strict'],
        ['TOTALS_MISMATCH', 'options.expectedTotals.total'],
      ]);
    });

    it('shows an option value that fights back without throwing', () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      const r = run({ hsCodes: proxy, rounding: proxy });
      expect(r.errors.map((i) => formatIssuePath(i.path))).toEqual(['options.hsCodes', 'options.rounding']);
      expect(r.totals?.total).toBe('3762.48');
    });
  });

  describe('code lists that throw when asked about a code', () => {
    const fail = (error: unknown) => () => {
      throw error;
    };
    const codes = (r: ReturnType<typeof checkInvoice>) => [...r.errors, ...r.warnings].map((i) => [i.code, formatIssuePath(i.path)]);

    it('reports a throwing hsCodes predicate at options.hsCodes, not as unreadable input, and checks the invoice without it', () => {
      for (const check of [checkInvoice, checkInvoiceAsSent]) {
        const r = check(withLine({ quantity: 0 }), { hsCodes: fail(new Error('code service down')) });
        expect(codes(r)).toEqual([
          ['OPTION_INVALID', 'options.hsCodes'],
          ['LINE_QUANTITY_NOT_POSITIVE', 'lines[0].quantity'],
        ]);
        expect(r.errors[0]?.message).toBe('Option options.hsCodes threw when asked about "8471.30": Error: code service down.');
        expect(r.errors[0]?.hint).toContain('not a problem of the invoice itself');
        expect(r.totals?.total).toBe('1612.50');
      }
    });

    it('reports a throwing isicCodes has() at options.isicCodes and uses the bundled classes instead', () => {
      const inv = validInvoice();
      ((inv.lines as Record<string, unknown>[])[1] as Record<string, unknown>).isicCode = '9999';
      const r = checkInvoice(inv, { isicCodes: { has: fail(new TypeError('not ready')) } });
      expect(codes(r)).toEqual([
        ['OPTION_INVALID', 'options.isicCodes'],
        ['ISIC_CODE_UNKNOWN', 'lines[1].isicCode'],
      ]);
      expect(r.errors[0]?.message).toBe('Option options.isicCodes threw when asked about "9999": TypeError: not ready.');
      expect(r.totals?.total).toBe('3762.48');
    });

    it('reports each list when both throw, and a Set whose own has() throws', () => {
      class FlakySet extends Set<string> {
        override has(): boolean {
          throw new Error('flaky');
        }
      }
      const r = checkInvoice(validInvoice(), { hsCodes: new FlakySet(['8471.30']), isicCodes: fail(new Error('down')) });
      expect(codes(r)).toEqual([
        ['OPTION_INVALID', 'options.hsCodes'],
        ['OPTION_INVALID', 'options.isicCodes'],
      ]);
      expect(r.errors.map((i) => i.message)).toEqual([
        'Option options.hsCodes threw when asked about "8471.30": Error: flaky.',
        'Option options.isicCodes threw when asked about "6202": Error: down.',
      ]);
    });

    it('describes what was thrown as other thrown values are, even when it fights back', () => {
      const hostile = new Error('hidden');
      Object.defineProperty(hostile, 'message', {
        get() {
          throw new Error('no message for you');
        },
      });
      expect(checkInvoice(validInvoice(), { hsCodes: fail(hostile) }).errors.map((i) => i.message)).toEqual([
        'Option options.hsCodes threw when asked about "8471.30": a value was thrown.',
      ]);
      expect(checkInvoice(validInvoice(), { hsCodes: fail({ secret: 'sk_live_123' }) }).errors.map((i) => i.message)).toEqual([
        'Option options.hsCodes threw when asked about "8471.30": a non-Error value was thrown.',
      ]);
    });
  });
});
