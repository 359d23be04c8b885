/**
 * An independent reference for `computeTotals`: plain BigInt arithmetic written from the documented
 * rules, sharing no code with src/model/money.ts.
 *
 * Rules (src/model/money.ts, docs): an amount is a JSON number read from its shortest decimal form
 * (`String(n)`) or a decimal string; per line, net = quantity × unitPrice × (100 − discountRate) / 100
 * and tax = net × taxRate / 100. With `rounding: 'line'` each line's net is rounded to the minor
 * unit, its tax is taken on that rounded net and rounded, and the rounded figures are summed. With
 * `rounding: 'invoice'` the exact nets are summed per rate, and each rate group's net and tax are
 * rounded once. Halves go away from zero (`half-up`) or to even (`half-even`).
 */

/** `units / 10^scale`, exactly. */
interface Exact {
  units: bigint;
  scale: number;
}

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);

/**
 * Reads a decimal: `-12.5`, `0.001`, `7`, and a number's exponent form (`1e-7`, `1.5e+21`).
 * `undefined` for anything else.
 */
export function readExact(value: unknown): Exact | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return undefined;
  }
  const m = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (m === null) return undefined;
  const [, minus, whole, fraction = '', exponent = '+0'] = m;
  let units = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: minus ? -units : units, scale };
}

/** `numerator / denominator` rounded to an integer the way `mode` says. */
function divideRounded(numerator: bigint, denominator: bigint, mode: 'half-up' | 'half-even'): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let q = n / d;
  const twiceRest = (n % d) * 2n;
  if (twiceRest > d || (twiceRest === d && (mode === 'half-up' || q % 2n === 1n))) q += 1n;
  return negative ? -q : q;
}

/** An exact value in minor units (`minorUnits` decimals), rounded. */
function toMinor(x: Exact, minorUnits: number, mode: 'half-up' | 'half-even'): bigint {
  return x.scale <= minorUnits ? x.units * pow10(minorUnits - x.scale) : divideRounded(x.units, pow10(x.scale - minorUnits), mode);
}

/** Minor units as a decimal string: `10750n` → `107.50`, `-5n` → `-0.05`, with 0 decimals `12`. */
function format(minor: bigint, minorUnits: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(minorUnits + 1, '0');
  const text = minorUnits === 0 ? digits : `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}`;
  return negative ? `-${text}` : text;
}

/** The shortest text of an exact value (`7.50` → `7.5`, `0.0` → `0`). */
function shortest(x: Exact): string {
  let { units, scale } = x;
  while (scale > 0 && units % TEN === 0n) {
    units /= TEN;
    scale -= 1;
  }
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function compareExact(a: Exact, b: Exact): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.units * pow10(s - a.scale);
  const y = b.units * pow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A line as the reference reads it. */
export interface ReferenceLine {
  quantity: unknown;
  unitPrice: unknown;
  taxRate: unknown;
  discountRate?: unknown;
}

/** The options the reference follows (those of `computeTotals`). */
export interface ReferenceOptions {
  minorUnits?: number;
  rounding?: 'line' | 'invoice';
  roundingMode?: 'half-up' | 'half-even';
}

/** What `computeTotals` must return, or `undefined` when an amount cannot be read. */
export function referenceTotals(lines: readonly ReferenceLine[], options: ReferenceOptions = {}) {
  const units = options.minorUnits ?? 2;
  const mode = options.roundingMode ?? 'half-up';
  const rounding = options.rounding ?? 'line';
  const groups: { rate: Exact; key: string; netMinor: bigint; taxMinor: bigint; exact: Exact }[] = [];
  const lineTotals: { index: number; rate: string; net: string; tax: string }[] = [];
  for (const [index, line] of lines.entries()) {
    const q = readExact(line.quantity);
    const p = readExact(line.unitPrice);
    const r = readExact(line.taxRate);
    const d = line.discountRate === undefined || line.discountRate === null ? { units: 0n, scale: 0 } : readExact(line.discountRate);
    if (q === undefined || p === undefined || r === undefined || d === undefined) return undefined;
    const net: Exact = { units: q.units * p.units * (100n * pow10(d.scale) - d.units), scale: q.scale + p.scale + d.scale + 2 };
    const netMinor = toMinor(net, units, mode);
    const taxMinor = divideRounded(netMinor * r.units, pow10(r.scale + 2), mode);
    const key = shortest(r);
    lineTotals.push({ index, rate: key, net: format(netMinor, units), tax: format(taxMinor, units) });
    let group = groups.find((g) => compareExact(g.rate, r) === 0);
    if (group === undefined) {
      group = { rate: r, key, netMinor: 0n, taxMinor: 0n, exact: { units: 0n, scale: 0 } };
      groups.push(group);
    }
    group.netMinor += netMinor;
    group.taxMinor += taxMinor;
    const s = Math.max(group.exact.scale, net.scale);
    group.exact = { units: group.exact.units * pow10(s - group.exact.scale) + net.units * pow10(s - net.scale), scale: s };
  }
  groups.sort((a, b) => compareExact(a.rate, b.rate));
  let subtotal = 0n;
  let taxTotal = 0n;
  const byRate = groups.map((g) => {
    const net = rounding === 'invoice' ? toMinor(g.exact, units, mode) : g.netMinor;
    const tax =
      rounding === 'invoice' ? toMinor({ units: g.exact.units * g.rate.units, scale: g.exact.scale + g.rate.scale + 2 }, units, mode) : g.taxMinor;
    subtotal += net;
    taxTotal += tax;
    return { rate: g.key, net: format(net, units), tax: format(tax, units) };
  });
  return {
    subtotal: format(subtotal, units),
    taxTotal: format(taxTotal, units),
    total: format(subtotal + taxTotal, units),
    byRate,
    lines: lineTotals,
  };
}
