import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/check/suggest.js';

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
});
