/**
 * Exact decimal money arithmetic. Every amount is read from its shortest decimal form (`String(n)`
 * for a number, the text itself for a decimal string) and computed as a scaled integer, so 0.1 is
 * exactly one tenth and ten lines of 0.1 make exactly 1.00. Binary floating point never touches a
 * total.
 *
 * Two paths give the same answers: a plain-`number` fast path for ordinary amounts (integers below
 * 2^53 are exact in a double), and a `BigInt` path for everything else. The fast path gives up as
 * soon as any step could leave the exact range, and the whole computation is then redone in BigInt.
 * A property test holds the two to the same result.
 */

/**
 * How a value exactly halfway between two minor units is rounded: `'half-up'` away from zero
 * (0.125 → 0.13), `'half-even'` to the even neighbour (0.125 → 0.12, 0.135 → 0.14).
 *
 * @example
 * ```ts
 * import { computeTotals, type RoundingMode } from 'invoicing-sdk';
 * const roundingMode: RoundingMode = 'half-even';
 * computeTotals([{ quantity: 1, unitPrice: '0.125', taxRate: 0 }], { roundingMode }).total; // "0.12"
 * ```
 */
export type RoundingMode = 'half-up' | 'half-even';

/**
 * Where rounding happens:
 * - `'line'` (default): each line's net is rounded to the minor unit, its tax is computed from the
 *   rounded net and rounded, and the rounded figures are added up. This is what most e-invoice
 *   formats print, and every printed line then adds up to the printed total.
 * - `'invoice'`: exact nets are added up per tax rate, and each rate group's net and tax are rounded
 *   once.
 *
 * @example
 * ```ts
 * import { computeTotals, type RoundingLevel } from 'invoicing-sdk';
 * const rounding: RoundingLevel = 'invoice';
 * computeTotals(lines, { rounding });
 * ```
 */
export type RoundingLevel = 'line' | 'invoice';

/**
 * An amount as the caller has it: a JSON number or a decimal string such as `"19.99"`.
 *
 * @example
 * ```ts
 * import { toMinorUnits, type DecimalInput } from 'invoicing-sdk';
 * const price: DecimalInput = '19.99';
 * toMinorUnits(price); // 1999n
 * ```
 */
export type DecimalInput = number | string;

/**
 * The fields of an invoice line that the totals are computed from (an `InvoiceLineInput` has them).
 *
 * @example
 * ```ts
 * import type { TotalsLineInput } from 'invoicing-sdk';
 * const line: TotalsLineInput = { quantity: 3, unitPrice: '19.99', taxRate: 7.5, discountRate: 10 };
 * ```
 */
export interface TotalsLineInput {
  /** How many units. */
  quantity: DecimalInput;
  /** Price of one unit before tax. */
  unitPrice: DecimalInput;
  /** A percentage: 7.5 means 7.5 %. */
  taxRate: DecimalInput;
  /** A percentage taken off `quantity × unitPrice`; absent means no discount. */
  discountRate?: DecimalInput | null | undefined;
}

/**
 * Options of {@link computeTotals}.
 *
 * @example
 * ```ts
 * import { computeTotals, type ComputeTotalsOptions } from 'invoicing-sdk';
 * const opts: ComputeTotalsOptions = { minorUnits: 0, rounding: 'invoice', roundingMode: 'half-even' };
 * computeTotals(lines, opts);
 * ```
 */
export interface ComputeTotalsOptions {
  /** Digits after the decimal point of the currency's minor unit. Default 2. */
  minorUnits?: number | undefined;
  /** Default `'line'`. See {@link RoundingLevel}. */
  rounding?: RoundingLevel | undefined;
  /** Default `'half-up'` (halves go away from zero). */
  roundingMode?: RoundingMode | undefined;
}

/**
 * One line's computed figures, as decimal strings to the minor unit.
 *
 * @example
 * ```ts
 * import { computeTotals, type LineTotals } from 'invoicing-sdk';
 * const [first]: LineTotals[] = computeTotals([{ quantity: 2, unitPrice: 9.99, taxRate: 7.5 }]).lines;
 * first; // { index: 0, rate: "7.5", net: "19.98", tax: "1.50" }
 * ```
 */
export interface LineTotals {
  /** Position of the line in the input array. */
  index: number;
  /** The line's tax rate, normalised (`"7.5"`, `"0"`). */
  rate: string;
  /** quantity × unitPrice × (1 − discountRate/100), rounded to the minor unit. */
  net: string;
  /** Tax on the rounded net, rounded to the minor unit. */
  tax: string;
}

/**
 * The figures of all lines sharing one tax rate (the service derives the tax category from it).
 *
 * @example
 * ```ts
 * import { computeTotals, type RateTotals } from 'invoicing-sdk';
 * const groups: RateTotals[] = computeTotals(lines).byRate; // [{ rate: "0", … }, { rate: "7.5", … }]
 * ```
 */
