/**
 * Fuzzing of the local checks. `checkInvoice` meets any value at all (JSON, JavaScript oddities,
 * hostile objects with throwing getters and proxies, cycles) and invoices that are nearly valid;
 * it never throws, every issue is well formed (a known code, a path, a message), the report is
 * consistent, pure and serialisable, and its totals agree with an independent BigInt reference.
 * `computeTotals` is held to that reference over lines that stress exact arithmetic, with every
 * rounding option.
 *
 * CI runs 5,000 inputs per property; `npm run test:fuzz` runs 100,000 (docs/reliability.md).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECK_RULES, checkInvoice, computeTotals, type CheckOptions, type CheckReport } from '../../src/check/index.js';
import { anyValue, checkOptions, exactLine, nearInvoice, reconcile, totalsOptions } from './support/invoice-arbitraries.js';
import { referenceTotals, type ReferenceLine } from './support/reference-totals.js';
import { report, scaled, seed } from './support/scale.js';

const RUNS = scaled('fuzz_runs', 5_000, 100_000);
const params = { numRuns: RUNS, seed: seed() };

const tally = {
  'inputs checked': 0,
  'reports ok': 0,
  'issues seen': 0,
  'distinct issue codes': new Set<string>(),
  'reports whose totals matched the reference': 0,
  'computeTotals compared with the reference': 0,
  'lines in those': 0,
};

/** Every problem with a report's shape; empty when well formed. */
function problemsOf(r: CheckReport): string[] {
  const problems: string[] = [];
  if (r.ok !== (r.errors.length === 0)) problems.push(`ok is ${r.ok} with ${r.errors.length} errors`);
  const check = (issue: CheckReport['errors'][number], severity: 'error' | 'warning'): void => {
    const where = `${String(issue.code)} at ${JSON.stringify(issue.path)}`;
    if (!(issue.code in CHECK_RULES)) problems.push(`${where}: unknown code`);
    if (!/^[A-Z][A-Z0-9_]*$/.test(issue.code)) problems.push(`${where}: code is not SCREAMING_SNAKE`);
    if (issue.severity !== severity) problems.push(`${where}: severity ${issue.severity} among the ${severity}s`);
    if (!Array.isArray(issue.path)) problems.push(`${where}: path is not an array`);
    else if (!issue.path.every((p) => typeof p === 'string' || (Number.isInteger(p) && p >= 0))) problems.push(`${where}: path has a bad segment`);
    if (typeof issue.message !== 'string' || issue.message.trim() === '') problems.push(`${where}: no message`);
    if (issue.hint !== undefined && (typeof issue.hint !== 'string' || issue.hint.trim() === '')) problems.push(`${where}: empty hint`);
    tally['distinct issue codes'].add(issue.code);
  };
  r.errors.forEach((i) => check(i, 'error'));
  r.warnings.forEach((i) => check(i, 'warning'));
  try {
    JSON.stringify(r);
  } catch (error) {
    problems.push(`the report cannot be serialised: ${String(error)}`);
  }
  return problems;
}

/** Checks `input` and holds the report to every invariant; returns it. */
function checked(input: unknown, opts?: CheckOptions): CheckReport {
  let r: CheckReport;
  try {
    r = checkInvoice(input, opts);
  } catch (error) {
    throw new Error(`checkInvoice threw: ${String(error)}`);
  }
  tally['inputs checked'] += 1;
  if (r.ok) tally['reports ok'] += 1;
  tally['issues seen'] += r.errors.length + r.warnings.length;
  expect(problemsOf(r)).toEqual([]);
  return r;
}

/** The lines of `input` when they are an array of plain records, else undefined. */
function linesOf(input: unknown): ReferenceLine[] | undefined {
  const lines = (input as { lines?: unknown } | null)?.lines;
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'object' && l !== null && !Array.isArray(l))) return undefined;
  return lines as ReferenceLine[];
}

afterAll(() => {
  const unseen = Object.keys(CHECK_RULES).filter((code) => !tally['distinct issue codes'].has(code));
  report('fuzz: checkInvoice and computeTotals', {
    'runs per property': RUNS,
    ...tally,
    'distinct issue codes': `${tally['distinct issue codes'].size} of ${Object.keys(CHECK_RULES).length}`,
    'codes not reached': unseen.join(', ') || 'none',
  });
});

