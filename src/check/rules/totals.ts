/**
 * Tax and totals rules: "The service calculates invoice totals from the lines... The tax authority
 * does not check the arithmetic; a total that contradicts its lines is accepted and filed. Callers
 * reconcile totals themselves before filing." The totals are computed exactly from the lines, and
 * each of the caller's expected figures that differs is an error that shows both numbers.
 */
import type { IssueCollector } from '../issues.js';
import {
  compareTotals,
  computeTotalsResolved,
  tryMinorUnits,
  type ExpectedTotals,
  type InvoiceTotals,
  type TotalsLineInput,
} from '../money.js';
import type { ResolvedCheckOptions } from '../options.js';

const FIELDS = ['subtotal', 'taxTotal', 'total'] as const;

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
  expected: ExpectedTotals,
  o: ResolvedCheckOptions,
  issues: IssueCollector,
): InvoiceTotals | undefined {

  let usable = 0;
  for (const field of FIELDS) {
    const value = expected[field];
    if (value === undefined || value === null) continue;
    if (tryMinorUnits(value, o.minorUnits, o.roundingMode) === undefined) {
      issues.add('OPTION_INVALID', ['options', 'expectedTotals', field], {
        value,
        expected: 'a finite number or a decimal string such as "107.50"',
      });
    } else usable++;
  }
  if (totals === undefined) {
    if (usable > 0) issues.add('TOTALS_NOT_RECONCILED', ['options', 'expectedTotals']);
    return undefined;
  }
  const rounding = `${o.rounding === 'line' ? 'per line' : 'per rate group'}, ${o.roundingMode}`;
  for (const d of compareTotals(expected, totals, o.minorUnits, o.roundingMode)) {
    if (d.difference === undefined) continue; // an unusable figure, reported above
    issues.add('TOTALS_MISMATCH', ['options', 'expectedTotals', d.field], {
      expectedTotal: d.expected,
      actualTotal: d.actual,
      difference: d.difference,
      rounding,
    });
  }
  return totals;
}
