import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../src/check/index.js';
import { didYouMean, editDistance } from '../../src/check/suggest.js';
import { validInvoice, withBuyer } from './fixtures.js';

describe('check/suggest', () => {
  it('counts edits, including adjacent transpositions as one', () => {
    expect(editDistance('hsCode', 'hsnCode')).toBe(1);
    expect(editDistance('qunatity', 'quantity')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('prefers aliases, then case-insensitive matches, then the nearest within reach', () => {
    expect(didYouMean('price', ['unitPrice'], { price: 'unitPrice' })).toBe('unitPrice');
    expect(didYouMean('UNITPRICE', ['unitPrice'])).toBe('unitPrice');
    expect(didYouMean('hsCode', ['hsnCode', 'isicCode'])).toBe('hsnCode');
    expect(didYouMean('zzz', ['hsnCode', 'isicCode'])).toBeUndefined();
  });

  it('reads aliases as own properties only, never from Object.prototype', () => {
    const aliases = { price: 'unitPrice' };
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(didYouMean(key, ['unitPrice'], aliases), key).toBeUndefined();
    }
    const aliasesWithoutPrototype = Object.assign(Object.create(null) as Record<string, string>, aliases);
    expect(didYouMean('constructor', ['unitPrice'], aliasesWithoutPrototype)).toBeUndefined();
  });

  it('gives no inherited "did you mean" for line and buyer keys such as constructor and __proto__', () => {
    const inv = JSON.parse(
      JSON.stringify(validInvoice())
        .replace('"type"', '"__proto__":0,"constructor":0,"type"')
        .replace('"hsnCode"', '"constructor":1,"__proto__":2,"toString":3,"hsnCode"'),
    ) as Record<string, unknown>;
    const r = checkInvoice(inv);
    const unknown = r.warnings.filter((i) => i.code === 'UNKNOWN_FIELD');
    expect(unknown.map((i) => i.path)).toEqual([
      ['buyer', '__proto__'],
      ['buyer', 'constructor'],
      ['lines', 0, 'constructor'],
      ['lines', 0, '__proto__'],
      ['lines', 0, 'toString'],
    ]);
    for (const issue of unknown) {
      expect(issue.hint).toBe('Remove it.');
    }
  });

  it('suggests no buyer type from Object.prototype', () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const [issue] = checkInvoice(withBuyer({ type })).errors;
      expect(issue?.code, type).toBe('BUYER_TYPE_INVALID');
      expect(issue?.message, type).toMatch(/must be B2B, B2C or B2G\.$/);
    }
  });
});
