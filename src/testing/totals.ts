/**
 * The service's arithmetic, written for the sandbox alone: the totals it stores are computed here,
 * in integer hundredths (BigInt), and never by the SDK's `computeTotals`, so that a test holding the
 * sandbox's totals against the SDK's compares two independent computations
 * (test/testing/totals.test.ts).
 *
 * The rule the sandbox applies (the document says only that the service computes the totals from
 * the lines and aggregates the per-line rates): each line's net, quantity × unitPrice ×
 * (100 − discountRate) / 100, is rounded to the cent; its tax is the rounded net × taxRate / 100,
 * rounded to the cent; halves go away from zero; subtotal and tax are the sums of those cents, and
 * total is their sum.
 */
import type { SandboxTotals } from './options.js';

/** A number as `units / 10^scale`, both integers, `scale` ≥ 0. */
interface Scaled {
  units: bigint;
  scale: number;
}

const CENT_DIGITS = 2;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/**
 * Reads a JSON number exactly as it is written: by its shortest round-trip text, so `0.1` is one
 * tenth and not the double nearest to it. Exponent forms (`1e+21`, `5e-7`) are read too.
 */
function readNumber(value: unknown): Scaled {
  const text = typeof value === 'number' ? String(value) : String(value ?? '');
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (match === null) throw new TypeError(`not a finite number: ${text}`);
  const [, sign = '', whole = '0', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  let units = BigInt(whole + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** `value` in whole cents, halves away from zero. */
function toCents(value: Scaled): bigint {
  if (value.scale <= CENT_DIGITS) return value.units * pow10(CENT_DIGITS - value.scale);
  const divisor = pow10(value.scale - CENT_DIGITS);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let cents = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) cents += 1n;
  return negative ? -cents : cents;
}

/** Cents as a decimal string with two decimals: `10750n` → `"107.50"`, `-5n` → `"-0.05"`. */
function centsText(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(CENT_DIGITS + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -CENT_DIGITS)}.${digits.slice(-CENT_DIGITS)}`;
}

/** One line's net and tax, in cents. */
function lineCents(line: Record<string, unknown>): { net: bigint; tax: bigint } {
  const quantity = readNumber(line.quantity);
  const price = readNumber(line.unitPrice);
  const rate = readNumber(line.taxRate);
  const discount = line.discountRate === undefined || line.discountRate === null ? { units: 0n, scale: 0 } : readNumber(line.discountRate);
  // quantity × price × (100 − discount) / 100, exactly: the "/ 100" adds two to the scale.
  const net = toCents({
    units: quantity.units * price.units * (100n * pow10(discount.scale) - discount.units),
    scale: quantity.scale + price.scale + discount.scale + 2,
  });
  // net (cents) × rate / 100: cents are scale 2, the percentage adds two more.
  const tax = toCents({ units: net * rate.units, scale: CENT_DIGITS + rate.scale + 2 });
  return { net, tax };
}

/**
 * The totals the sandbox's service stores for `lines` (already validated: every amount a finite
 * JSON number), as decimal strings to the cent.
 *
 * @example
 * ```ts
 * serviceTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]); // { subtotal: '100.00', tax: '7.50', total: '107.50' }
 * ```
 */
export function serviceTotals(lines: readonly Record<string, unknown>[]): SandboxTotals {
  let subtotal = 0n;
  let tax = 0n;
  for (const line of lines) {
    const cents = lineCents(line);
    subtotal += cents.net;
    tax += cents.tax;
  }
  return { subtotal: centsText(subtotal), tax: centsText(tax), total: centsText(subtotal + tax) };
}
