/** Tax and totals rules: "The service calculates invoice totals from the lines... */
import type { IssueCollector, IssuePath } from '../issues.js';
import { compareTotals, computeTotalsResolved, tryMinorUnits, type DecimalInput, type InvoiceTotals, type TotalsLineInput } from '../../model/money.js';
import type { ResolvedCheckOptions } from '../options.js';

type Figure = 'subtotal' | 'taxTotal' | 'total';

/** Invoice-level total fields and the figure each one is. */
export const INPUT_TOTAL_FIELDS: Readonly<Record<string, Figure | 'totals'>> = /* @__PURE__ */ Object.freeze({
  subtotal: 'subtotal', subTotal: 'subtotal', netAmount: 'subtotal', netTotal: 'subtotal',
  taxTotal: 'taxTotal', tax: 'taxTotal', taxAmount: 'taxTotal', totalTax: 'taxTotal', vatAmount: 'taxTotal', vatTotal: 'taxTotal',
  total: 'total', totalAmount: 'total', grandTotal: 'total', amount: 'total', grossAmount: 'total',
  totals: 'totals',
});

/** Line-level fields that hold a line's total: not read by the service, not sent by `invoices.create()`. */
export const LINE_TOTAL_FIELDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'lineTotal', 'total', 'netAmount', 'amount', 'lineAmount', 'subtotal', 'grossAmount',
]);

export type InputTotal = { path: IssuePath; figure: Figure; value: unknown };

/** Adds the totals held by invoice field `key` (a figure, or a `totals` object of them) to `out`. */
export function collectInputTotal(key: string, value: unknown, issues: IssueCollector, out: InputTotal[]): void {
  const figure = INPUT_TOTAL_FIELDS[key] as Figure | 'totals';
  if (figure !== 'totals') return void out.push({ path: [key], figure, value });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return issues.add('TOTAL_FIELD_NOT_ACCEPTED', [key], { value, reason: 'not an object of subtotal, tax and total' });
  }
  for (const inner of Object.keys(value)) {
    const f = INPUT_TOTAL_FIELDS[inner];
    const v = (value as Record<string, unknown>)[inner];
    if (f !== undefined && f !== 'totals') out.push({ path: [key, inner], figure: f, value: v });
    else issues.add('TOTAL_FIELD_NOT_ACCEPTED', [key, inner], { value: v, reason: 'not a total the SDK knows' });
  }
}

/** Computes the totals of `lines` (given when every line's amounts are numbers), then reconciles the caller's figures. */
export function reconcileTotals(
  lines: readonly TotalsLineInput[] | undefined, o: ResolvedCheckOptions, issues: IssueCollector, inputTotals?: readonly InputTotal[],
): InvoiceTotals | undefined {
  const totals = lines?.length ? computeTotalsResolved(lines, o.minorUnits, o.rounding, o.roundingMode) : undefined;
  // Small on purpose: without figures to compare (most calls) the JIT can inline all of it.
  if (o.expectedTotals === undefined && inputTotals === undefined) return totals;
  // The totals under the other rounding, computed once when a figure disagrees with the first; none when it was given.
  let alt: InvoiceTotals | undefined | null = o.roundingGiven || totals === undefined ? undefined : null;
  const compare = (path: IssuePath, figure: Figure, expected: DecimalInput | undefined): void => {
    if (expected === undefined || totals === undefined) return;
    const [d] = compareTotals({ [figure]: expected }, totals, o.minorUnits, o.roundingMode);
    if (d === undefined) return;
    const other = o.rounding === 'line' ? 'invoice' : 'line';
    if (alt === null) alt = computeTotalsResolved(lines as readonly TotalsLineInput[], o.minorUnits, other, o.roundingMode);
    if (alt !== undefined && compareTotals({ [figure]: expected }, alt, o.minorUnits, o.roundingMode).length === 0) return;
    const level = (r: string): string => (r === 'line' ? 'per line' : 'per rate group');
    issues.add('TOTALS_MISMATCH', path, {
      expectedTotal: d.expected,
      actualTotal: d.actual,
      difference: d.difference,
      rounding: `${level(o.rounding)}, ${o.roundingMode}${alt === undefined ? '' : `; ${level(other)} it is ${alt[figure]}`}`,
    });
  };
  const e = o.expectedTotals;
  if (e !== undefined) {
    if (totals === undefined) issues.add('TOTALS_NOT_RECONCILED', ['options', 'expectedTotals']);
    compare(['options', 'expectedTotals', 'subtotal'], 'subtotal', e.subtotal);
    compare(['options', 'expectedTotals', e.taxKey], 'taxTotal', e.taxTotal);
    compare(['options', 'expectedTotals', 'total'], 'total', e.total);
  }
  for (const t of inputTotals ?? []) {
    if (t.value === undefined || t.value === null) continue;
    if (tryMinorUnits(t.value, o.minorUnits, o.roundingMode) === undefined) {
      issues.add('TOTAL_FIELD_NOT_ACCEPTED', t.path, { value: t.value, reason: 'it is not an amount' });
    } else if (totals === undefined) issues.add('TOTALS_NOT_RECONCILED', t.path);
    else compare(t.path, t.figure, t.value as DecimalInput);
  }
  return totals;
}
