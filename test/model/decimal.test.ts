import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDecimalText, parseDecimal, toDecimalString } from '../../src/model/decimal.js';

describe('model/decimal', () => {
  it('knows a decimal string JSON can carry as a number digit for digit', () => {
    for (const s of ['0', '-3', '850.50', '0.075', '100', '-0.5', '1234567890123456789.123456789']) expect(isDecimalText(s), s).toBe(true);
    for (const s of ['', '-', '.5', '5.', '+5', '05', '-05', '1e3', ' 1', '1 ', '1,5', '1.2.3', 'abc', '0x10', 'Infinity', '1'.repeat(1001)]) {
      expect(isDecimalText(s), s).toBe(false);
    }
  });

  it('agrees with the JSON number grammar (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?[0-9]{0,4}(\.[0-9]{0,3})?$/), (s) => {
        let json: unknown;
        try {
          json = JSON.parse(s);
        } catch {
          json = undefined;
        }
        expect(isDecimalText(s), s).toBe(typeof json === 'number');
      }),
    );
  });

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

describe('model/decimal (parseDecimal)', () => {
  /** The decimal a number prints as, read from the text: the definition parseDecimal must meet. */
  function fromText(value: number): { digits: bigint; scale: number } {
    const [mantissa = '', exp = '0'] = String(value).split('e');
    const [int = '', frac = ''] = mantissa.split('.');
    const scale = frac.length - Number(exp);
    const digits = BigInt(int.replace('-', '') + frac) * (mantissa.startsWith('-') ? -1n : 1n);
    return scale < 0 ? { digits: digits * 10n ** BigInt(-scale), scale: 0 } : { digits, scale };
  }

  it('reads every double as the decimal it prints as (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
          fc.tuple(fc.integer({ min: -(2 ** 52), max: 2 ** 52 }), fc.integer({ min: 0, max: 17 })).map(([n, k]) => n / 10 ** k),
        ),
        (value) => {
          expect(parseDecimal(value)).toEqual(fromText(value));
        },
      ),
      { numRuns: 20_000 },
    );
    for (const value of [0.1, 0.3, 0.1 + 0.2, 9.99, -0.5, 1e-7, 123.456, 4503599627370.495, 2 ** 52 + 0.5, 5e-324, 1.7976931348623157e308]) {
      expect(parseDecimal(value), String(value)).toEqual(fromText(value));
    }
  });

  it('reads decimal strings exactly and refuses what is not one', () => {
    expect(parseDecimal('19.990')).toEqual({ digits: 19990n, scale: 3 });
    expect(parseDecimal('-1.5e2')).toEqual({ digits: -150n, scale: 0 });
    for (const value of ['', ' 1', '1,5', 'abc', '.', '1e999999999', 'x'.repeat(1001), null, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(parseDecimal(value)).toBeUndefined();
    }
  });
});
