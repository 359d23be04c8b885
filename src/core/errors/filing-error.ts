import { InvoicingError } from './invoicing-error.js';
import { isErrorKind } from './names.js';

/**
 * Where a filing stopped: the local checks, create, the totals reconciliation, `read` (resumeFiling
 * could not read the invoice it was asked to resume, so nothing was sent), one of the three
 * transitions, or the wait for the tax authority's answer.
 *
 * @example
 * ```ts
 * import type { FilingStep } from 'invoicing-sdk';
 * const step: FilingStep = 'sign';
 * ```
 */
export type FilingStep = 'check' | 'create' | 'reconcile' | 'read' | 'validate' | 'sign' | 'submit' | 'wait';

/**
 * What a {@link FilingError} is built from.
 *
 * @example
 * ```ts
 * import { FilingError } from 'invoicing-sdk';
 * new FilingError({ invoiceId: 'inv_1', step: 'sign', cause: new Error('socket hang up') });
 * ```
 */
export interface FilingErrorInit {
  /** The invoice, once created; `undefined` when filing stopped before create succeeded. */
  invoiceId: string | undefined;
  /** Where it stopped. */
  step: FilingStep;
  /** What stopped it. */
  cause: unknown;
  /** Replaces the default message. */
  message?: string | undefined;
  /** Replaces the default hint. */
  hint?: string | undefined;
}

/**
 * `createAndFile()` or `resumeFiling()` stopped. Names the invoice and the step, keeps the cause,
 * and the `hint` says how to resume: `client.invoices.resumeFiling(invoiceId)` reads the invoice
 * and performs only the steps left, never one twice.
 *
 * @example
 * ```ts
 * import { isFilingError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.createAndFile(input);
 * } catch (err) {
 *   if (isFilingError(err) && err.invoiceId) await client.invoices.resumeFiling(err.invoiceId);
 * }
 * ```
 */
export class FilingError extends InvoicingError {
  /** Always `FilingError`: a stable name, also for the name-based guards. */
  override readonly name = 'FilingError' as const;
  /** The invoice, once created; `undefined` when filing stopped before create succeeded. */
  readonly invoiceId: string | undefined;
  /** Where it stopped. */
  readonly step: FilingStep;

  constructor(init: FilingErrorInit) {
    const causeMessage =
      init.cause instanceof Error ? init.cause.message : init.cause === undefined ? '' : String(init.cause);
    const subject = init.invoiceId === undefined ? 'Filing' : `Filing of invoice ${init.invoiceId}`;
    super(init.message ?? `${subject} stopped at ${init.step}${causeMessage ? `: ${causeMessage}` : '.'}`, {
      cause: init.cause,
      hint: init.hint ?? resumeHint(init.invoiceId),
    });
    this.invoiceId = init.invoiceId;
    this.step = init.step;
  }

  /** The invoice and the step. */
  protected override details(): Record<string, unknown> {
    return { invoiceId: this.invoiceId, step: this.step };
  }
}

function resumeHint(invoiceId: string | undefined): string {
  if (invoiceId === undefined) {
    return (
      'No invoice was created (or its id is not known). Call createAndFile() again with the same ' +
      'idempotencyKey: the service returns the invoice already created for that key instead of a second one.'
    );
  }
  return (
    `Resume with client.invoices.resumeFiling('${invoiceId}'): it reads the invoice and performs ` +
    'only the steps left, so nothing is filed twice.'
  );
}

/**
 * True for a {@link FilingError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isFilingError } from 'invoicing-sdk';
 * isFilingError(new Error('x')); // false
 * ```
 */
export function isFilingError(value: unknown): value is FilingError {
  return isErrorKind(value, 'FilingError');
}
