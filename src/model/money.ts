/** Exact decimal money arithmetic. */
import { parseDecimal, type Decimal } from './decimal.js';

/**
 * How a halfway value is rounded: `'half-up'` away from zero (0.125 → 0.13), `'half-even'` to the even neighbour.
 * @example
 * ```ts
 * computeTotals([{ quantity: 1, unitPrice: '0.125', taxRate: 0 }], { roundingMode: 'half-even' }).total; // "0.12"
 * ```
 */
export type RoundingMode = 'half-up' | 'half-even';

/**
 * Where rounding happens: `'line'` rounds each line's net and tax, `'invoice'` rounds the exact sums per rate once.
 * @example
 * ```ts
 * computeTotals(lines, { rounding: 'invoice' });
 * ```
 */
export type RoundingLevel = 'line' | 'invoice';

/**
 * An amount as the caller has it: a JSON number or a decimal string such as `"19.99"`.
 * @example
 * ```ts
 * const price: DecimalInput = '19.99';
 * ```
 */
export type DecimalInput = number | string;

/**
 * The fields of an invoice line that the totals are computed from (an `InvoiceLineInput` has them).
 * @example
 * ```ts
 * const line: TotalsLineInput = { quantity: 3, unitPrice: '19.99', taxRate: 7.5, discountRate: 10 };
 * ```
 */
export interface TotalsLineInput {
  /** How many units. */ quantity: DecimalInput;
  /** Price of one unit before tax. */ unitPrice: DecimalInput;
  /** A percentage: 7.5 means 7.5 %. */ taxRate: DecimalInput;
  /** A percentage taken off `quantity × unitPrice`; absent means no discount. */ discountRate?: DecimalInput | null | undefined;
}

/**
 * Options of {@link computeTotals}.
 * @example
 * ```ts
 * const opts: ComputeTotalsOptions = { minorUnits: 0, rounding: 'invoice' };
 * ```
 */
export interface ComputeTotalsOptions {
  /** Digits after the decimal point of the currency's minor unit. Default 2. */ minorUnits?: number | undefined;
  /** Default `'line'`. See {@link RoundingLevel}. */ rounding?: RoundingLevel | undefined;
  /** Default `'half-up'` (halves go away from zero). */ roundingMode?: RoundingMode | undefined;
}

/**
 * One line's computed figures, as decimal strings to the minor unit.
 * @example
 * ```ts
 * computeTotals([{ quantity: 2, unitPrice: 9.99, taxRate: 7.5 }]).lines[0]; // { index: 0, net: "19.98", tax: "1.50", … }
 * ```
 */
export interface LineTotals {
  /** Position of the line in the input array. */ index: number;
  /** The line's tax rate, normalised (`"7.5"`, `"0"`). */ rate: string;
  /** quantity × unitPrice × (1 − discountRate/100), rounded to the minor unit. */ net: string;
  /** Tax on the rounded net, rounded to the minor unit. */ tax: string;
}

/**
 * The figures of all lines sharing one tax rate (the service derives the tax category from it).
 * @example
 * ```ts
 * const groups: RateTotals[] = computeTotals(lines).byRate; // [{ rate: "0", … }, { rate: "7.5", … }]
 * ```
 */
export interface RateTotals {
  /** The tax rate as a percentage, normalised (`"7.5"`). */ rate: string;
  /** Sum of the nets of the lines at this rate. */ net: string;
  /** Tax of the lines at this rate. */ tax: string;
}

/**
 * Invoice totals as decimal strings to the minor unit (`"107.50"`).
 * @example
 * ```ts
 * const t: InvoiceTotals = computeTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]);
 * [t.subtotal, t.taxTotal, t.total]; // ["100.00", "7.50", "107.50"]
 * ```
 */
export interface InvoiceTotals {
  /** Sum of the line nets, before tax. */ subtotal: string;
  /** Sum of the tax. */ taxTotal: string;
  /** subtotal + taxTotal. */ total: string;
  /** Figures per tax rate, lowest rate first. */ byRate: RateTotals[];
  /** Figures per line, in input order. */ lines: LineTotals[];
}

/**
 * The caller's own figures to reconcile against; any subset.
 * @example
 * ```ts
 * checkInvoice(input, { expectedTotals: { total: 107.5 } });
 * ```
 */