export interface RateTotals {
  /** The tax rate as a percentage, normalised (`"7.5"`). */
  rate: string;
  /** Sum of the nets of the lines at this rate. */
  net: string;
  /** Tax of the lines at this rate. */
  tax: string;
}

/**
 * Invoice totals as decimal strings to the minor unit (`"107.50"`). `byRate` is ordered by rate,
 * lowest first; `lines` follows the input order.
 *
 * @example
 * ```ts
 * import { computeTotals, type InvoiceTotals } from 'invoicing-sdk';
 * const t: InvoiceTotals = computeTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]);
 * [t.subtotal, t.taxTotal, t.total]; // ["100.00", "7.50", "107.50"]
 * ```
 */
export interface InvoiceTotals {
  /** Sum of the line nets, before tax. */
  subtotal: string;
  /** Sum of the tax. */
  taxTotal: string;
  /** subtotal + taxTotal. */
  total: string;
  /** Figures per tax rate, lowest rate first. */
  byRate: RateTotals[];
  /** Figures per line, in input order. */
  lines: LineTotals[];
}

/**
 * The caller's own figures to reconcile against; any subset. Compared at the minor unit.
 *
 * @example
 * ```ts
 * import { checkInvoice, type ExpectedTotals } from 'invoicing-sdk';
 * const expectedTotals: ExpectedTotals = { subtotal: '100.00', total: 107.5 };
 * checkInvoice(input, { expectedTotals });
 * ```
 */
export interface ExpectedTotals {
  /** Expected sum of the line nets, before tax. */
  subtotal?: DecimalInput | null | undefined;
  /** Expected sum of the tax. */
  taxTotal?: DecimalInput | null | undefined;
  /** Another name for `taxTotal`, as the service document says "tax" (checkInvoice reads either). */
  tax?: DecimalInput | null | undefined;
  /** Expected subtotal + tax. */
  total?: DecimalInput | null | undefined;
}

/**
 * One difference found by {@link compareTotals}.
 *
 * @example
 * ```ts
 * import { compareTotals, type TotalsDifference } from 'invoicing-sdk';
 * const diffs: TotalsDifference[] = compareTotals({ total: '108' }, { total: '107.50' });
 * diffs[0]?.difference; // "-0.50"
 * ```
 */
export interface TotalsDifference {
  /** Which figure differs. */
  field: 'subtotal' | 'taxTotal' | 'total';
  /** The expected figure at the minor unit, or the raw value when it is not a number. */
  expected: string;
  /** The actual figure at the minor unit, or the raw value when it is not a number. */
  actual: string;
  /** actual − expected at the minor unit; absent when either side is not a number. */
  difference?: string;
}

/** An exact decimal: `digits × 10^-scale`. */
interface Decimal {
  digits: bigint;
  scale: number;
}

/**
 * Whether a double lies beyond ±(2^53 − 1), where integers stop being exact (false for NaN). The
 * bound is a literal: bundlers turn a top-level `const` into a `var`, which the JIT then reloads
 * and unboxes at every comparison of the fast path.
 */
function beyondSafe(x: number): boolean {
  return Math.abs(x) > 9007199254740991;
}
// Exponents past this are refused rather than turned into megabyte-sized BigInts.
const MAX_EXPONENT = 400;
// Exact powers of ten as doubles (10^22 is the last one a double holds exactly).
const POW10: readonly number[] = /* @__PURE__ */ Array.from({ length: 23 }, (_, i) => 10 ** i);
const BIG_POW10: bigint[] = [];
function bigPow10(n: number): bigint {
  let p = BIG_POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    if (n < 64) BIG_POW10[n] = p;
  }
  return p;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads a number or a decimal string as an exact decimal. `undefined` for anything else (NaN,
 * Infinity, `""`, `"1,5"`, `"abc"`, exponents beyond ±400).
 */
function parseDecimal(value: unknown): Decimal | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    if (Number.isSafeInteger(value)) return { digits: BigInt(value), scale: 0 };
    text = String(value);
  } else if (typeof value === 'string') {
    if (value.length === 0 || value.length > 1000) return undefined;
    text = value;
  } else {
    return undefined;
  }
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return undefined;
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  if (intPart.length === 0 && fracPart.length === 0) return undefined;
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isFinite(exponent) || Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let digits = BigInt((intPart + fracPart) || '0');
  if (m[1] === '-') digits = -digits;
  let scale = fracPart.length - exponent;
  if (scale < 0) {
    digits *= bigPow10(-scale);
    scale = 0;
  }
  return { digits, scale };
}

function normalise(d: Decimal): Decimal {
  let { digits, scale } = d;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return { digits, scale };
}

/** Divides and rounds to an integer: half away from zero, or half to even. */
function roundDivBig(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  const away = twice > d || (twice === d && (mode === 'half-up' || q % 2n !== 0n));
  return away ? q + (n < 0n ? -1n : 1n) : q;
}

