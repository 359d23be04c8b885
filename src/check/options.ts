/** Options of `checkInvoice`, resolved once per call into plain fields the rules read. */
import { CodeSet } from '../codes/code-set.js';
import { HS_CODES } from '../codes/hs-codes.js';
import { ISIC_CODES } from '../codes/isic-codes.js';
import { describeThrown, type CheckIssueCode } from './catalogue.js';
import type { IssuePath } from './issues.js';
import { MAX_LINES, tryMinorUnits, type ComputeTotalsOptions, type DecimalInput, type ExpectedTotals, type RoundingLevel, type RoundingMode } from '../model/money.js';

/**
 * A list of valid codes: a `Set`, any iterable of strings, anything with a `has(code)` method, or a predicate.
 *
 * @example
 * ```ts
 * import { checkInvoice, type CodeList } from 'invoicing-sdk';
 * const fromService = await client.codes.hsCodes();
 * const hsCodes: CodeList = new Set(fromService.map((c) => c.code)); // a Set: no copy per call
 * checkInvoice(input, { hsCodes });
 * ```
 */
export type CodeList =
  | ReadonlySet<string>
  | Iterable<string>
  | {
      /** Whether `code` is valid. */
      has(code: string): boolean;
    }
  | ((code: string) => boolean);

/**
 * Options of `checkInvoice`.
 *
 * @example
 * ```ts
 * import { checkInvoice } from 'invoicing-sdk';
 * checkInvoice(input, { strict: true, standardTaxRates: [7.5, 20], ignore: ['DUE_DATE_NO_OFFSET'] });
 * ```
 */
export interface CheckOptions extends ComputeTotalsOptions {
  /** Report every warning as an error. Default false. */
  strict?: boolean | undefined;
  /** Your figures: each one that differs from the lines' totals is a TOTALS_MISMATCH, as is a total in the input. */
  expectedTotals?: ExpectedTotals | undefined;
  /** Valid HS codes: an hsnCode outside the list given is HSN_CODE_NOT_LISTED (an error). */
  hsCodes?: CodeList | false | undefined;
  /** Valid ISIC codes: an isicCode outside the list given is ISIC_CODE_NOT_LISTED (an error). */
  isicCodes?: CodeList | false | undefined;
  /** productCategory / serviceCategory shorter than this (after trimming) are LINE_CATEGORY_SHORT (a warning). Default 3. */
  minCategoryLength?: number | undefined;
  /** A buyer.tin with fewer letters and digits than this is BUYER_TIN_SUSPICIOUS (a warning). Default 6. */
  minTinLength?: number | undefined;
  /** Tax rates in use, as percentages. */
  standardTaxRates?: Iterable<number> | undefined;
  /** Codes to leave out of the report entirely. */
  ignore?: Iterable<CheckIssueCode> | undefined;
}

/** A code list reduced to one shape; `codes` when it can be listed (for suggestions), `bundled` for the bundled tables. */
export interface CodeLookup {
  has(code: string): boolean;
  readonly codes?: Iterable<string>;
  readonly bundled?: boolean;
}

/** The comparable expected totals, and the key (`taxTotal`, or its alias `tax`) the tax figure came under. */
type ResolvedExpectedTotals = Record<'subtotal' | 'taxTotal' | 'total', DecimalInput | undefined> & { taxKey: 'taxTotal' | 'tax' };

type Problem = { path: IssuePath; value: unknown; expected?: string; thrown?: string };

/** The options as the rules read them: the shape of the defaults. */
export type ResolvedCheckOptions = ReturnType<typeof defaultsWith>;

const DEFAULT_ISIC: CodeLookup = { has: (c) => ISIC_CODES.has(c), codes: ISIC_CODES, bundled: true };
const DEFAULT_HS: CodeLookup = { has: (c) => HS_CODES.has(c), codes: HS_CODES, bundled: true };

/**
 * The default of `standardTaxRates`: the service's own 7.5 % and every whole rate from 5 to 28 %.
 *
 * @example
 * ```ts
 * import { checkInvoice, DEFAULT_STANDARD_TAX_RATES } from 'invoicing-sdk';
 * // A country whose rates include 3.5 %: 0.035 is then named as a likely fraction in the warning.
 * checkInvoice(input, { standardTaxRates: [...DEFAULT_STANDARD_TAX_RATES, 3.5] });
 * ```
 */
export const DEFAULT_STANDARD_TAX_RATES: readonly number[] = /* @__PURE__ */ Object.freeze([
  5, 6, 7, 7.5, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
]);
const DEFAULT_RATES: ReadonlySet<number> = /* @__PURE__ */ new Set(DEFAULT_STANDARD_TAX_RATES);

const DEFAULTS: ResolvedCheckOptions = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ defaultsWith([]));

// Sets, has() objects and predicates are asked live, so their lookup can be kept.
const lookupCache = /* @__PURE__ */ new WeakMap<object, CodeLookup>();

