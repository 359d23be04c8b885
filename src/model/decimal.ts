/**
 * Money read from the wire as decimal strings, never through float arithmetic. A JSON string is kept
 * digit for digit (`"107.50"` stays `"107.50"`); a JSON number is written out from the shortest
 * representation JavaScript gives it (`107.5` → `"107.5"`), which is the number as the service wrote
 * it for every amount of up to 15 significant digits. Exponents are expanded (`1e-7` →
 * `"0.0000001"`), up to 400 zeros: a larger exponent (`"1e999999999"`) makes the
 * amount unreadable (`undefined`) rather than a string of a billion zeros.
 */

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The most zeros an exponent may add. Every finite double fits (`1e308`, `5e-324`); no amount of
 * money comes near it.
 */
const MAX_EXPONENT_ZEROS = 400;

/**
 * A decimal string for a JSON number or numeric string, or `undefined` for anything else
 * (`null`, `"N/A"`, `NaN`, objects).
 *
 * @example
 * ```ts
 * toDecimalString(107.5);     // '107.5'
 * toDecimalString('107.50');  // '107.50'
 * toDecimalString(1e21);      // '1000000000000000000000'
 * toDecimalString('abc');     // undefined
 * toDecimalString('1e999999'); // undefined (too large to write out)
 * ```
 */
export function toDecimalString(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // JavaScript writes a number without leading zeros or a sign on zero; only an exponent needs work.
    const text = String(value);
    return text.includes('e') ? normalize(text) : text;
  }
  if (typeof value === 'string') return normalize(value.trim());
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

function normalize(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', int = '', frac = '', exp] = match;
  if (int === '' && frac === '') return undefined;
  let intPart = int;
  let fracPart = frac;
  if (exp !== undefined) {
    const digits = int + frac;
    const point = int.length + Number(exp);
    // Also catches an exponent too long for a number (`Infinity`).
    if (point < -MAX_EXPONENT_ZEROS || point > digits.length + MAX_EXPONENT_ZEROS) return undefined;
    if (point <= 0) {
      intPart = '0';
      fracPart = '0'.repeat(-point) + digits;
    } else if (point >= digits.length) {
      intPart = digits + '0'.repeat(point - digits.length);
      fracPart = '';
    } else {
      intPart = digits.slice(0, point);
      fracPart = digits.slice(point);
    }
  }
  intPart = intPart.replace(/^0+(?=\d)/, '') || '0';
  const body = fracPart === '' ? intPart : `${intPart}.${fracPart}`;
  const isZero = /^[0.]*$/.test(body);
  return sign === '-' && !isZero ? `-${body}` : body;
}
