/**
 * Values no real invoice carries, from a broken or hostile server: exponents far beyond any amount,
 * very long digit strings, and message fields nested thousands deep. Reading them gives `undefined`
 * or a bounded value, never a RangeError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDecimalString } from '../../src/model/decimal.js';
import { DEFAULT_FIELD_MAP, readInvoice } from '../../src/model/field-map.js';

/** `inner` wrapped `depth` times by `wrap`, built without recursion. */
function nest(depth: number, inner: unknown, wrap: (value: unknown) => unknown): unknown {
  let value = inner;
  for (let i = 0; i < depth; i += 1) value = wrap(value);
  return value;
}

const WRAPS: Array<[string, (value: unknown) => unknown]> = [
  ['{ message }', (value) => ({ message: value })],
  ['{ msg }', (value) => ({ msg: value })],
  ['{ detail }', (value) => ({ detail: value })],
  ['[ … ]', (value) => [value]],
  ['[ { message } ]', (value) => [{ message: value }]],
];

describe('model/decimal (odd values)', () => {
  it.each([
    ['1e999999999', '1e999999999'],
    ['1e-999999999', '1e-999999999'],
    ['-1e999999999', '-1e999999999'],
    ['1.5E+999999999', '1.5E+999999999'],
    ['1e9999999', '1e9999999'],
    ['a 400-digit exponent', `1e${'9'.repeat(400)}`],
    ['a 400-digit negative exponent', `1e-${'9'.repeat(400)}`],
  ])('gives undefined for the amount %s instead of writing it out', (_label, text) => {
    expect(toDecimalString(text)).toBeUndefined();
  });

  it('still writes out every exponent a finite double can have', () => {
    expect(toDecimalString(1e308)).toBe(`1${'0'.repeat(308)}`);
    expect(toDecimalString(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
    expect(toDecimalString('1e400')).toBe(`1${'0'.repeat(400)}`);
  });

  it('keeps a very long digit string digit for digit', () => {
    const digits = '9'.repeat(200_000);
    expect(toDecimalString(`${digits}.5`)).toBe(`${digits}.5`);
    expect(toDecimalString(`${digits}e-3`)).toBe(`${digits.slice(0, -3)}.999`);
  });

  it('never throws, and never writes more than 400 zeros beyond the digits sent, for any exponent', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[+-]?\d{0,30}(\.\d{0,30})?$/),
        fc.oneof(fc.integer(), fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n })),
        fc.constantFrom('e', 'E'),
        (mantissa, exponent, e) => {
          const text = `${mantissa}${e}${exponent}`;
          const out = toDecimalString(text);
          if (out !== undefined) expect(out.length).toBeLessThanOrEqual(text.length + 403);
        },
      ),
    );
  });
});

describe('model/field-map (odd values)', () => {
  it.each(WRAPS)('reads an error message nested 9000 deep as %s without overflowing the stack', (_label, wrap) => {
    const record = { id: 'inv_1', status: 'Error', error: nest(9000, 'Access points are offline', wrap) };
    const invoice = readInvoice(record, { fieldMap: DEFAULT_FIELD_MAP });
    expect(invoice?.id).toBe('inv_1');
    expect(invoice?.errorMessage).toBeUndefined();
  });

  it('still reads a message nested as deep as real error bodies go', () => {
    const record = { id: 'inv_1', error: { errors: undefined, message: [{ field: 'tin', message: { detail: 'TIN is invalid' } }] } };
    expect(readInvoice(record, { fieldMap: DEFAULT_FIELD_MAP })?.errorMessage).toBe('TIN is invalid');
  });

  it('reads a record nested 9000 deep in every aliased field without throwing', () => {
    const aliases = Object.values(DEFAULT_FIELD_MAP).flat();
    for (const [, wrap] of WRAPS) {
      const deep = nest(9000, '1e999999999', wrap);
      const record: Record<string, unknown> = { totals: { subtotal: deep, tax: deep, total: deep } };
      for (const alias of aliases) record[alias] = deep;
      expect(readInvoice(record, { fieldMap: DEFAULT_FIELD_MAP, fallbackId: 'inv_1' })).toMatchObject({
        id: 'inv_1',
        subtotal: undefined,
        taxTotal: undefined,
        total: undefined,
        errorMessage: undefined,
      });
    }
  });
});