/** What the caller's code list (a predicate or a `has()`) threw when asked about `code`. */
export class CodeListThrew {
  constructor(readonly lookup: CodeLookup, readonly code: string, readonly thrown: unknown) {}
}

/** A lookup that asks the caller's code: a throw becomes a CodeListThrew naming this lookup. */
function askCaller(has: (code: string) => unknown): CodeLookup {
  const lookup: CodeLookup = {
    has: (c) => {
      try {
        return has(c) === true;
      } catch (err) {
        throw new CodeListThrew(lookup, c, err);
      }
    },
  };
  return lookup;
}

function toLookup(list: object): CodeLookup | undefined {
  let lookup = lookupCache.get(list);
  if (lookup !== undefined) return lookup;
  let keep = true;
  if (typeof list === 'function') lookup = askCaller((c) => (list as (code: string) => unknown)(c));
  else if ((list instanceof Set && list.has === Set.prototype.has) || list instanceof CodeSet) {
    lookup = { has: (c) => (list as ReadonlySet<string>).has(c), codes: list as ReadonlySet<string> };
  } else if (typeof (list as { has?: unknown }).has === 'function') {
    // Also a Set whose has() is its own: it may throw like any caller's code.
    lookup = askCaller((c) => (list as { has(code: string): unknown }).has(c));
  } else if (typeof (list as Iterable<unknown>)[Symbol.iterator] === 'function') {
    const set = new Set<string>();
    for (const item of list as Iterable<unknown>) if (typeof item === 'string') set.add(item);
    lookup = { has: (c) => set.has(c), codes: set };
    keep = !Array.isArray(list) || Object.isFrozen(list);
  }
  if (lookup !== undefined && keep) lookupCache.set(list, lookup);
  return lookup;
}

// The order options are read and reported in: minorUnits and roundingMode before the expectedTotals they round.
const OPTION_NAMES = [
  'strict', 'hsCodes', 'isicCodes', 'ignore', 'rounding', 'roundingMode', 'minorUnits', 'expectedTotals',
  'minCategoryLength', 'minTinLength', 'standardTaxRates',
] as const satisfies readonly (keyof CheckOptions)[];

const CODE_LIST = 'a Set, an array of codes, a function, or false for the format rules only';
const RATES = 'an array of percentages greater than 0 and at most 100, e.g. [7.5, 20]';
const ratesCache = /* @__PURE__ */ new WeakMap<object, ReadonlySet<number>>([[DEFAULT_STANDARD_TAX_RATES, DEFAULT_RATES]]);

const isIterable = (value: unknown): value is Iterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function';

/** Reads the caller's options once per call; no options at all costs nothing. */
export function resolveCheckOptions(opts: CheckOptions | undefined): ResolvedCheckOptions {
  if (opts === undefined || opts === null) return DEFAULTS;
  if (typeof opts !== 'object') return defaultsWith([{ path: ['options'], value: opts, expected: 'an object' }]);
  const o = defaultsWith([]);
  for (const name of OPTION_NAMES) {
    try {
      const value: unknown = opts[name];
      if (value !== undefined) readOption(o, name, value);
    } catch (err) {
      // A getter, proxy trap or iterator threw: that option is reported and left at its default.
      o.problems.push({ path: ['options', name], value: undefined, thrown: describeThrown(err) });
    }
  }
  return o;
}

// A fresh copy of the defaults, written out (a spread of a frozen object takes V8's slow path). `hs` is undefined with
// `hsCodes: false` (format only) while `isic` is still read for padded codes and suggestions; without `roundingGiven`, a
// figure that matches either rounding agrees; longer `lines` than `maxLines` are not read.
function defaultsWith(problems: Problem[]) {
  return {
    strict: false, ignore: undefined as ReadonlySet<string> | undefined, hs: DEFAULT_HS as CodeLookup | undefined, isic: DEFAULT_ISIC,
    isicFormatOnly: false, minCategoryLength: 3, minTinLength: 6, standardTaxRates: DEFAULT_RATES, minorUnits: 2,
    rounding: 'line' as RoundingLevel, roundingGiven: false, roundingMode: 'half-up' as RoundingMode,
    expectedTotals: undefined as ResolvedExpectedTotals | undefined, maxLines: MAX_LINES, problems,
  };
}