/**
 * `n % d` for safe integers. Within int32 the `| 0` lets the JIT emit an integer remainder; a
 * double `%` is a call into C's fmod, which was the single most expensive step of a one-line
 * invoice's totals. Both give the same exact result.
 */
function remainder(n: number, d: number): number {
  if (n <= 0x7fffffff && n >= -0x7fffffff && d <= 0x7fffffff && d >= 1) return ((n | 0) % (d | 0)) | 0;
  return n % d;
}

function roundDivNum(n: number, d: number, mode: RoundingMode): number {
  let q: number;
  let r: number;
  if (n <= 0x7fffffff && n >= -0x7fffffff && d <= 0x7fffffff && d >= 1) {
    // One integer division: int32 `/` truncated by `| 0` is the exact quotient, toward zero.
    q = ((n | 0) / (d | 0)) | 0;
    r = n - q * d;
  } else {
    // `%` is exact, so q is an exact integer quotient when n and d are safe integers.
    r = n % d;
    q = (n - r) / d;
  }
  if (r === 0) return q;
  const twice = (r < 0 ? -r : r) * 2;
  const away = twice > d || (twice === d && (mode === 'half-up' || q % 2 !== 0));
  return away ? q + (n < 0 ? -1 : 1) : q;
}

/** Rounds an exact decimal to `units` digits after the point, as an integer count of minor units. */
function toMinor(d: Decimal, units: number, mode: RoundingMode): bigint {
  if (d.scale <= units) return d.digits * bigPow10(units - d.scale);
  return roundDivBig(d.digits, bigPow10(d.scale - units), mode);
}

function formatDecimal(d: Decimal): string {
  const n = normalise(d);
  return formatScaled(n.digits, n.scale);
}

function formatScaled(value: bigint | number, scale: number): string {
  const negative = value < 0;
  let s = String(negative ? -value : value);
  if (scale > 0) {
    if (s.length <= scale) s = '0'.repeat(scale - s.length + 1) + s;
    s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  }
  return negative && value !== 0 ? `-${s}` : s;
}

/**
 * Formats an integer count of minor units as a decimal string.
 *
 * @example
 * ```ts
 * import { formatMinorUnits } from 'invoicing-sdk';
 * formatMinorUnits(10750n); // "107.50"
 * formatMinorUnits(-5n, 2); // "-0.05"
 * ```
 */
export function formatMinorUnits(value: bigint | number, minorUnits = 2): string {
  return formatScaled(typeof value === 'number' ? BigInt(Math.trunc(value)) : value, minorUnits);
}

/**
 * Converts an amount to an integer count of minor units, exactly (`19.99` → `1999n`), rounding
 * digits beyond the minor unit with `roundingMode` (default half-up). Throws a `RangeError` for a
 * value that is not a finite number or decimal string.
 *
 * @example
 * ```ts
 * import { toMinorUnits } from 'invoicing-sdk';
 * toMinorUnits(0.1 + 0.2); // 30n (0.30000000000000004 rounds to 0.30)
 * toMinorUnits('107.505'); // 10751n
 * ```
 */
export function toMinorUnits(
  value: DecimalInput,
  minorUnits = 2,
  roundingMode: RoundingMode = 'half-up',
): bigint {
  const d = parseDecimal(value);
  if (d === undefined) throw new RangeError(`not a finite decimal amount: ${describe(value)}`);
  return toMinor(d, minorUnits, roundingMode);
}

/**
 * Like {@link toMinorUnits} but `undefined` instead of throwing.
 *
 * @example
 * ```ts
 * import { tryMinorUnits } from 'invoicing-sdk';
 * tryMinorUnits('12.5'); // 1250n
 * tryMinorUnits('12,5'); // undefined
 * ```
 */
export function tryMinorUnits(
  value: unknown,
  minorUnits = 2,
  roundingMode: RoundingMode = 'half-up',
): bigint | undefined {
  const d = parseDecimal(value);
  return d === undefined ? undefined : toMinor(d, minorUnits, roundingMode);
}

/**
 * Whether two amounts are equal at the minor unit (`"107.5"` equals `107.50`; `0.1 + 0.2` equals
 * `0.3`). False when either is not a finite number or decimal string.
 *
 * @example
 * ```ts
 * import { decimalEquals } from 'invoicing-sdk';
 * decimalEquals('107.5', 107.5); // true
 * decimalEquals(0.1 + 0.2, '0.30'); // true
 * ```
 */
export function decimalEquals(a: unknown, b: unknown, minorUnits = 2): boolean {
  const x = tryMinorUnits(a, minorUnits);
  const y = tryMinorUnits(b, minorUnits);
  return x !== undefined && y !== undefined && x === y;
}

/**
 * Normalises a tax rate or other decimal to its shortest exact text (`7.50` → `"7.5"`), or
 * `undefined` when it is not a finite decimal.
 *
 * @example
 * ```ts
 * import { normalizeDecimal } from 'invoicing-sdk';
 * normalizeDecimal('07.50'); // "7.5"
 * ```
 */