export interface ExpectedTotals {
  /** Expected sum of the line nets, before tax. */ subtotal?: DecimalInput | null | undefined;
  /** Expected sum of the tax. */ taxTotal?: DecimalInput | null | undefined;
  /** Another name for `taxTotal`, as the service document says "tax" (checkInvoice reads either). */ tax?: DecimalInput | null | undefined;
  /** Expected subtotal + tax. */ total?: DecimalInput | null | undefined;
}

/**
 * One difference found by {@link compareTotals}.
 * @example
 * ```ts
 * compareTotals({ total: '108' }, { total: '107.5' })[0]?.difference;
 * ```
 */
export interface TotalsDifference {
  /** Which figure differs. */ field: 'subtotal' | 'taxTotal' | 'total';
  /** The expected figure at the minor unit, or the raw value when it is not a number. */ expected: string;
  /** The actual figure at the minor unit, or the raw value when it is not a number. */ actual: string;
  /** actual − expected at the minor unit; absent when either side is not a number. */ difference?: string;
}

const BIG_POW10: readonly bigint[] = /* @__PURE__ */ Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
const bigPow10 = (n: number): bigint => BIG_POW10[n] ?? 10n ** BigInt(n);

function normalise(d: Decimal): Decimal {
  let { digits, scale } = d;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return { digits, scale };
}

function roundDivBig(n: bigint, d: bigint, mode: RoundingMode): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  const away = twice > d || (twice === d && (mode === 'half-up' || q % 2n !== 0n));
  return away ? q + (n < 0n ? -1n : 1n) : q;
}

function toMinor(d: Decimal, units: number, mode: RoundingMode): bigint {
  if (d.scale <= units) return d.digits * bigPow10(units - d.scale);
  return roundDivBig(d.digits, bigPow10(d.scale - units), mode);
}