describe('fuzz: checkInvoice', () => {

  it(`never throws and reports well-formed issues for any value (${RUNS.toLocaleString('en')} inputs)`, () => {
    fc.assert(
      fc.property(anyValue, (input) => {
        checked(input);
      }),
      params,
    );
  });

  it(`never throws on nearly valid invoices; totals agree with the reference; pure (${RUNS.toLocaleString('en')} inputs)`, () => {
    fc.assert(
      fc.property(nearInvoice, fc.option(checkOptions, { freq: 3 }), reconcile, (input, generated, reconciling) => {
        const lines = linesOf(input);
        const truth = lines === undefined ? undefined : referenceTotals(lines);
        const options: Record<string, unknown> = { ...(generated ?? {}) };
        if (reconciling === 'exact' && truth !== undefined) options.expectedTotals = { total: truth.total, subtotal: truth.subtotal };
        if (reconciling === 'cent-off' && truth !== undefined) options.expectedTotals = { taxTotal: (Number(truth.taxTotal) + 0.01).toFixed(2) };
        if (reconciling === 'garbage') options.expectedTotals = { total: 'lots', subtotal: null, extra: 1 };
        const opts = options as CheckOptions;

        const before = JSON.stringify(input);
        const r = checked(input, opts);
        // Pure: the input is untouched and a second run says the same.
        expect(JSON.stringify(input)).toBe(before);
        expect(JSON.stringify(checkInvoice(input, opts))).toBe(JSON.stringify(r));
        // Strict turns every warning into an error and nothing else.
        const strict = checkInvoice(input, { ...opts, strict: true });
        expect(strict.warnings).toEqual([]);
        expect(strict.errors.map((i) => i.code).sort()).toEqual([...r.errors, ...r.warnings].map((i) => i.code).sort());

        // Totals follow the rounding options only when they are valid; compare on the defaults.
        const expected = generated === null ? truth : undefined;
        const allNumbers = lines !== undefined && lines.length > 0 && lines.every((l) => [l.quantity, l.unitPrice, l.taxRate].every((v) => typeof v === 'number' && Number.isFinite(v)) && (l.discountRate === undefined || (typeof l.discountRate === 'number' && Number.isFinite(l.discountRate))));
        if (allNumbers === true) expect(r.totals, 'totals are given whenever every amount is a number').toBeDefined();
        if (r.totals !== undefined && expected !== undefined) {
          expect(r.totals).toEqual(expected);
          tally['reports whose totals matched the reference'] += 1;
        }
      }),
      params,
    );
  });
});

describe('fuzz: computeTotals', () => {
  it(`equals the BigInt reference for every rounding option (${RUNS.toLocaleString('en')} invoices)`, () => {
    fc.assert(
      fc.property(fc.array(exactLine, { maxLength: 30 }), totalsOptions, (lines, options) => {
        const expected = referenceTotals(lines, options);
        if (expected === undefined) throw new Error(`the generator made an unreadable amount: ${JSON.stringify(lines)}`);
        expect(computeTotals(lines, options)).toEqual(expected);
        tally['computeTotals compared with the reference'] += 1;
        tally['lines in those'] += lines.length;
      }),
      params,
    );
  });

  it('the reference is not computeTotals in disguise: it gets the documented examples right', () => {
    expect(referenceTotals(Array.from({ length: 10 }, () => ({ quantity: 1, unitPrice: 0.1, taxRate: 0 })))?.subtotal).toBe('1.00');
    expect(referenceTotals([{ quantity: 3, unitPrice: '19.99', taxRate: 7.5, discountRate: 10 }])?.total).toBe('58.02');
    expect(referenceTotals([{ quantity: 1, unitPrice: '0.125', taxRate: 0 }])?.subtotal).toBe('0.13');
    expect(referenceTotals([{ quantity: 1, unitPrice: '0.125', taxRate: 0 }], { roundingMode: 'half-even' })?.subtotal).toBe('0.12');
    expect(referenceTotals([{ quantity: 1, unitPrice: '-0.125', taxRate: 0 }])?.subtotal).toBe('-0.13');
    expect(referenceTotals([{ quantity: 1, unitPrice: 1e21, taxRate: 0 }], { minorUnits: 0 })?.subtotal).toBe('1000000000000000000000');
    expect(referenceTotals([{ quantity: 1, unitPrice: 1e-7, taxRate: 0 }], { minorUnits: 6 })?.subtotal).toBe('0.000000');
    const grouped = referenceTotals(
      [
        { quantity: 1, unitPrice: '0.333', taxRate: 7.5 },
        { quantity: 1, unitPrice: '0.333', taxRate: '7.50' },
      ],
      { rounding: 'invoice' },
    );
    // One rate group (7.5 = 7.50): 0.666 → 0.67 net, 0.04995 → 0.05 tax, rounded once.
    expect(grouped?.byRate).toEqual([{ rate: '7.5', net: '0.67', tax: '0.05' }]);
  });
});
