import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../../src/check/index.js';
import { PLACEHOLDER_WORDS, looksLikeEmail, tinPlaceholderReason } from '../../../src/check/rules/buyer.js';
import { withBuyer } from '../fixtures.js';

const codes = (patch: Record<string, unknown>, opts?: Parameters<typeof checkInvoice>[1]) => {
  const r = checkInvoice(withBuyer(patch), opts);
  return [...r.errors, ...r.warnings].map((i) => i.code);
};

describe('check/rules/buyer', () => {
  it('rejects a missing TIN on B2B and B2G as an error, naming the consequence', () => {
    for (const type of ['B2B', 'B2G']) {
      for (const tin of [undefined, null]) {
        const r = checkInvoice(withBuyer({ type, tin }));
        expect(r.ok).toBe(false);
        expect(r.warnings).toEqual([]);
        expect(r.errors).toHaveLength(1);
        expect(r.errors[0]).toMatchObject({ code: 'BUYER_TIN_MISSING', severity: 'error', path: ['buyer', 'tin'] });
        expect(r.errors[0]?.message).toContain('wrong party');
        expect(r.errors[0]?.message).toContain(type);
      }
    }
    expect(codes({ type: 'B2C', tin: undefined })).toEqual([]);
    expect(checkInvoice(withBuyer({ type: 'B2C', tin: undefined })).ok).toBe(true);
  });

  it('rejects a blank or placeholder TIN on B2B and B2G as an error', () => {
    for (const type of ['B2B', 'B2G']) {
      for (const tin of ['', '   ', 'N/A', '000000000']) {
        const r = checkInvoice(withBuyer({ type, tin }));
        expect(r.ok, `${type} ${JSON.stringify(tin)}`).toBe(false);
        expect(r.errors.map((i) => i.code)).toEqual(['BUYER_TIN_PLACEHOLDER']);
      }
    }
  });

  it('rejects obvious placeholder TINs', () => {
    for (const tin of ['N/A', 'n.a.', 'NONE', '0000000000', '1111-1111-11', 'XXXXXXXX', '', '  ', 'TBD']) {
      expect(codes({ tin }), tin).toEqual(['BUYER_TIN_PLACEHOLDER']);
      expect(checkInvoice(withBuyer({ tin })).errors.map((i) => i.code), tin).toEqual(['BUYER_TIN_PLACEHOLDER']);
    }
  });

  it('only warns about a TIN that a guess finds odd (too short, a digit run): the format is not shown', () => {
    for (const tin of ['AB123', 'abc', '123456789', '987654321']) {
      const r = checkInvoice(withBuyer({ tin }));
      expect(r.ok, tin).toBe(true);
      expect(r.warnings.map((i) => [i.code, i.severity]), tin).toEqual([['BUYER_TIN_SUSPICIOUS', 'warning']]);
      expect(checkInvoice(withBuyer({ tin }), { strict: true }).errors.map((i) => i.code)).toEqual(['BUYER_TIN_SUSPICIOUS']);
    }
  });

  it('rejects a placeholder TIN on a B2C buyer too', () => {
    expect(codes({ type: 'B2C', tin: '000000' })).toEqual(['BUYER_TIN_PLACEHOLDER']);
  });

  it('accepts plausible TINs in their usual spellings', () => {
    for (const tin of ['12345678-0001', '20145678 0001', 'GB123456789', 'DE 811 907 980', '0123-4567-89X']) {
      expect(codes({ tin }), tin).toEqual([]);
    }
  });

  it('says why a TIN looks like a placeholder', () => {
    expect(tinPlaceholderReason('0000', 6)).toBe('all one digit');
    expect(tinPlaceholderReason('12345', 6)).toBe('a run of consecutive digits');
    expect(tinPlaceholderReason('A1B2', 6)).toMatch(/too short: 4/);
    expect(tinPlaceholderReason('A1B2', 4)).toBeUndefined();
    expect(tinPlaceholderReason('N/A', 6)).toBe('a placeholder word');
  });

  it('honours minTinLength', () => {
    expect(codes({ tin: 'A1B2C3' }, { minTinLength: 8 })).toEqual(['BUYER_TIN_SUSPICIOUS']);
    expect(codes({ tin: 'A1B2C3' })).toEqual([]);
  });

  it('suggests the right buyer type for a near miss', () => {
    const r = checkInvoice(withBuyer({ type: 'business' }));
    expect(r.errors[0]?.code).toBe('BUYER_TYPE_INVALID');
    expect(r.errors[0]?.message).toContain('B2B');
    expect(checkInvoice(withBuyer({ type: ' b2g ' })).errors[0]?.hint).toContain('Send "B2G"');
    expect(codes({ type: undefined })).toEqual(['FIELD_REQUIRED']);
    expect(codes({ type: 2 })).toEqual(['FIELD_WRONG_TYPE']);
  });

  it('does not guess about the TIN when the type is unknown', () => {
    expect(codes({ type: 'B2X', tin: undefined })).toEqual(['BUYER_TYPE_INVALID']);
  });

  it('checks the types of optional fields and the shape of an e-mail address', () => {
    expect(codes({ name: 42 })).toEqual(['FIELD_WRONG_TYPE']);
    for (const email of ['someone@', '@acme.example', 'a@@acme.example', 'a b@acme.example', 'a@acme', 'a@acme.', '+44 20 7946 0000']) {
      expect(codes({ email }), email).toEqual(['BUYER_EMAIL_INVALID']);
    }
    for (const email of ['ap@acme.example', 'first.last+tag@sub.acme.co.uk']) expect(codes({ email }), email).toEqual([]);
    expect(codes({ email: null, name: null })).toEqual([]);
  });

  it('judges TINs exactly as the written-out rules do (property)', () => {
    // The rules one at a time, on the TIN without its separators.
    const words = new Set(['NA', 'NONE', 'NULL', 'NIL', 'UNKNOWN', 'TBD', 'TBA', 'TBC', 'PENDING', 'TEST', 'TIN', 'NOTIN',
      'NOTAPPLICABLE', 'UNDEFINED', 'EMPTY', 'DUMMY', 'PLACEHOLDER', 'SAMPLE', 'EXAMPLE', 'MISSING', 'NOTAVAILABLE', 'ABC123', 'ABCDEF']);
    const reference = (tin: string, min: number): string | undefined => {
      const core = tin.replace(/[ \t\u00a0\-./_]/g, '');
      if (core.length === 0) return 'it is blank';
      const allDigits = /^[0-9]+$/.test(core);
      if (!allDigits && core.length <= 13 && words.has(core.toUpperCase())) return 'a placeholder word';
      if (core.length > 1 && [...core].every((c) => c === core[0])) return allDigits ? 'all one digit' : 'one character repeated';
      const step = (d: number) => [...core].every((c, i) => i === 0 || Number(c) === (Number(core[i - 1]) + d + 10) % 10);
      if (allDigits && core.length >= 4 && (step(1) || step(-1))) return 'a run of consecutive digits';
      if (core.length < min) return `too short: ${core.length} letters and digits, fewer than ${min}`;
      return undefined;
    };
    const char = fc.constantFrom('0', '1', '2', '3', '8', '9', '-', ' ', '.', '/', 'A', 'n', 'a', 'x');
    const tin = fc.oneof(
      fc.array(char, { maxLength: 16 }).map((cs) => cs.join('')),
      fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 14 }), fc.boolean()).map(([start, n, up]) =>
        Array.from({ length: n }, (_, i) => String((start + (up ? i : -i) + 100) % 10)).join(''),
      ),
      fc.constantFrom('n/a', 'TBD', 'abc-123', 'N.A.', 'Not Available'),
    );
    fc.assert(
      fc.property(tin, fc.integer({ min: 0, max: 10 }), (t, min) => {
        expect(tinPlaceholderReason(t, min), JSON.stringify(t)).toBe(reference(t, min));
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts exactly the emails the written-out rule accepts (property)', () => {
    // The rule as stated: one "@" with something before it, a dot at least two characters after it
    // and not at the end, no whitespace.
    const reference = (s: string): boolean => {
      const at = s.indexOf('@');
      if (at < 1 || s.indexOf('@', at + 1) !== -1) return false;
      const dot = s.lastIndexOf('.');
      if (dot < at + 2 || dot === s.length - 1) return false;
      return !/[\u0000-\u0020\u00a0]/.test(s);
    };
    const char = fc.constantFrom('a', 'b', '1', '@', '.', ' ', '\u00a0', '\t', '-', '+', 'é');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 14 }).map((cs) => cs.join('')), (s) => {
        expect(looksLikeEmail(s), JSON.stringify(s)).toBe(reference(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('stops reading a TIN early only when the rest cannot change the answer (property)', () => {
    // The rules once more, over every digit, the characters either side of the digit range (':'
    // and '/'), letters after digits, the placeholder words themselves and TINs long enough for the
    // scan to stop before the end.
    const separators = new Set([' ', '\t', '\u00a0', '-', '.', '/', '_']);
    const reference = (tin: string, min: number): string | undefined => {
      const core = [...tin].filter((c) => !separators.has(c)).join('');
      if (core === '') return 'it is blank';
      const digitsOnly = [...core].every((c) => c >= '0' && c <= '9');
      if (!digitsOnly && core.length <= 13 && PLACEHOLDER_WORDS.has(core.toUpperCase())) return 'a placeholder word';
      if (core.length > 1 && new Set(core).size === 1) return digitsOnly ? 'all one digit' : 'one character repeated';
      const steps = [...core].slice(1).map((c, i) => (Number(c) - Number(core[i]) + 10) % 10);
      if (digitsOnly && core.length >= 4 && (steps.every((s) => s === 1) || steps.every((s) => s === 9))) {
        return 'a run of consecutive digits';
      }
      if (core.length < min) return `too short: ${core.length} letters and digits, fewer than ${min}`;
      return undefined;
    };
    const char = fc.constantFrom(...'0123456789', ':', '/', '-', ' ', 'A', 'b', 'Z');
    const word = fc.constantFrom(...PLACEHOLDER_WORDS);
    const tin = fc.oneof(
      fc.array(char, { maxLength: 22 }).map((cs) => cs.join('')),
      fc.tuple(fc.array(fc.constantFrom(...'0123456789'), { minLength: 1, maxLength: 12 }), fc.array(char, { maxLength: 8 })).map(
        ([head, tail]) => head.join('') + tail.join(''),
      ),
      fc.tuple(word, fc.constantFrom('', '-', ' ', '.'), fc.boolean()).map(([w, sep, lower]) => {
        const text = sep === '' ? w : [...w].join(sep);
        return lower ? text.toLowerCase() : text;
      }),
    );
    fc.assert(
      fc.property(tin, fc.integer({ min: 0, max: 16 }), (t, min) => {
        expect(tinPlaceholderReason(t, min), JSON.stringify(t)).toBe(reference(t, min));
      }),
      { numRuns: 5000 },
    );
  });

  it('suggests buyer fields for common misnamings', () => {
    const r = checkInvoice(withBuyer({ tin: undefined, taxId: '12345678-0001' }));
    const unknown = r.warnings.find((i) => i.code === 'UNKNOWN_FIELD');
    expect(unknown?.path).toEqual(['buyer', 'taxId']);
    expect(unknown?.hint).toContain('Did you mean tin?');
  });
});
