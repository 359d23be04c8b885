/** The one reader of decimal amounts for the whole SDK. */

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

const MAX_EXPONENT_ZEROS = 400;

function scanDecimal(text: string): { negative: boolean; int: string; frac: string; exponent: number } | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', int = '', frac = '', exp] = match;
  if (int === '' && frac === '') return undefined;
  const exponent = exp === undefined ? 0 : Number(exp);
  // Also catches an exponent too long for a number (`Infinity`).
  const point = int.length + exponent;
  if (exponent !== 0 && (point < -MAX_EXPONENT_ZEROS || point > int.length + frac.length + MAX_EXPONENT_ZEROS)) return undefined;
  return { negative: sign === '-', int, frac, exponent };
}

/** An exact decimal: `digits × 10^-scale`, `scale ≥ 0`. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

// Money texts longer than this are refused: no amount has a thousand digits, and BigInt work grows with the length.
const MAX_AMOUNT_LENGTH = 1000;

export function parseDecimal(value: unknown): Decimal | undefined {
  let text = value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    if (Number.isSafeInteger(value)) return { digits: BigInt(value), scale: 0 };
    const scale = doubleScale(value);
    if (scale !== 0) return { digits: BigInt(Math.round(value * 10 ** scale)), scale };
    text = String(value);
  }
  if (typeof text !== 'string' || text.length > MAX_AMOUNT_LENGTH) return undefined;
  const scanned = scanDecimal(text);
  if (scanned === undefined) return undefined;
  let digits = BigInt(scanned.int + scanned.frac || '0');
  if (scanned.negative) digits = -digits;
  const scale = scanned.frac.length - scanned.exponent;
  return scale < 0 ? { digits: digits * 10n ** BigInt(-scale), scale: 0 } : { digits, scale };
}

/** Whether `s` is a decimal JSON can carry as a number, digit for digit. */
export function isDecimalText(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > MAX_AMOUNT_LENGTH) return false;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const start = i;
  while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  // "0", or digits that do not start with 0 ("007" is no JSON number).
  if (i === start || (i - start > 1 && s.charCodeAt(start) === 48)) return false;
  if (i === n) return true;
  if (s.charCodeAt(i) !== 46 || i === n - 1) return false;
  for (i++; i < n; i++) if (s.charCodeAt(i) < 48 || s.charCodeAt(i) > 57) return false;
  return true;
}

/** The fewest decimals that give back the double exactly, up to 15; `0` when none do. */
export function doubleScale(value: number): number {
  for (let k = 1; k < 16; k++) {
    const scaled = value * 10 ** k;
    if (Math.abs(scaled) > 4503599627370496) return 0;
    if (Math.round(scaled) / 10 ** k === value) return k;
  }
  return 0;
}

export function toDecimalString(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // JavaScript writes a number without leading zeros or a sign on zero; only an exponent needs work.
    const text = String(value);
    return text.includes('e') ? writeOut(text) : text;
  }
  if (typeof value === 'string') return writeOut(value.trim());
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

/** The decimal text with its exponent expanded and leading zeros dropped; trailing zeros kept. */
function writeOut(text: string): string | undefined {
  const scanned = scanDecimal(text);
  if (scanned === undefined) return undefined;
  const digits = scanned.int + scanned.frac;
  const point = scanned.int.length + scanned.exponent;
  const whole = point <= 0 ? '0' : digits.slice(0, point) + '0'.repeat(Math.max(0, point - digits.length));
  const intPart = whole.replace(/^0+(?=\d)/, '');
  const fracPart = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  const body = fracPart === '' ? intPart : `${intPart}.${fracPart}`;
  return scanned.negative && !/^[0.]*$/.test(body) ? `-${body}` : body;
}
