import type { Invoice } from '../../model/invoice.js';
import { InvoicingError } from './invoicing-error.js';
import { isErrorKind } from './names.js';

/**
 * What a {@link WaitTimeoutError} is built from.
 *
 * @example
 * ```ts
 * import { WaitTimeoutError } from 'invoicing-sdk';
 * new WaitTimeoutError({ invoiceId: 'inv_1', lastInvoice: undefined, timeoutMs: 60_000 });
 * ```
 */
export interface WaitTimeoutErrorInit {
  /** The invoice waited for. */
  invoiceId: string;
  /** The last read of it, if any read succeeded. */
  lastInvoice: Invoice | undefined;
  /** How long `waitFor` waited. */
  timeoutMs: number;
}

/**
 * `waitFor()` ran out of time before the invoice reached the awaited status. Nothing was changed;
 * `lastInvoice` is the last state seen.
 *
 * @example
 * ```ts
 * import { isWaitTimeoutError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.waitFor(id, { timeout: 60_000 });
 * } catch (err) {
 *   if (isWaitTimeoutError(err)) console.log('still', err.lastInvoice?.status);
 * }
 * ```
 */
export class WaitTimeoutError extends InvoicingError {
  /** Always `WaitTimeoutError`: a stable name, also for the name-based guards. */
  override readonly name = 'WaitTimeoutError' as const;
  /** The invoice waited for. */
  readonly invoiceId: string;
  /** The last read of it, if any read succeeded. */
  readonly lastInvoice: Invoice | undefined;
  /** How long `waitFor` waited. */
  readonly timeoutMs: number;

  constructor(init: WaitTimeoutErrorInit) {
    const last = init.lastInvoice === undefined ? 'never read' : `still ${init.lastInvoice.status}`;
    super(`Invoice ${init.invoiceId} is ${last} after waiting ${init.timeoutMs} ms.`, {
      hint:
        'Nothing was changed. Call waitFor() again with a longer timeout, or read the invoice later ' +
        'with retrieve(): the tax authority answers asynchronously.',
    });
    this.invoiceId = init.invoiceId;
    this.lastInvoice = init.lastInvoice;
    this.timeoutMs = init.timeoutMs;
  }

  /** The invoice, its last status and the time waited. */
  protected override details(): Record<string, unknown> {
    return {
      invoiceId: this.invoiceId,
      lastStatus: this.lastInvoice?.status,
      lastRawStatus: this.lastInvoice?.rawStatus,
      timeoutMs: this.timeoutMs,
    };
  }
}

/**
 * True for a {@link WaitTimeoutError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isWaitTimeoutError } from 'invoicing-sdk';
 * isWaitTimeoutError(new Error('x')); // false
 * ```
 */
export function isWaitTimeoutError(value: unknown): value is WaitTimeoutError {
  return isErrorKind(value, 'WaitTimeoutError');
}