function formatScaled(value: bigint, scale: number): string {
  // Comparisons with 0n, not 0: a BigInt against a number takes V8's slow generic path.
  const negative = value < 0n;
  const abs = negative ? -value : value;
  // Up to 2^53 the integer converts exactly, and a number prints faster than a BigInt.
  let s = abs <= 9007199254740991n ? String(Number(abs)) : abs.toString();
  if (scale > 0) {
    if (s.length <= scale) s = '0'.repeat(scale - s.length + 1) + s;
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return negative ? '-' + s : s;
}

/**
 * Converts an amount to an integer count of minor units, exactly (`19.99` → `1999n`), rounding with `roundingMode`.
 * @example
 * ```ts
 * toMinorUnits(0.1 + 0.2); // 30n (0.30000000000000004 rounds to 0.30)
 * ```
 */
export function toMinorUnits(value: DecimalInput, minorUnits = 2, roundingMode: RoundingMode = 'half-up'): bigint {
  const d = parseDecimal(value);
  if (d === undefined) throw new RangeError(`not a finite decimal amount: ${describe(value)}`);
  return toMinor(d, minorUnits, roundingMode);
}

export function tryMinorUnits(value: unknown, minorUnits = 2, roundingMode: RoundingMode = 'half-up'): bigint | undefined {
  const d = parseDecimal(value);
  return d === undefined ? undefined : toMinor(d, minorUnits, roundingMode);
}

/**
 * Whether two amounts are equal at the minor unit.
 * @example
 * ```ts
 * decimalEquals(0.1 + 0.2, '0.30'); // true
 * ```
 */
export function decimalEquals(a: unknown, b: unknown, minorUnits = 2): boolean {
  const x = tryMinorUnits(a, minorUnits);
  return x !== undefined && x === tryMinorUnits(b, minorUnits);
}

/**
 * Compares two sets of totals at the minor unit and lists each field that differs.
 * @example
 * ```ts
 * const mine = computeTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]);
 * compareTotals({ total: '108' }, mine); // [{ field: 'total', expected: '108.00', actual: '107.50', difference: '-0.50' }]
 * ```
 */
export function compareTotals(
  expected: ExpectedTotals,
  actual: ExpectedTotals,
  minorUnits = 2,
  roundingMode: RoundingMode = 'half-up',
): TotalsDifference[] {
  const out: TotalsDifference[] = [];
  for (const field of ['subtotal', 'taxTotal', 'total'] as const) {
    const e = expected[field];
    const a = actual[field];
    if (e === undefined || e === null || a === undefined || a === null) continue;
    const em = tryMinorUnits(e, minorUnits, roundingMode);
    const am = tryMinorUnits(a, minorUnits, roundingMode);
    if (em !== undefined && em === am) continue;
    const expectedText = em === undefined ? String(e) : formatScaled(em, minorUnits);
    const actualText = am === undefined ? String(a) : formatScaled(am, minorUnits);
    out.push(em === undefined || am === undefined ? { field, expected: expectedText, actual: actualText }
      : { field, expected: expectedText, actual: actualText, difference: formatScaled(am - em, minorUnits) });
  }
  return out;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

export const MAX_LINES = 100_000;

/**
 * Computes an invoice's totals exactly, to the minor unit, as the service document does; throws on unreadable arguments.
 * @example
 * ```ts
 * computeTotals([{ quantity: 3, unitPrice: '19.99', taxRate: 7.5, discountRate: 10 }]).total; // "58.02"
 * ```
 */
export function computeTotals(lines: readonly TotalsLineInput[], opts?: ComputeTotalsOptions): InvoiceTotals {
  if (!Array.isArray(lines)) throw new TypeError(`lines must be an array, got ${describe(lines)}`);
  if (lines.length > MAX_LINES) {
    throw new RangeError(
      `lines has ${lines.length} entries; computeTotals takes at most ${MAX_LINES} (a length set by hand? a sparse array?)`,
    );
  }
  const units = opts?.minorUnits ?? 2;
  if (!Number.isInteger(units) || units < 0 || units > 12) throw optionError('minorUnits', 'an integer from 0 to 12', units);
  const rounding = opts?.rounding ?? 'line';
  if (rounding !== 'line' && rounding !== 'invoice') throw optionError('rounding', "'line' or 'invoice'", rounding);
  const mode = opts?.roundingMode ?? 'half-up';
  if (mode !== 'half-up' && mode !== 'half-even') throw optionError('roundingMode', "'half-up' or 'half-even'", mode);
  return computeTotalsResolved(lines, units, rounding, mode);
}

const optionError = (name: string, wanted: string, got: unknown) => new RangeError(`${name} must be ${wanted}, got ${describe(got)}`);

const ZERO: Decimal = { digits: 0n, scale: 0 };

/** Amounts already read in this computation: values repeat across lines and reading is costly. */
type AmountCache = Map<unknown, Decimal> | undefined;

const CACHE_FROM_LINES = 8;

function readAmount(line: TotalsLineInput, index: number, field: keyof TotalsLineInput, cache: AmountCache): Decimal {
  const raw = line === null || typeof line !== 'object' ? undefined : line[field];
  let d = cache?.get(raw);
  if (d !== undefined) return d;
  if (field === 'discountRate' && (raw === undefined || raw === null)) return ZERO;
  d = parseDecimal(raw);
  if (d === undefined) {
    throw new TypeError(`lines[${index}].${field} is not a finite number or decimal string: ${describe(raw)}`);
  }
  cache?.set(raw, d);
  return d;
}

/** The exact net of one line, net = q·p·(100 − d)/100: digits over 10^scale. */
function exactNet(line: TotalsLineInput, i: number, cache: AmountCache): Decimal {
  const q = readAmount(line, i, 'quantity', cache);
  const p = readAmount(line, i, 'unitPrice', cache);
  const d = readAmount(line, i, 'discountRate', cache);
  if (d.digits === 0n) return { digits: q.digits * p.digits, scale: q.scale + p.scale };
  return { digits: q.digits * p.digits * (100n * bigPow10(d.scale) - d.digits), scale: q.scale + p.scale + d.scale + 2 };
}

interface ExactGroup {
  /** The rate as the last line of this group wrote it, to find the group again without reading it. */ written: unknown;
  rate: Decimal;
  key: string;
  /** 10^(rate scale + 2): tax = net × rate digits / divisor. */ divisor: bigint;
  netMinor: bigint;
  taxMinor: bigint;
  /** The group's one line while it has only one: its printed figures are the group's. */ only: LineTotals | undefined;
  lineCount: number;
  // Exact net as digits × 10^-scale, for `rounding: 'invoice'`.
  exactDigits: bigint;
  exactScale: number;
}

// Past this many rates, groups are found by key in a map rather than by a scan.
const SCAN_GROUPS = 8;

/** The groups of one computation, by rate. Invoices have a handful of rates. */
interface Groups {
  list: ExactGroup[];
  byKey: Map<string, ExactGroup> | undefined;
}

function groupOf(groups: Groups, line: TotalsLineInput, i: number, cache: AmountCache): ExactGroup {
  const written = line === null || typeof line !== 'object' ? undefined : line.taxRate;
  if (groups.byKey === undefined && written !== undefined) {
    for (const g of groups.list) if (g.written === written) return g;
  }
  const t = normalise(readAmount(line, i, 'taxRate', cache));
  const key = formatScaled(t.digits, t.scale);
  // The same rate written another way (7.5 and '7.50') is the same group.
  let g = groups.byKey?.get(key) ?? (groups.byKey === undefined ? groups.list.find((x) => x.key === key) : undefined);
  if (g === undefined) {
    const divisor = bigPow10(t.scale + 2);
    g = { written, rate: t, key, divisor, netMinor: 0n, taxMinor: 0n, only: undefined, lineCount: 0, exactDigits: 0n, exactScale: 0 };
    groups.list.push(g);
    if (groups.byKey !== undefined) groups.byKey.set(key, g);
    else if (groups.list.length > SCAN_GROUPS) groups.byKey = new Map(groups.list.map((x) => [x.key, x]));
  }
  g.written = written;
  return g;
}

/** computeTotals for callers whose options are already validated. */
export function computeTotalsResolved(
  lines: readonly TotalsLineInput[],
  units: number,
  rounding: RoundingLevel,
  mode: RoundingMode,
): InvoiceTotals {
  const cache: AmountCache = lines.length > CACHE_FROM_LINES ? new Map() : undefined;
  const groups: Groups = { list: [], byKey: undefined };
  const byInvoice = rounding === 'invoice';
  const lineOut: LineTotals[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as TotalsLineInput;
    const net = exactNet(line, i, cache);
    const g = groupOf(groups, line, i, cache);
    const netMinor = toMinor(net, units, mode);
    // Line tax is taken on the rounded net: the figure printed on the line.
    const taxMinor = g.rate.digits === 0n ? 0n : roundDivBig(netMinor * g.rate.digits, g.divisor, mode);
    const printed: LineTotals = {
      index: i,
      rate: g.key,
      net: formatScaled(netMinor, units),
      tax: formatScaled(taxMinor, units),
    };
    lineOut[i] = printed;
    g.only = ++g.lineCount === 1 ? printed : undefined;
    g.netMinor += netMinor;
    g.taxMinor += taxMinor;
    if (byInvoice) {
      if (net.scale > g.exactScale) {
        g.exactDigits *= bigPow10(net.scale - g.exactScale);
        g.exactScale = net.scale;
      }
      g.exactDigits += net.digits * bigPow10(g.exactScale - net.scale);
    }
  }
  const sorted = groups.list;
  if (sorted.length > 1) sorted.sort((a, b) => compareDecimal(a.rate, b.rate));
  let subtotal = 0n;
  let taxTotal = 0n;
  const byRate: RateTotals[] = new Array(sorted.length);
  for (let k = 0; k < sorted.length; k++) {
    const g = sorted[k] as ExactGroup;
    let net = g.netMinor;
    let tax = g.taxMinor;
    if (byInvoice) {
      net = toMinor({ digits: g.exactDigits, scale: g.exactScale }, units, mode);
      // Tax on the exact group net, rounded once.
      tax = toMinor({ digits: g.exactDigits * g.rate.digits, scale: g.exactScale + g.rate.scale + 2 }, units, mode);
    }
    subtotal += net;
    taxTotal += tax;
    // Printing is a good part of the cost of a short invoice: figures already printed are reused.
    const only = byInvoice ? undefined : g.only;
    byRate[k] = {
      rate: g.key,
      net: only?.net ?? formatScaled(net, units),
      tax: only?.tax ?? formatScaled(tax, units),
    };
  }
  const one = sorted.length === 1 ? (byRate[0] as RateTotals) : undefined;
  return {
    subtotal: one?.net ?? formatScaled(subtotal, units),
    taxTotal: one?.tax ?? formatScaled(taxTotal, units),
    total: formatScaled(subtotal + taxTotal, units),
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

/** Moves the decimal point of an exact decimal by `places` (positive: ×10^places), as shortest text. */
export function shiftDecimal(value: unknown, places: number): string | undefined {
  const d = parseDecimal(value);
  if (d === undefined) return undefined;
  const scale = d.scale - places;
  const n = normalise(scale < 0 ? { digits: d.digits * bigPow10(-scale), scale: 0 } : { digits: d.digits, scale });
  return formatScaled(n.digits, n.scale);
}
