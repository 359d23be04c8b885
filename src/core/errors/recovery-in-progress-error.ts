import type { Invoice } from '../../model/invoice.js';
import { InvoicingError } from './invoicing-error.js';
import { isErrorKind } from './names.js';

/**
 * What a {@link RecoveryInProgressError} is built from.
 *
 * @example
 * ```ts
 * import { RecoveryInProgressError } from 'invoicing-sdk';
 * new RecoveryInProgressError({ invoiceId: 'inv_1', nextAttemptAt: '2026-01-01T00:10:00.000Z', attemptsLeft: 2 });
 * ```
 */
export interface RecoveryInProgressErrorInit {
  invoiceId: string;
  /** When the next automatic attempt is due at the latest (service time), where the record tells. */
  nextAttemptAt?: string | undefined;
  /** Automatic attempts left, where the record carries a count. */
  attemptsLeft?: number | undefined;
  /** The invoice as read before refusing. */
  invoice?: Invoice | undefined;
  hint?: string | undefined;
}

/**
 * `invoices.submit()` refused locally, sending nothing: the invoice is in `ERROR` and the service's
 * automatic recovery (a job every 10 minutes, up to 3 attempts, within 24 hours) will still pick it
 * up. Another submit does not speed recovery up; follow it with `waitFor()`, or pass
 * `{ force: true }` to send anyway.
 *
 * @example
 * ```ts
 * import { isRecoveryInProgressError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.submit(id);
 * } catch (err) {
 *   if (isRecoveryInProgressError(err)) await client.invoices.waitFor(id);
 * }
 * ```
 */
export class RecoveryInProgressError extends InvoicingError {
  override readonly name = 'RecoveryInProgressError' as const;
  readonly invoiceId: string;
  readonly nextAttemptAt: string | undefined;
  readonly attemptsLeft: number | undefined;
  readonly invoice: Invoice | undefined;

  constructor(init: RecoveryInProgressErrorInit) {
    const due = init.nextAttemptAt === undefined ? 'within 10 minutes' : `by ${init.nextAttemptAt}`;
    const left = init.attemptsLeft === undefined ? '' : ` (${init.attemptsLeft} automatic attempt${init.attemptsLeft === 1 ? '' : 's'} left)`;
    super(
      `Invoice ${init.invoiceId} is in automatic recovery: the next automatic attempt is due ${due}${left}. Nothing was sent.`,
      {
        hint:
          init.hint ??
          'Another submit does not speed recovery up. Follow it with waitFor(); once recovery is over, submit() re-submits. ' +
            'Pass { force: true } to send the submit anyway.',
      },
    );
    this.invoiceId = init.invoiceId;
    this.nextAttemptAt = init.nextAttemptAt;
    this.attemptsLeft = init.attemptsLeft;
    this.invoice = init.invoice;
  }

  protected override details(): Record<string, unknown> {
    return { invoiceId: this.invoiceId, nextAttemptAt: this.nextAttemptAt, attemptsLeft: this.attemptsLeft };
  }
}

/**
 * True for a {@link RecoveryInProgressError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isRecoveryInProgressError } from 'invoicing-sdk';
 * isRecoveryInProgressError(new Error('x')); // false
 * ```
 */
export function isRecoveryInProgressError(value: unknown): value is RecoveryInProgressError {
  return isErrorKind(value, 'RecoveryInProgressError');
}
