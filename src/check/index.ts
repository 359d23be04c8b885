/** Local pre-filing checks. */
import { IssueCollector, type CheckIssue } from './issues.js';
import { describeThrown } from './catalogue.js';
import type { InvoiceTotals } from '../model/money.js';
import { CodeListThrew, dropCodeList, resolveCheckOptions, type CheckOptions } from './options.js';
import { isRecord, sentInvoice } from './rules/fields.js';
import { checkInvoiceInput } from './rules/invoice.js';

export { CHECK_RULES, formatIssuePath } from './issues.js';
export type { CheckArea, CheckIssue, CheckIssueCode, CheckRule, CheckSeverity, IssuePath } from './issues.js';
export { DEFAULT_STANDARD_TAX_RATES } from './options.js';
export { MAX_INPUT_DEPTH } from './rules/fields.js';
export type { CheckOptions, CodeList } from './options.js';
export { compareTotals, computeTotals, decimalEquals, toMinorUnits, tryMinorUnits } from '../model/money.js';
export type {
  ComputeTotalsOptions, DecimalInput, ExpectedTotals, InvoiceTotals, LineTotals, RateTotals, RoundingLevel,
  RoundingMode, TotalsDifference, TotalsLineInput,
} from '../model/money.js';

/**
 * The result of {@link checkInvoice}.
 *
 * @example
 * ```ts
 * import { checkInvoice, type CheckReport } from 'invoicing-sdk';
 * const report: CheckReport = checkInvoice(input);
 * if (!report.ok) console.error(report.errors.map((i) => `${i.code}: ${i.message}`).join('\n'));
 * ```
 */
export interface CheckReport {
  /** True when there is no error (warnings allowed). */ ok: boolean;
  /** Problems that stop filing. */ errors: CheckIssue[];
  /** Problems worth a look that do not stop filing (errors too with `strict`). */ warnings: CheckIssue[];
  /** Exact totals, whenever every line's amounts are numbers, even if other rules failed. */ totals: InvoiceTotals | undefined;
}

/**
 * Checks an invoice against every rule of the service document before sending, and reports every problem at once.
 *
 * @example
 * ```ts
 * import { checkInvoice } from 'invoicing-sdk';
 * const report = checkInvoice(input, { expectedTotals: { total: '1612.50' } });
 * for (const issue of report.errors) console.error(`${issue.code}: ${issue.message}`);
 * ```
 */
export function checkInvoice(input: unknown, opts?: CheckOptions): CheckReport {
  return runChecks(input, opts, undefined);
}

/**
 * {@link checkInvoice} on what `JSON.stringify(input)` sends, as `invoices.create()` does: a required field inherited
 * from a prototype or a class getter is a FIELD_REQUIRED saying so.
 *
 * @example
 * ```ts
 * import { checkInvoiceAsSent } from 'invoicing-sdk';
 * const draft = Object.create(template); // fields inherited from template: JSON.stringify sends {}
 * checkInvoiceAsSent(draft).errors[0]?.code; // "FIELD_REQUIRED", hint: businessId is inherited …
 * ```
 */
export function checkInvoiceAsSent(input: unknown, opts?: CheckOptions): CheckReport {
  return runChecks(input, opts, sentInvoice);
}

// `asSent` is passed in rather than imported here, so that a bundle of checkInvoice alone leaves it out.
function runChecks(input: unknown, opts: CheckOptions | undefined, asSent: typeof sentInvoice | undefined): CheckReport {
  const o = resolveCheckOptions(opts);
  for (;;) {
    const issues = new IssueCollector(o.strict, o.ignore);
    let totals: InvoiceTotals | undefined;
    try {
      for (const p of o.problems) issues.add('OPTION_INVALID', p.path, { value: p.value, expected: p.expected, reason: p.thrown });
      totals = checkInvoiceInput(asSent !== undefined && isRecord(input) ? asSent(input, o.maxLines) : input, o, issues);
    } catch (err) {
      if (err instanceof CodeListThrew) {
        dropCodeList(o, err);
        continue;
      }
      // Plain data never gets here; a getter or proxy that throws does (before totals are set).
      issues.add('INPUT_UNREADABLE', [], { reason: describeThrown(err) });
    }
    return { ok: issues.errors.length === 0, errors: issues.errors, warnings: issues.warnings, totals };
  }
}