function readOption(o: ResolvedCheckOptions, name: (typeof OPTION_NAMES)[number], value: unknown): void {
  const bad = (expected: string, v = value): void => void o.problems.push({ path: ['options', name], value: v, expected });
  switch (name) {
    case 'strict':
      o.strict = value === true;
      return;
    case 'hsCodes':
    case 'isicCodes': {
      if (value === null) return;
      const hs = name === 'hsCodes';
      if (value === false) {
        if (hs) o.hs = undefined;
        else o.isicFormatOnly = true;
        return;
      }
      // The bundled table passed back in is still the bundled table (a warning, not the service's word).
      let lookup = value === (hs ? HS_CODES : ISIC_CODES) ? (hs ? DEFAULT_HS : DEFAULT_ISIC) : undefined;
      if (lookup === undefined && (typeof value === 'object' || typeof value === 'function')) lookup = toLookup(value);
      if (lookup === undefined) bad(CODE_LIST);
      else if (hs) o.hs = lookup;
      else o.isic = lookup;
      return;
    }
    case 'ignore':
      if (value === null) return;
      if (!isIterable(value)) return bad('an array of issue codes');
      // Built aside, so that an iterator throwing half-way leaves no half-read list behind.
      const ignore = new Set<string>();
      for (const c of value) if (typeof c === 'string') ignore.add(c);
      o.ignore = ignore;
      // Ignored, the bound is lifted rather than the lines left unchecked: every line is read.
      if (ignore.has('LINES_TOO_MANY')) o.maxLines = Infinity;
      return;
    case 'rounding':
      if (value !== 'line' && value !== 'invoice') return bad("'line' or 'invoice'");
      o.rounding = value;
      o.roundingGiven = true;
      return;
    case 'roundingMode':
      if (value !== 'half-up' && value !== 'half-even') return bad("'half-up' or 'half-even'");
      o.roundingMode = value;
      return;
    case 'minorUnits':
    case 'minCategoryLength':
    case 'minTinLength': {
      const max = name === 'minorUnits' ? 12 : 1000;
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) o[name] = value;
      else bad(`an integer from 0 to ${max}`);
      return;
    }
    case 'standardTaxRates': {
      if (value === null) return;
      if (!isIterable(value)) return bad(RATES);
      let rates = ratesCache.get(value) as Set<number> | undefined;
      if (rates === undefined) {
        rates = new Set();
        for (const r of value) {
          if (!(typeof r === 'number' && r > 0 && r <= 100)) return bad(RATES, r);
          rates.add(r);
        }
        // A frozen array cannot change: its Set is kept, so a large list costs nothing per call.
        if (Array.isArray(value) && Object.isFrozen(value)) ratesCache.set(value, rates);
      }
      o.standardTaxRates = rates;
      return;
    }
    case 'expectedTotals':
      if (value === null) return;
      if (typeof value !== 'object' || Array.isArray(value)) return bad('an object with subtotal, taxTotal and/or total');
      o.expectedTotals = readExpectedTotals(value as ExpectedTotals, o);
  }
}

/** Reports a code list that threw and resets that option so the invoice can be checked again. */
export function dropCodeList(o: ResolvedCheckOptions, err: CodeListThrew): void {
  const hs = err.lookup === o.hs;
  o.problems.push({ path: ['options', hs ? 'hsCodes' : 'isicCodes'], value: err.code, thrown: describeThrown(err.thrown) });
  if (hs) o.hs = DEFAULT_HS;
  else o.isic = DEFAULT_ISIC;
}

/** Reads each figure once (a getter is not asked twice) and keeps those that can be compared. */
function readExpectedTotals(given: ExpectedTotals, o: ResolvedCheckOptions): ResolvedExpectedTotals | undefined {
  const problem = (key: string, value: unknown, expected?: string, thrown?: string): void =>
    void o.problems.push({ path: ['options', 'expectedTotals', key], value, expected, thrown });
  for (const key of Object.keys(given)) {
    if (!['subtotal', 'taxTotal', 'tax', 'total'].includes(key)) {
      problem(key, (given as Record<string, unknown>)[key], 'one of subtotal, taxTotal (or tax), total');
    }
  }
  // The figure under `key`, or undefined (reported) when it is not an amount; null counts as absent.
  const figure = (key: keyof ExpectedTotals): { value: DecimalInput; minor: bigint } | undefined => {
    let value: unknown;
    try {
      value = given[key];
    } catch (err) {
      return void problem(key, undefined, undefined, describeThrown(err));
    }
    if (value === undefined || value === null) return undefined;
    const minor = tryMinorUnits(value, o.minorUnits, o.roundingMode);
    if (minor !== undefined) return { value: value as DecimalInput, minor };
    return void problem(key, value, 'a finite number or a decimal string such as "107.50"');
  };
  const subtotal = figure('subtotal');
  let taxTotal = figure('taxTotal');
  const tax = figure('tax');
  const total = figure('total');
  let taxKey: ResolvedExpectedTotals['taxKey'] = 'taxTotal';
  if (tax !== undefined && taxTotal === undefined) {
    taxTotal = tax;
    taxKey = 'tax';
  } else if (tax !== undefined && tax.minor !== (taxTotal as { minor: bigint }).minor) {
    problem('tax', tax.value, `the same figure as taxTotal (${String(taxTotal?.value)}), or only one of the two`);
    // Two different tax figures: reconcile neither rather than pick one.
    taxTotal = undefined;
  }
  if (subtotal === undefined && taxTotal === undefined && total === undefined) return undefined;
  return { subtotal: subtotal?.value, taxTotal: taxTotal?.value, total: total?.value, taxKey };
}
