import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoice, type CheckOptions } from '../../../src/check/index.js';
import { HS_CODES } from '../../../src/codes/index.js';
import { ISIC_CODES, PADDED_ISIC_HS_CODES } from '../../../src/codes/isic-codes.js';
import { withLine } from '../fixtures.js';

const issuesAt = (hsnCode: unknown, opts?: CheckOptions, extra: Record<string, unknown> = {}) => {
  const r = checkInvoice(withLine({ hsnCode, ...extra }), opts);
  return [...r.errors, ...r.warnings].filter((i) => i.path[0] === 'lines' && i.path[1] === 0);
};
const codesFor = (hsnCode: unknown, opts?: CheckOptions, extra?: Record<string, unknown>) =>
  issuesAt(hsnCode, opts, extra).map((i) => i.code);

describe('check/rules/classification', () => {
  it("reports a line with neither code in the service's own words", () => {
    const [issue] = issuesAt(undefined);
    expect(issue?.code).toBe('CLASSIFICATION_MISSING');
    expect(issue?.message).toContain('invalid or missing classification code');
    expect(issue?.hint).toContain('/api/v1/taxauth/hs-codes');
  });

  it('treats null as absent, as the service does for optional fields', () => {
    expect(codesFor(null)).toEqual(['CLASSIFICATION_MISSING']);
    expect(codesFor('8471.30', undefined, { isicCode: null })).toEqual([]);
  });

  it('reports both codes as an error even when one of them is valid', () => {
    expect(codesFor('8471.30', undefined, { isicCode: '6202' })).toEqual(['CLASSIFICATION_BOTH']);
  });

  it('says which code to drop when a line has both, from which one is valid in its table', () => {
    const both = (hsnCode: string, isicCode: string, opts?: CheckOptions) =>
      checkInvoice(withLine({ hsnCode, isicCode }), opts).errors.find((i) => i.code === 'CLASSIFICATION_BOTH');
    // A good: the HS code is real, the ISIC code is not.
    const good = both('8471.30', '8471');
    expect(good?.message).toContain('hsnCode "8471.30" and isicCode "8471"');
    expect(good?.hint).toContain('Keep hsnCode and remove isicCode');
    // A service: the ISIC class is real, the HS code is a padded service code.
    const service = both('6202.00', '6202');
    expect(service?.hint).toContain('Keep isicCode and remove hsnCode');
    expect(both('9999.99', '6202')?.hint).toContain('Keep isicCode and remove hsnCode');
    // Both valid: the line's nature decides; neither valid: point at the lookups.
    expect(both('8471.30', '6202')?.hint).toMatch(/^Both are valid codes: keep hsnCode "8471.30" if the line is a good, or isicCode "6202"/);
    expect(both('9999.99', '9999')?.hint).toMatch(/^Neither is a valid code/);
    // Judged by the lists in force: the caller's, or the format only.
    expect(both('8471.30', '6202', { isicCodes: ['6201'] })?.hint).toContain('Keep hsnCode and remove isicCode');
    expect(both('9999.99', '6202', { hsCodes: false })?.hint).toMatch(/^Both are valid codes/);
  });

  it('checks isicCode for format and placeholder only with isicCodes: false', () => {
    const isic = (isicCode: string, opts?: CheckOptions) =>
      [...checkInvoice(withLine({ isicCode }, 1), opts).errors, ...checkInvoice(withLine({ isicCode }, 1), opts).warnings].map((i) => i.code);
    expect(isic('9999')).toEqual(['ISIC_CODE_UNKNOWN']);
    expect(isic('9999', { isicCodes: false })).toEqual([]);
    expect(isic('0000', { isicCodes: false })).toEqual(['ISIC_CODE_PLACEHOLDER']);
    expect(isic('99999', { isicCodes: false })).toEqual(['ISIC_CODE_FORMAT']);
    // The padding rule still knows the ISIC classes.
    expect(codesFor('6202.00', { isicCodes: false, hsCodes: false })).toEqual(['HSN_CODE_PADDED_ISIC']);
  });

  it('reads a four-digit hsnCode as an ISIC code and says so', () => {
    const [issue] = issuesAt('6202');
    expect(issue?.code).toBe('HSN_CODE_FOUR_DIGITS');
    expect(issue?.message).toContain('ISIC service code');
    expect(issue?.hint).toContain('isicCode "6202"');
  });

  it('does not suggest isicCode for four digits that are no ISIC class', () => {
    const [issue] = issuesAt('8471');
    expect(issue?.code).toBe('HSN_CODE_FOUR_DIGITS');
    expect(issue?.hint).not.toContain('isicCode "8471"');
    expect(issue?.hint).toContain('never pad');
  });

  it('rejects both placeholders with the service wording', () => {
    for (const placeholder of ['0000.00', '0000', '00.00.00']) {
      const [issue] = issuesAt(placeholder);
      expect(issue?.code).toBe('HSN_CODE_PLACEHOLDER');
      expect(issue?.message).toContain('invalid or missing classification code');
    }
    const isic = checkInvoice(withLine({ isicCode: '0000' }, 1));
    expect(isic.errors.map((i) => i.code)).toEqual(['ISIC_CODE_PLACEHOLDER']);
  });

  it('flags an ISIC class padded to NNNN.00 as an error when it is no HS subheading', () => {
    const [issue] = issuesAt('6202.00');
    expect(issue).toMatchObject({ code: 'HSN_CODE_PADDED_ISIC', severity: 'error' });
    expect(issue?.hint).toContain('isicCode "6202"');
  });

  it('flags a padded-looking code that is a real HS subheading as a warning only (7020.00, 9602.00)', () => {
    for (const code of ['7020.00', '9602.00', '0510.00']) {
      const [issue] = issuesAt(code);
      expect(issue).toMatchObject({ code: 'HSN_CODE_LOOKS_PADDED', severity: 'warning' });
    }
  });

  it('decides real-or-padded from the HS list when one is given', () => {
    expect(codesFor('7020.00', { hsCodes: HS_CODES })).toEqual(['HSN_CODE_LOOKS_PADDED']);
    expect(codesFor('7020.00', { hsCodes: ['8471.30'] })).toEqual(['HSN_CODE_PADDED_ISIC']);
    expect(codesFor('6202.00', { hsCodes: () => true })).toEqual(['HSN_CODE_LOOKS_PADDED']);
  });

  it('does not flag NNNN.00 headings that are not ISIC classes as padded', () => {
    expect(codesFor('0105.00', { hsCodes: false })).toEqual([]);
    expect(codesFor('9999.00', { hsCodes: false })).toEqual([]);
    // By default they are judged by the bundled HS table: neither is an HS 2022 subheading.
    expect(codesFor('0105.00')).toEqual(['HSN_CODE_UNKNOWN']);
    expect(codesFor('9999.00')).toEqual(['HSN_CODE_UNKNOWN']);
    expect(codesFor('0205.00')).toEqual([]);
  });

  it('checks membership against the bundled HS 2022 table by default, and the format only with hsCodes: false', () => {
    expect(codesFor('9999.99', { hsCodes: false })).toEqual([]);
    expect(codesFor('9401.30', { hsCodes: false })).toEqual([]);
    for (const opts of [undefined, {}, { hsCodes: undefined }, { hsCodes: null as never }, { hsCodes: HS_CODES }]) {
      const [issue] = issuesAt('9999.99', opts);
      expect(issue?.code, JSON.stringify(opts)).toBe('HSN_CODE_UNKNOWN');
      // 9401.30 was an HS 2017 subheading; HS 2022 splits it into 9401.31 and 9401.39.
      const [chair] = issuesAt('9401.30', opts);
      expect(chair?.code).toBe('HSN_CODE_UNKNOWN');
      expect(chair?.hint).toMatch(/^Did you mean one of 9401\.\d\d(, 9401\.\d\d)+\?/);
      expect(codesFor('9401.31', opts)).toEqual([]);
    }
    const [issue] = issuesAt('9999.99', { hsCodes: HS_CODES });
    expect(issue?.code).toBe('HSN_CODE_UNKNOWN');
    const [near] = issuesAt('8471.99', { hsCodes: HS_CODES });
    expect(near?.hint).toContain('8471.30');
    // Several candidates read as a list to pick from, not as one quoted value.
    expect(near?.hint).toMatch(/^Did you mean one of 8471\.\d\d(, 8471\.\d\d)+\?/);
    const [single] = issuesAt('8471.31', { hsCodes: new Set(['8471.30']) });
    expect(single?.hint).toMatch(/^Did you mean "8471\.30"\?/);
  });

  it('accepts a code list as a Set, an array, a has() object or a predicate', () => {
    const lists: CheckOptions['hsCodes'][] = [
      new Set(['8471.30']),
      ['8471.30'],
      { has: (c: string) => c === '8471.30' },
      (c: string) => c === '8471.30',
    ];
    for (const hsCodes of lists) {
      expect(codesFor('8471.30', { hsCodes })).toEqual([]);
      expect(codesFor('8471.41', { hsCodes })).toEqual(['HSN_CODE_NOT_LISTED']);
    }
  });

  it('suggests the NNNN.NN form for near misses', () => {
    const cases: [string, string][] = [
      ['847130', '8471.30'],
      ['8471.3', '8471.30'],
      [' 8471.30 ', '8471.30'],
      ['8471.30.00', '8471.30'],
      ['84713000', '8471.30'],
    ];
    for (const [input, suggestion] of cases) {
      const [issue] = issuesAt(input);
      expect(issue?.code, input).toBe('HSN_CODE_FORMAT');
      expect(issue?.hint, input).toContain(`"${suggestion}"`);
    }
  });

  it('never suggests padding a service code', () => {
    const [issue] = issuesAt('620200');
    expect(issue?.code).toBe('HSN_CODE_FORMAT');
    expect(issue?.hint).not.toContain('6202.00');
  });

  it('explains a numeric hsnCode and shows the string it lost', () => {
    const [issue] = issuesAt(8471.3);
    expect(issue?.code).toBe('FIELD_WRONG_TYPE');
    expect(issue?.hint).toContain('"8471.30"');
  });

  it('reads a numeric four-digit hsnCode as a service code and never suggests padding it', () => {
    const [service] = issuesAt(6202);
    expect(service?.code).toBe('FIELD_WRONG_TYPE');
    expect(service?.message).toContain('four-digit');
    expect(service?.hint).toContain('isicCode "6202"');
    expect(service?.hint).toContain('six-digit HS subheading');
    expect(service?.hint).not.toContain('6202.00');

    const [good] = issuesAt(8471);
    expect(good?.hint).not.toContain('isicCode "8471"');
    expect(good?.hint).not.toContain('8471.00');
    expect(good?.hint).toContain('six-digit HS subheading');

    // 111 lost its leading zero: ISIC class 0111.
    expect(issuesAt(111)[0]?.hint).toContain('isicCode "0111"');
  });

  it('suggests no string for a numeric placeholder', () => {
    for (const hsnCode of [0, 0.0]) {
      const [issue] = issuesAt(hsnCode);
      expect(issue?.code).toBe('FIELD_WRONG_TYPE');
      expect(issue?.hint).not.toContain('0000');
    }
    const isic = checkInvoice(withLine({ isicCode: 0 }, 1)).errors[0];
    expect(isic?.code).toBe('FIELD_WRONG_TYPE');
    expect(isic?.hint).not.toContain('0000');
  });

  it('never suggests a placeholder or a padded service code for any numeric or near-miss hsnCode (property)', () => {
    const isic = [...ISIC_CODES];
    const value = fc.oneof(
      fc.integer({ min: 0, max: 9999 }),
      fc.constantFrom(...isic).map(Number),
      fc.integer({ min: 0, max: 999_999 }).map((n) => n / 100),
      fc.integer({ min: 0, max: 9_999_999 }).map((n) => n / 1000),
      fc.constantFrom(...isic).map((c) => `${c}.0`),
      fc.constantFrom(...isic).map((c) => `${c}0`),
      fc.constantFrom(...isic).map((c) => `${c}.000`),
    );
    const quoted = /"(\d{4}(?:\.\d\d)?)"/g;
    fc.assert(
      fc.property(value, (hsnCode) => {
        for (const issue of issuesAt(hsnCode)) {
          for (const [, code] of `${issue.hint ?? ''}`.matchAll(quoted)) {
            const bad = code === '0000' || code === '0000.00' || (code!.endsWith('.00') && ISIC_CODES.has(code!.slice(0, 4)));
            expect(bad, `${String(hsnCode)}: ${issue.hint}`).toBe(false);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('checks isicCode against the 419 classes and suggests neighbours', () => {
    const r = checkInvoice(withLine({ isicCode: '6203' }, 1));
    expect(r.ok).toBe(true);
    expect(r.warnings[0]).toMatchObject({ code: 'ISIC_CODE_UNKNOWN', severity: 'warning', path: ['lines', 1, 'isicCode'] });
    expect(r.warnings[0]?.hint).toContain('6201, 6202, 6209');
  });

  it('explains malformed isicCode values', () => {
    const hint = (isicCode: unknown) => checkInvoice(withLine({ isicCode }, 1)).errors[0];
    expect(hint('6202.00')).toMatchObject({ code: 'ISIC_CODE_FORMAT' });
    expect(hint('6202.00')?.hint).toContain('"6202"');
    expect(hint('8471.30')?.message).toContain('hsnCode');
    expect(hint('111')?.hint).toContain('"0111"');
    expect(hint('J6202')?.hint).toContain('"6202"');
    expect(hint(111)).toMatchObject({ code: 'FIELD_WRONG_TYPE' });
    expect(hint(111)?.hint).toContain('"0111"');
    expect(hint('')?.message).toContain('empty');
  });

  it('names the list an unknown code is missing from', () => {
    expect(issuesAt('9999.99')[0]?.message).toContain('not in the bundled HS 2022 subheadings');
    expect(issuesAt('9999.99', { hsCodes: ['8471.30'] })[0]?.message).toContain('not in the HS code list used: opts.hsCodes');
    expect(checkInvoice(withLine({ isicCode: '9999' }, 1)).warnings[0]?.message).toContain('is not one of the 419 bundled ISIC Rev. 4 classes');
    expect(checkInvoice(withLine({ isicCode: '6202' }, 1), { isicCodes: ['6201'] }).errors[0]?.message).toContain(
      'is not in the ISIC code list used: opts.isicCodes',
    );
  });

  it('warns about a code outside the bundled tables, and refuses one outside a list given (the service\'s)', () => {
    const offline = checkInvoice(withLine({ hsnCode: '9999.99' }));
    expect(offline.ok).toBe(true);
    expect(offline.warnings.map((i) => [i.code, i.severity])).toEqual([['HSN_CODE_UNKNOWN', 'warning']]);
    const listed = checkInvoice(withLine({ hsnCode: '9999.99' }), { hsCodes: new Set(['9999.99']) });
    expect([...listed.errors, ...listed.warnings]).toEqual([]);
    const given = checkInvoice(withLine({ hsnCode: '9999.99' }), { hsCodes: new Set(['8471.30']) });
    expect(given.errors.map((i) => [i.code, i.severity])).toEqual([['HSN_CODE_NOT_LISTED', 'error']]);
  });

  it('uses opts.isicCodes instead of the bundled classes when given', () => {
    expect(checkInvoice(withLine({ isicCode: '6202' }, 1), { isicCodes: ['6201'] }).errors[0]?.code).toBe('ISIC_CODE_NOT_LISTED');
    expect(checkInvoice(withLine({ isicCode: '6203' }, 1), { isicCodes: ['6203'] }).ok).toBe(true);
  });

  it('judges every NNNN.NN exactly as the written-out rules do, with the bundled table, a list or none (property)', () => {
    // A well-formed code is reported only when it ends in .00 or is checked against a list; the rules in order.
    const reference = (code: string, given: ReadonlySet<string> | false | undefined): string[] => {
      // No option: the bundled HS 2022 table. false: the format rules only.
      const list = given === undefined ? HS_CODES : given === false ? undefined : given;
      if (code === '0000.00') return ['HSN_CODE_PLACEHOLDER'];
      if (code.endsWith('.00') && ISIC_CODES.has(code.slice(0, 4))) {
        const real = list !== undefined ? list.has(code) : PADDED_ISIC_HS_CODES.has(code);
        return [real ? 'HSN_CODE_LOOKS_PADDED' : 'HSN_CODE_PADDED_ISIC'];
      }
      return list !== undefined && !list.has(code) ? [list === HS_CODES ? 'HSN_CODE_UNKNOWN' : 'HSN_CODE_NOT_LISTED'] : [];
    };
    const isic = [...ISIC_CODES];
    const hs = [...HS_CODES];
    const pair = fc.oneof(fc.constant('00'), fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')));
    const code = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')), pair).map(([h, p]) => `${h}.${p}`),
      fc.tuple(fc.constantFrom(...isic), pair).map(([h, p]) => `${h}.${p}`),
      fc.constantFrom(...hs, ...PADDED_ISIC_HS_CODES, '0000.00'),
    );
    const list = fc.option(fc.constantFrom<ReadonlySet<string> | false>(HS_CODES, new Set(hs.slice(0, 500)), false), { nil: undefined });
    fc.assert(
      fc.property(code, list, (c, l) => {
        expect(codesFor(c, l === undefined ? undefined : { hsCodes: l }), c).toEqual(reference(c, l));
      }),
      { numRuns: 2000 },
    );
  });

  it('judges every four-digit isicCode as the written-out rules do, with the bundled classes or a list (property)', () => {
    const reference = (code: string, list: ReadonlySet<string> | undefined): string[] => {
      if (code === '0000') return ['ISIC_CODE_PLACEHOLDER'];
      return (list ?? ISIC_CODES).has(code) ? [] : [list === undefined ? 'ISIC_CODE_UNKNOWN' : 'ISIC_CODE_NOT_LISTED'];
    };
    const code = fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
      fc.constantFrom(...ISIC_CODES, '0000', '9999', '0001'),
    );
    const list = fc.option(fc.constantFrom(new Set(['6201', '0000', '0111']), new Set([...ISIC_CODES].slice(0, 200))), { nil: undefined });
    const asPredicate = fc.boolean();
    fc.assert(
      fc.property(code, list, asPredicate, (c, l, predicate) => {
        const asked: string[] = [];
        const isicCodes = l === undefined ? undefined : predicate ? (x: string) => (asked.push(x), l.has(x)) : l;
        const r = checkInvoice(withLine({ isicCode: c }, 1), isicCodes === undefined ? undefined : { isicCodes });
        const got = [...r.errors, ...r.warnings].filter((i) => i.path[1] === 1).map((i) => i.code);
        expect(got, c).toEqual(reference(c, l));
        // The placeholder is reported without asking the caller's list.
        if (c === '0000') expect(asked).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
  it('reports both codes only with different values (rule 6)', () => {
    const same = checkInvoice(withLine({ hsnCode: '6202', isicCode: '6202' }));
    expect([...same.errors, ...same.warnings].map((i) => i.code)).not.toContain('CLASSIFICATION_BOTH');
    expect(checkInvoice(withLine({ isicCode: '6202' })).errors.map((i) => i.code)).toContain('CLASSIFICATION_BOTH');
  });
});
