// The service's own exact arithmetic, never the SDK's `computeTotals`, so tests compare two independent computations.
import type { SandboxTotals } from './options.js';

/** `units / 10^scale`. */
type Scaled = { units: bigint; scale: number };

const CENT_DIGITS = 2;
const pow10 = (n: number): bigint => 10n ** BigInt(n);

// By its shortest round-trip text, so `0.1` is one tenth, not the double nearest to it.
function readNumber(value: unknown): Scaled {
  const text = String(value ?? '');
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (match === null) throw new TypeError(`not a finite number: ${text}`);
  const [, sign = '', whole = '0', fraction = '', exponentText = '0'] = match;
  const scale = fraction.length - Number(exponentText);
  return { units: BigInt(sign + whole + fraction) * pow10(Math.max(0, -scale)), scale: Math.max(0, scale) };
}

function toCents({ units, scale }: Scaled): bigint {
  if (scale <= CENT_DIGITS) return units * pow10(CENT_DIGITS - scale);
  const divisor = pow10(scale - CENT_DIGITS);
  const sign = units < 0n ? -1n : 1n;
  const magnitude = units * sign;
  return sign * (magnitude / divisor + ((magnitude % divisor) * 2n >= divisor ? 1n : 0n));
}

function centsText(cents: bigint): string {
  const digits = (cents < 0n ? -cents : cents).toString().padStart(CENT_DIGITS + 1, '0');
  return `${cents < 0n ? '-' : ''}${digits.slice(0, -CENT_DIGITS)}.${digits.slice(-CENT_DIGITS)}`;
}

// quantity × price × (100 − discount) / 100: the "/ 100" adds two to the scale.
function exactNet(line: Record<string, unknown>): Scaled {
  const quantity = readNumber(line.quantity);
  const price = readNumber(line.unitPrice);
  const discount = readNumber(line.discountRate ?? 0);
  return {
    units: quantity.units * price.units * (100n * pow10(discount.scale) - discount.units),
    scale: quantity.scale + price.scale + discount.scale + 2,
  };
}

// Per line, each line is a group and its net is rounded before the tax; per invoice, lines are grouped by rate.
export function serviceTotals(lines: readonly Record<string, unknown>[], rounding: 'line' | 'invoice' = 'line'): SandboxTotals {
  const groups = new Map<string, { rate: Scaled; net: Scaled }>();
  lines.forEach((line, i) => {
    const key = rounding === 'line' ? String(i) : String(Number(line.taxRate));
    const net = exactNet(line);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { rate: readNumber(line.taxRate), net });
    else {
      const scale = Math.max(group.net.scale, net.scale);
      group.net = { units: group.net.units * pow10(scale - group.net.scale) + net.units * pow10(scale - net.scale), scale };
    }
  });
  let subtotal = 0n;
  let tax = 0n;
  for (const { rate, net } of groups.values()) {
    const netCents = toCents(net);
    const base = rounding === 'line' ? { units: netCents, scale: CENT_DIGITS } : net;
    subtotal += netCents;
    tax += toCents({ units: base.units * rate.units, scale: base.scale + rate.scale + 2 });
  }
  return { subtotal: centsText(subtotal), tax: centsText(tax), total: centsText(subtotal + tax) };
}
