// The service's arithmetic in exact BigInt, never the SDK's `computeTotals`, so tests compare two
// independent computations. Per line or per rate group (an option: the document does not say);
// halves away from zero.
import type { SandboxTotals } from './options.js';

/** `units / 10^scale`. */
interface Scaled {
  units: bigint;
  scale: number;
}

const CENT_DIGITS = 2;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

// By its shortest round-trip text, so `0.1` is one tenth, not the double nearest to it.
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

function toCents(value: Scaled): bigint {
  if (value.scale <= CENT_DIGITS) return value.units * pow10(CENT_DIGITS - value.scale);
  const divisor = pow10(value.scale - CENT_DIGITS);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let cents = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) cents += 1n;
  return negative ? -cents : cents;
}

function centsText(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(CENT_DIGITS + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -CENT_DIGITS)}.${digits.slice(-CENT_DIGITS)}`;
}

// quantity × price × (100 − discount) / 100: the "/ 100" adds two to the scale.
function exactNet(line: Record<string, unknown>): Scaled {
  const quantity = readNumber(line.quantity);
  const price = readNumber(line.unitPrice);
  const discount = line.discountRate === undefined || line.discountRate === null ? { units: 0n, scale: 0 } : readNumber(line.discountRate);
  return {
    units: quantity.units * price.units * (100n * pow10(discount.scale) - discount.units),
    scale: quantity.scale + price.scale + discount.scale + 2,
  };
}

function rounded(net: Scaled, rate: Scaled, roundNetFirst: boolean): { net: bigint; tax: bigint } {
  const netCents = toCents(net);
  const taxBase = roundNetFirst ? { units: netCents, scale: CENT_DIGITS } : net;
  return { net: netCents, tax: toCents({ units: taxBase.units * rate.units, scale: taxBase.scale + rate.scale + 2 }) };
}

function add(a: Scaled, b: Scaled): Scaled {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * pow10(scale - a.scale) + b.units * pow10(scale - b.scale), scale };
}

export function serviceTotals(lines: readonly Record<string, unknown>[], rounding: 'line' | 'invoice' = 'line'): SandboxTotals {
  let subtotal = 0n;
  let tax = 0n;
  if (rounding === 'line') {
    for (const line of lines) {
      const cents = rounded(exactNet(line), readNumber(line.taxRate), true);
      subtotal += cents.net;
      tax += cents.tax;
    }
  } else {
    const groups = new Map<string, { rate: Scaled; net: Scaled }>();
    for (const line of lines) {
      const rate = readNumber(line.taxRate);
      const key = String(Number(line.taxRate));
      const g = groups.get(key);
      if (g === undefined) groups.set(key, { rate, net: exactNet(line) });
      else g.net = add(g.net, exactNet(line));
    }
    for (const g of groups.values()) {
      const cents = rounded(g.net, g.rate, false);
      subtotal += cents.net;
      tax += cents.tax;
    }
  }
  return { subtotal: centsText(subtotal), tax: centsText(tax), total: centsText(subtotal + tax) };
}
