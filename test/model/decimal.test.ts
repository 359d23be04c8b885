import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDecimalString } from '../../src/model/decimal.js';

describe('model/decimal', () => {
  it.each([
    [107.5, '107.5'],
    [0, '0'],
    [-0, '0'],
    [-12.25, '-12.25'],
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [123456789012.34, '123456789012.34'],
  ])('writes the number %s as %s', (input, output) => {
    expect(toDecimalString(input)).toBe(output);
  });

  it.each([
    ['107.50', '107.50'],
    [' 7.5 ', '7.5'],
    ['+3', '3'],
    ['007.10', '7.10'],
    ['-0.00', '0.00'],
    ['1.5e2', '150'],
    ['.5', '0.5'],
    ['12345678901234567890.123456789', '12345678901234567890.123456789'],
  ])('keeps the string %s digit for digit as %s', (input, output) => {
    expect(toDecimalString(input)).toBe(output);
  });

  it.each([null, undefined, 'N/A', '', '1,000.00', '1.2.3', Number.NaN, Number.POSITIVE_INFINITY, {}, [], true])(
    'gives undefined for %s',
    (input) => {
      expect(toDecimalString(input)).toBeUndefined();
    },
  );

  it('round-trips every finite double: the string parses back to the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = toDecimalString(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
    );
  });

  it('writes two-decimal amounts exactly as JSON carries them', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        const literal = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
        const expected = literal.replace(/\.?0+$/, '').replace(/^-?0$/, '0') || '0';
        expect(toDecimalString(JSON.parse(literal) as number)).toBe(expected === '-0' ? '0' : expected);
      }),
    );
  });
});
