/**
 * Tax and totals rules: "The service calculates invoice totals from the lines... The tax authority
 * does not check the arithmetic; a total that contradicts its lines is accepted and filed. Callers
 * reconcile totals themselves before filing." The totals are computed exactly from the lines, and
 * each of the caller's expected figures that differs is an error that shows both numbers.
 */
import type { IssueCollector } from '../issues.js';
import { compareTotals, computeTotalsResolved, type InvoiceTotals, type TotalsLineInput } from '../../model/money.js';
import type { ResolvedCheckOptions, ResolvedExpectedTotals } from '../options.js';

/** Computes the totals when every line's amounts are numbers, then reconciles `expectedTotals`. */
export function reconcileTotals(
  lines: readonly unknown[] | undefined,
  computable: boolean,
  o: ResolvedCheckOptions,
  issues: IssueCollector,
): InvoiceTotals | undefined {
  const totals =
    computable && lines !== undefined && lines.length > 0
      ? computeTotalsResolved(lines as readonly TotalsLineInput[], o.minorUnits, o.rounding, o.roundingMode)
      : undefined;
  // Small on purpose: without expected totals (most calls) the JIT can inline all of it.
  return o.expectedTotals === undefined ? totals : reconcileExpected(totals, o.expectedTotals, o, issues);
}

function reconcileExpected(
  totals: InvoiceTotals | undefined,
  expected: ResolvedExpectedTotals,
  o: ResolvedCheckOptions,
  issues: IssueCollector,
): InvoiceTotals | undefined {
  // Only figures that can be compared get here (options.ts reported the others).
  if (totals === undefined) {
    issues.add('TOTALS_NOT_RECONCILED', ['options', 'expectedTotals']);
    return undefined;
  }
  const rounding = `${o.rounding === 'line' ? 'per line' : 'per rate group'}, ${o.roundingMode}`;
  for (const d of compareTotals(expected, totals, o.minorUnits, o.roundingMode)) {
    // The tax figure is reported under the key the caller gave it (taxTotal or tax).
    issues.add('TOTALS_MISMATCH', ['options', 'expectedTotals', d.field === 'taxTotal' ? expected.taxKey : d.field], {
      expectedTotal: d.expected,
      actualTotal: d.actual,
      difference: d.difference,
      rounding,
    });
  }
  return totals;
}