export function normalizeDecimal(value: unknown): string | undefined {
  const d = parseDecimal(value);
  return d === undefined ? undefined : formatDecimal(d);
}

const TOTAL_FIELDS = ['subtotal', 'taxTotal', 'total'] as const;

/**
 * Compares two sets of totals at the minor unit and lists each field that differs. Fields that are
 * absent (`undefined`/`null`) on either side are not compared. A value that is not a number or
 * decimal string counts as a difference and is shown as it came. Used by the filing helper to hold
 * the service's totals against {@link computeTotals}. Figures with more decimals than `minorUnits`
 * are rounded with `roundingMode` (default half-up), as computeTotals rounds.
 *
 * @example
 * ```ts
 * import { compareTotals, computeTotals } from 'invoicing-sdk';
 * const mine = computeTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]);
 * compareTotals({ subtotal: 100, taxTotal: 7.5, total: 107.5 }, mine); // []
 * compareTotals({ total: '108' }, mine);
 * // [{ field: 'total', expected: '108.00', actual: '107.50', difference: '-0.50' }]
 * compareTotals({ total: '0.125' }, { total: '0.12' }, 2, 'half-even'); // [] (0.125 rounds to 0.12)
 * ```
 */
export function compareTotals(
  expected: ExpectedTotals,
  actual: ExpectedTotals,
  minorUnits = 2,
  roundingMode: RoundingMode = 'half-up',
): TotalsDifference[] {
  const out: TotalsDifference[] = [];
  for (const field of TOTAL_FIELDS) {
    const e = expected[field];
    const a = actual[field];
    if (e === undefined || e === null || a === undefined || a === null) continue;
    const em = tryMinorUnits(e, minorUnits, roundingMode);
    const am = tryMinorUnits(a, minorUnits, roundingMode);
    if (em === undefined || am === undefined) {
      out.push({
        field,
        expected: em === undefined ? String(e) : formatScaled(em, minorUnits),
        actual: am === undefined ? String(a) : formatScaled(am, minorUnits),
      });
    } else if (em !== am) {
      out.push({
        field,
        expected: formatScaled(em, minorUnits),
        actual: formatScaled(am, minorUnits),
        difference: formatScaled(am - em, minorUnits),
      });
    }
  }
  return out;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

// --- computeTotals ---------------------------------------------------------------------------

interface ResolvedTotalsOptions {
  units: number;
  rounding: RoundingLevel;
  mode: RoundingMode;
}

/**
 * The most lines checkInvoice reads and computeTotals takes. The service document gives no limit;
 * this one is far above any real invoice (its request body would weigh tens of megabytes). It
 * exists for malformed input: `lines.length = 2 ** 32 - 1`, or a sparse array with a few lines and
 * a length of millions, would otherwise be walked index by index until memory runs out.
 */
export const MAX_LINES = 100_000;

/** Validates the arguments of computeTotals (it throws, unlike checkInvoice) and resolves defaults. */
function resolveTotalsOptions(lines: unknown, opts: ComputeTotalsOptions | undefined): ResolvedTotalsOptions {
  if (!Array.isArray(lines)) throw new TypeError(`lines must be an array, got ${describe(lines)}`);
  if (lines.length > MAX_LINES) {
    throw new RangeError(
      `lines has ${lines.length} entries; computeTotals takes at most ${MAX_LINES} (a length set by hand? a sparse array?)`,
    );
  }
  const units = opts?.minorUnits ?? 2;
  if (!Number.isInteger(units) || units < 0 || units > 12) {
    throw new RangeError(`minorUnits must be an integer from 0 to 12, got ${describe(units)}`);
  }
  const rounding = opts?.rounding ?? 'line';
  if (rounding !== 'line' && rounding !== 'invoice') {
    throw new RangeError(`rounding must be 'line' or 'invoice', got ${describe(rounding)}`);
  }
  const mode = opts?.roundingMode ?? 'half-up';
  if (mode !== 'half-up' && mode !== 'half-even') {
    throw new RangeError(`roundingMode must be 'half-up' or 'half-even', got ${describe(mode)}`);
  }
  return { units, rounding, mode };
}

/**
 * Computes an invoice's totals exactly, to the minor unit, the way the service's document describes
 * them: per line, net = quantity × unitPrice × (1 − discountRate/100) and tax = net × taxRate/100;
 * lines with the same rate are grouped (the service derives the tax category from the rate);
 * subtotal = Σ net, taxTotal = Σ tax, total = subtotal + taxTotal.
 *
 * Rounding (documented in docs/checks.md): by default each line's net is rounded to the minor unit,
 * its tax is computed from that rounded net and rounded, and the rounded figures are summed
 * (`rounding: 'line'`); `rounding: 'invoice'` sums exact nets per rate and rounds each group once.
 * Halves go away from zero (`roundingMode: 'half-up'`) unless `'half-even'` is asked for.
 *
 * Amounts may be numbers (read from their shortest decimal form, so `0.1` is exactly one tenth) or
 * decimal strings. Throws a `TypeError` naming the line and field for a value that is neither, and
 * a `RangeError` for more than 100,000 lines (malformed input, such as a sparse array with a length
 * of millions); {@link checkInvoice} never throws and reports those as issues instead.
 *
 * @example
 * ```ts
 * import { computeTotals } from 'invoicing-sdk';
 * const t = computeTotals(Array.from({ length: 10 }, () => ({ quantity: 1, unitPrice: 0.1, taxRate: 0 })));
 * t.subtotal; // "1.00"
 * computeTotals([{ quantity: 3, unitPrice: '19.99', taxRate: 7.5, discountRate: 10 }]).total; // "58.02"
 * ```
 */
export function computeTotals(
  lines: readonly TotalsLineInput[],
  opts?: ComputeTotalsOptions,
): InvoiceTotals {
  const o = resolveTotalsOptions(lines, opts);
  return computeTotalsResolved(lines, o.units, o.rounding, o.mode);
}

/**
 * The same as {@link computeTotals} but always on the BigInt path. Exposed for tests that hold the
 * fast path to it; prefer `computeTotals`.
 *
 * @example
 * ```ts
 * import { computeTotalsExact } from 'invoicing-sdk';
 * computeTotalsExact([{ quantity: 1, unitPrice: '0.105', taxRate: 0 }]).subtotal; // "0.11"
 * ```
 */
export function computeTotalsExact(
  lines: readonly TotalsLineInput[],
  opts?: ComputeTotalsOptions,
): InvoiceTotals {
  return exactTotals(lines, resolveTotalsOptions(lines, opts));
}

function readAmount(line: TotalsLineInput, index: number, field: keyof TotalsLineInput): Decimal {
  const raw = line === null || typeof line !== 'object' ? undefined : line[field];
  if (field === 'discountRate' && (raw === undefined || raw === null)) return { digits: 0n, scale: 0 };
  const d = parseDecimal(raw);
  if (d === undefined) {
    throw new TypeError(`lines[${index}].${field} is not a finite number or decimal string: ${describe(raw)}`);
  }
  return d;
}

interface ExactGroup {
  rate: Decimal;
  key: string;
  netMinor: bigint;
  taxMinor: bigint;
  // Exact net as digits × 10^-scale, for `rounding: 'invoice'`.
  exactDigits: bigint;
  exactScale: number;
}

function exactTotals(lines: readonly TotalsLineInput[], o: ResolvedTotalsOptions): InvoiceTotals {
  const groups = new Map<string, ExactGroup>();
  const lineOut: LineTotals[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as TotalsLineInput;
    const { digits: netDigits, scale: netScale } = exactNet(line, i);
    const t = normalise(readAmount(line, i, 'taxRate'));
    const netMinor = toMinor({ digits: netDigits, scale: netScale }, o.units, o.mode);
    // Line tax is taken on the rounded net: the figure printed on the line.
    const taxMinor = roundDivBig(netMinor * t.digits, bigPow10(t.scale + 2), o.mode);
    const key = formatScaled(t.digits, t.scale);
    lineOut[i] = {
      index: i,
      rate: key,
      net: formatScaled(netMinor, o.units),
      tax: formatScaled(taxMinor, o.units),
    };
    let g = groups.get(key);
    if (g === undefined) {
      g = { rate: t, key, netMinor: 0n, taxMinor: 0n, exactDigits: 0n, exactScale: 0 };
      groups.set(key, g);
    }
    g.netMinor += netMinor;
    g.taxMinor += taxMinor;
    if (netScale > g.exactScale) {
      g.exactDigits *= bigPow10(netScale - g.exactScale);
      g.exactScale = netScale;
    }
    g.exactDigits += netDigits * bigPow10(g.exactScale - netScale);
  }
  const sorted = [...groups.values()].sort((a, b) => compareDecimal(a.rate, b.rate));
  let subtotal = 0n;
  let taxTotal = 0n;
  const byRate: RateTotals[] = [];
  for (const g of sorted) {
    let net = g.netMinor;
    let tax = g.taxMinor;
    if (o.rounding === 'invoice') {
      net = toMinor({ digits: g.exactDigits, scale: g.exactScale }, o.units, o.mode);
      // Tax on the exact group net, rounded once.
      tax = toMinor(
        { digits: g.exactDigits * g.rate.digits, scale: g.exactScale + g.rate.scale + 2 },
        o.units,
        o.mode,
      );
    }
    subtotal += net;
    taxTotal += tax;
    byRate.push({ rate: g.key, net: formatScaled(net, o.units), tax: formatScaled(tax, o.units) });
  }
  return {
    subtotal: formatScaled(subtotal, o.units),
    taxTotal: formatScaled(taxTotal, o.units),
    total: formatScaled(subtotal + taxTotal, o.units),
    byRate,
    lines: lineOut,
  };
}

function compareDecimal(a: Decimal, b: Decimal): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.digits * bigPow10(s - a.scale);
  const y = b.digits * bigPow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// --- fast path ---------------------------------------------------------------------------------

// Scratch registers for splitNumber: returning two numbers without allocating an object per call.
let splitDigits = 0;
let splitScale = 0;

/**
 * Splits a double into integer digits and a decimal scale equal to its shortest decimal form
 * (`String(n)`), when that form has at most 6 decimals and the value is below 1e9. Below 1e9 one
 * unit in the last place is smaller than 1e-6, so at most one decimal of ≤ 6 places rounds to `n`,
 * and `Math.round(n × 10^s)` lands on it: the first `s` whose candidate reads back as `n` gives the
 * shortest form. Anything else returns false and the caller takes the BigInt path.
 */
function splitNumber(n: number): boolean {
  if (Number.isInteger(n)) {
    if (beyondSafe(n)) return false;
    splitDigits = n;
    splitScale = 0;
    return true;
  }
  if (!(n < 1e9 && n > -1e9)) return false;
  let p = 1;
  for (let s = 1; s <= 6; s++) {
    p *= 10; // exact: powers of ten up to 1e22 are doubles
    const m = Math.round(n * p);
    if (m / p === n) {
      splitDigits = m;
      splitScale = s;
      return true;
    }
  }
  return false;
}

interface FastGroup {
  rate: number;
  rateDigits: number;
  rateDivisor: number;
  key: string;
  net: number;
  tax: number;
  lines: number;
  last: LineTotals | undefined;
}

/**
 * Adds a group to `groups`, kept ordered by rate, lowest first. An invoice has a handful of rates:
 * this costs less than setting up `Array.prototype.sort` with a comparator once per invoice. Rates
 * within `groups` are distinct (a line's rate is looked up before a group is made).
 */
function insertByRate(groups: FastGroup[], g: FastGroup): void {
  let k = groups.length;
  groups.push(g);
  while (k > 0 && (groups[k - 1] as FastGroup).rate > g.rate) {
    groups[k] = groups[k - 1] as FastGroup;
    k--;
  }
  groups[k] = g;
}

function safeMul(a: number, b: number): number {
  // A true product above 2^53 can only round to >= 2^53, so this catches every inexact product.
  const r = a * b;
  return beyondSafe(r) ? NaN : r;
}

// ".00" … ".99": the fraction of a two-decimal amount without a number-to-string conversion.
const CENTS: readonly string[] = /* @__PURE__ */ Array.from({ length: 100 }, (_, i) => (i < 10 ? `.0${i}` : `.${i}`));

/** formatScaled for a safe integer, without BigInt or slicing. */
function formatNumber(value: number, units: number): string {
  if (units === 0) return String(value);
  if (units === 2 && value >= 0 && value <= 0x7fffffff) {
    // The usual amount: int32 arithmetic and one concatenation (about a third faster than below).
    // `+` rather than a second template slot: the JIT then takes CENTS[…] as the string it is
    // instead of converting it.
    const v = value | 0;
    const whole = (v / 100) | 0;
    return `${whole}` + (CENTS[v - whole * 100] as string);
  }
  const negative = value < 0;
  const abs = negative ? -value : value;
  const p = POW10[units] as number;
  const frac = remainder(abs, p);
  const whole = (abs - frac) / p;
  let f: string;
  if (units === 2) f = CENTS[frac] as string;
  else {
    f = String(frac);
    f = `.${f.length < units ? '0'.repeat(units - f.length) + f : f}`;
  }
  return negative ? `-${whole}${f}` : whole + f;
}

const MAX_SAFE_BIG = /* @__PURE__ */ BigInt(Number.MAX_SAFE_INTEGER);

/** A line's net in minor units on plain numbers, or NaN when that cannot be done exactly. */
function fastNetMinor(q: number, p: number, d: number | null | undefined, units: number, mode: RoundingMode): number {
  if (!splitNumber(q)) return NaN;
  const qm = splitDigits;
  const qs = splitScale;
  if (!splitNumber(p)) return NaN;
  // net in minor units = qm·pm / 10^(qs+ps−units), times (100 − d)/100 with a discount
  let numer = safeMul(qm, splitDigits);
  let shift = qs + splitScale - units;
  if (d !== undefined && d !== null) {
    if (!splitNumber(d)) return NaN;
    // d = digits / 10^ds, so (100 − d)/100 = (100·10^ds − digits) / 10^(ds+2)
    numer = safeMul(numer, 100 * (POW10[splitScale] as number) - splitDigits);
    shift += splitScale + 2;
  }
  if (numer !== numer) return NaN;
  // Whole units times cents, the usual line: the product is already in minor units.
  if (shift === 0) return numer;
  if (shift > 0) return shift > 15 ? NaN : roundDivNum(numer, POW10[shift] as number, mode);
  return -shift > 15 ? NaN : safeMul(numer, POW10[-shift] as number);
}

/** The exact net of one line: digits over 10^scale. Shared by both paths. */
function exactNet(line: TotalsLineInput, i: number): Decimal {
  const q = readAmount(line, i, 'quantity');
  const p = readAmount(line, i, 'unitPrice');
  const d = readAmount(line, i, 'discountRate');
  // net = q·p·(100 − d)/100, exactly.
  return { digits: q.digits * p.digits * (100n * bigPow10(d.scale) - d.digits), scale: q.scale + p.scale + d.scale + 2 };
}

function exactNetMinor(line: TotalsLineInput, i: number, units: number, mode: RoundingMode): bigint {
  return toMinor(exactNet(line, i), units, mode);
}

/** A tax rate as the fast path uses it: tax = net × digits / divisor, rounded; text as printed. */
interface FastRate {
  rate: number;
  digits: number;
  divisor: number;
  text: string;
}
// The last few distinct rates read: an invoice run has a handful (standard, reduced, zero), and a
// scan of these few costs less than splitting the rate again or a Map lookup on a double key.
const RECENT_RATES: FastRate[] = [];
const RECENT_RATES_MAX = 8;
let nextRecentRate = 0;
// The last tax rate read (see readRate), for the one comparison most lines need.
let lastRate = Number.NaN;
let rateDigits = 0;
let rateDivisor = 1;
let rateText = '';

/**
 * Reads tax rate `t` into rateDigits, rateDivisor (10^(scale+2), the rate being a percentage) and
 * rateText, or returns false when the fast path cannot take it. Callers test `t === lastRate`
 * first: consecutive invoices mostly share a rate. `===` takes 0 and -0 for one rate, as their
 * decimal forms are.
 */
function readRate(t: number): boolean {
  let r: FastRate | undefined;
  for (let k = 0; k < RECENT_RATES.length; k++) {
    if ((RECENT_RATES[k] as FastRate).rate === t) {
      r = RECENT_RATES[k];
      break;
    }
  }
  if (r === undefined) {
    if (!splitRate(t)) return false;
    r = { rate: t, digits: splitDigits, divisor: POW10[splitScale + 2] as number, text: formatNumber(splitDigits, splitScale) };
    if (RECENT_RATES.length < RECENT_RATES_MAX) RECENT_RATES.push(r);
    else {
      RECENT_RATES[nextRecentRate] = r;
      nextRecentRate = (nextRecentRate + 1) % RECENT_RATES_MAX;
    }
  }
  lastRate = t;
  rateDigits = r.digits;
  rateDivisor = r.divisor;
  rateText = r.text;
  return true;
}

/**
 * Splits a tax rate like splitNumber, then drops trailing zeros (7.50 → 75 × 10^-1), so the rate's
 * text and the tax divisor come out the same however the rate was written. False when the fast
 * path cannot take it.
 */
function splitRate(t: number): boolean {
  if (!splitNumber(t)) return false;
  while (splitScale > 0 && splitDigits % 10 === 0) {
    splitDigits /= 10;
    splitScale--;
  }
  return splitScale + 2 <= 15;
}

/**
 * A line's net in minor units on the fast path, or NaN (the caller then redoes the whole invoice in
 * BigInt) when the line is not an object with number amounts or its net leaves the exact range.
 */
function fastLineNet(line: TotalsLineInput, i: number, units: number, mode: RoundingMode): number {
  if (line === null || typeof line !== 'object') return NaN;
  const q = line.quantity;
  const p = line.unitPrice;
  const d = line.discountRate;
  if (typeof q !== 'number' || typeof p !== 'number' || typeof line.taxRate !== 'number') return NaN;
  if (d !== undefined && d !== null && typeof d !== 'number') return NaN;
  const net = fastNetMinor(q, p, d, units, mode);
  if (net === net) return net;
  // An amount with float noise (12.990000000000002) or beyond 1e9: this line in BigInt, the rest of
  // the invoice stays on the fast path.
  const exact = exactNetMinor(line, i, units, mode);
  return exact > MAX_SAFE_BIG || exact < -MAX_SAFE_BIG ? NaN : Number(exact);
}

/**
 * fastLineTotals for a one-line invoice (a single service billed is common): the same figures,
 * without the rate groups, the loop and their allocations.
 */
function fastOneLine(line: TotalsLineInput, units: number, mode: RoundingMode): InvoiceTotals | undefined {
  const net = fastLineNet(line, 0, units, mode);
  const t = line.taxRate as number;
  if (net !== net || (t !== lastRate && !readRate(t))) return undefined;
  const rate = rateText;
  const taxNumer = safeMul(net, rateDigits);
  if (taxNumer !== taxNumer) return undefined;
  const tax = roundDivNum(taxNumer, rateDivisor, mode);
  const total = net + tax;
  if (beyondSafe(total)) return undefined;
  const netText = formatNumber(net, units);
  const taxText = formatNumber(tax, units);
  return {
    subtotal: netText,
    taxTotal: taxText,
    // No tax (a zero rate, or a net too small to carry any): the total is the net, already written.
    total: tax === 0 ? netText : formatNumber(total, units),
    byRate: [{ rate, net: netText, tax: taxText }],
    lines: [{ index: 0, rate, net: netText, tax: taxText }],
  };
}

/**
 * `rounding: 'line'` on plain numbers. Returns undefined (and the caller redoes everything in BigInt)
 * as soon as an input is not a number, a split fails or an intermediate leaves the safe range.
 */
function fastLineTotals(
  lines: readonly TotalsLineInput[],
  units: number,
  mode: RoundingMode,
): InvoiceTotals | undefined {
  let g0: FastGroup | undefined;
  let groups: FastGroup[] | undefined;
  const n = lines.length;
  const lineOut: LineTotals[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const line = lines[i] as TotalsLineInput;
    const net = fastLineNet(line, i, units, mode);
    if (net !== net) return undefined;
    const t = line.taxRate as number;
    // Most invoices have one rate; `===` treats 0 and -0 as one rate, as their decimal forms do.
    let g: FastGroup | undefined = g0 !== undefined && g0.rate === t ? g0 : undefined;
    if (g === undefined && groups !== undefined) {
      for (let k = 0; k < groups.length; k++) {
        if ((groups[k] as FastGroup).rate === t) {
          g = groups[k];
          break;
        }
      }
    }
    if (g === undefined) {
      if (t !== lastRate && !readRate(t)) return undefined;
      g = { rate: t, rateDigits, rateDivisor, key: rateText, net: 0, tax: 0, lines: 0, last: undefined };
      if (g0 === undefined) g0 = g;
      else insertByRate((groups ??= [g0]), g);
    }
    const taxNumer = safeMul(net, g.rateDigits);
    if (taxNumer !== taxNumer) return undefined;
    const tax = roundDivNum(taxNumer, g.rateDivisor, mode);
    g.net += net;
    g.tax += tax;
    if (beyondSafe(g.net) || beyondSafe(g.tax)) return undefined;
    const out: LineTotals = { index: i, rate: g.key, net: formatNumber(net, units), tax: formatNumber(tax, units) };
    lineOut[i] = out;
    g.lines++;
    g.last = out;
  }
  if (g0 === undefined) {
    const zero = formatNumber(0, units);
    return { subtotal: zero, taxTotal: zero, total: zero, byRate: [], lines: lineOut };
  }
  if (groups === undefined) {
    // One rate (the usual case): the group's figures are the invoice's, and with one line, the
    // line's; reuse those strings instead of formatting the same numbers again.
    const one = g0.lines === 1 ? (g0.last as LineTotals) : undefined;
    const net = one !== undefined ? one.net : formatNumber(g0.net, units);
    const tax = one !== undefined ? one.tax : formatNumber(g0.tax, units);
    const total = g0.net + g0.tax;
    if (beyondSafe(total)) return undefined;
    return {
      subtotal: net,
      taxTotal: tax,
      total: formatNumber(total, units),
      byRate: [{ rate: g0.key, net, tax }],
      lines: lineOut,
    };
  }
  let subtotal = 0;
  let taxTotal = 0;
  const byRate: RateTotals[] = new Array(groups.length);
  for (let k = 0; k < groups.length; k++) {
    const g = groups[k] as FastGroup;
    subtotal += g.net;
    taxTotal += g.tax;
    byRate[k] = { rate: g.key, net: formatNumber(g.net, units), tax: formatNumber(g.tax, units) };
  }
  const total = subtotal + taxTotal;
  if (beyondSafe(subtotal) || beyondSafe(total)) return undefined;
  return {
    subtotal: formatNumber(subtotal, units),
    taxTotal: formatNumber(taxTotal, units),
    total: formatNumber(total, units),
    byRate,
    lines: lineOut,
  };
}

/**
 * computeTotals for callers that have already validated their options (checkInvoice): no options
 * object to read, no allocation before the work starts.
 */
export function computeTotalsResolved(
  lines: readonly TotalsLineInput[],
  units: number,
  rounding: RoundingLevel,
  mode: RoundingMode,
): InvoiceTotals {
  if (rounding === 'line') {
    const fast = lines.length === 1 ? fastOneLine(lines[0] as TotalsLineInput, units, mode) : fastLineTotals(lines, units, mode);
    if (fast !== undefined) return fast;
  }
  return exactTotals(lines, { units, rounding, mode });
}

/**
 * Moves the decimal point of an exact decimal by `places` (positive: ×10^places), as shortest text.
 * Used to turn a fraction into the percentage it probably meant (0.075 → "7.5") without the float
 * error of `0.075 * 100`.
 */
export function shiftDecimal(value: unknown, places: number): string | undefined {
  const d = parseDecimal(value);
  if (d === undefined) return undefined;
  let { digits, scale } = d;
  scale -= places;
  if (scale < 0) {
    digits *= bigPow10(-scale);
    scale = 0;
  }
  return formatDecimal({ digits, scale });
}
