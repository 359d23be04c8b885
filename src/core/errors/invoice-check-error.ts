import type { CheckReport } from '../../check/index.js';
import { InvoicingError } from './invoicing-error.js';
import { isErrorKind } from './names.js';

// Enough to act on from a log line; the full list is in `report`.
const ISSUES_IN_MESSAGE = 3;

/**
 * `invoices.create()` ran the local checks and they failed: nothing was sent. `report` lists every
 * problem at once (the tax authority would stop at the first).
 *
 * @example
 * ```ts
 * import { isInvoiceCheckError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isInvoiceCheckError(err)) {
 *     for (const issue of err.report.errors) console.error(issue.path.join('.'), issue.message);
 *   }
 * }
 * ```
 */
export class InvoiceCheckError extends InvoicingError {
  /** Always `InvoiceCheckError`: a stable name, also for the name-based guards. */
  override readonly name = 'InvoiceCheckError' as const;
  /** The full result of `checkInvoice()`: every error and warning, and the totals. */
  readonly report: CheckReport;

  constructor(report: CheckReport) {
    super(describe(report), {
      hint:
        'Fix the issues listed in err.report.errors and call create() again. Pass ' +
        '{ skipChecks: true } only if you are sure the service accepts the invoice as it is.',
    });
    this.report = report;
  }

  /** The number of errors and warnings (the report itself is in `report`). */
  protected override details(): Record<string, unknown> {
    return {
      errors: this.report.errors.map((issue) => ({ code: issue.code, path: issue.path.join('.') })),
      warnings: this.report.warnings.length,
    };
  }
}

function describe(report: CheckReport): string {
  const { errors } = report;
  const shown = errors
    .slice(0, ISSUES_IN_MESSAGE)
    // Each message already names its field and value (`lines[2].hsnCode "6202" …`); add the code.
    .map((issue) => `${issue.message} [${issue.code}]`);
  const more = errors.length > ISSUES_IN_MESSAGE ? `; and ${errors.length - ISSUES_IN_MESSAGE} more` : '';
  const count = `${errors.length} error${errors.length === 1 ? '' : 's'}`;
  return `Invoice failed the local checks (${count}); nothing was sent. ${shown.join('; ')}${more}`;
}

/**
 * True for an {@link InvoiceCheckError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isInvoiceCheckError } from 'invoicing-sdk';
 * isInvoiceCheckError(new Error('x')); // false
 * ```
 */
export function isInvoiceCheckError(value: unknown): value is InvoiceCheckError {
  return isErrorKind(value, 'InvoiceCheckError');
}
