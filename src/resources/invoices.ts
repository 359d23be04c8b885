import { checkInvoiceAsSent } from '../check/index.js';
import type { ResourceContext } from '../core/resource.js';
import { createAndFile, resumeFiling, type CreateAndFileOptions, type FilingResult, type ResumeFilingOptions } from '../filing/file.js';
import { fileMany, type FileManyOptions, type FileManyResult } from '../filing/file-many.js';
import { waitFor, type WaitOptions, type WaitResult } from '../filing/wait.js';
import { watchInvoices, type InvoiceWatch, type WatchOptions } from '../filing/watch.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import { checkedId, LiteInvoices } from './lite-invoices.js';

/**
 * `client.invoices`: create drafts (always checked locally first with `checkInvoice()`), read and
 * list them, file them with validate, sign and submit, and the filing workflow on top: `waitFor`,
 * `createAndFile`, `resumeFiling`, `fileMany`.
 *
 * @example
 * ```ts
 * const draft = await client.invoices.create(input);
 * await client.invoices.validate(draft.id);
 * await client.invoices.sign(draft.id);
 * const submitted = await client.invoices.submit(draft.id);
 * ```
 */
export class Invoices extends LiteInvoices {
  /** @internal */
  constructor(ctx: ResourceContext) {
    // The local checks are part of this client's contract: `create` runs `checkInvoice` first, on
    // what it sends (JSON.stringify of the input: own enumerable fields, toJSON).
    super({ ...ctx, check: checkInvoiceAsSent });
  }

  /**
   * Follows an invoice after submission by reading it until `opts.until` holds (default: the tax
   * authority answered, or the invoice is in `ERROR` that automatic recovery will not pick up).
   * While recovery is in progress it waits for the service's 10-minute retries and never submits.
   * Resolves with `{ invoice, failure }`; `failure` is present for an invoice in `ERROR` and says
   * what failed and whether a deliberate re-submit is needed. See docs/filing.md.
   *
   * @example
   * ```ts
   * const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 120_000 });
   * if (failure?.resubmitRequired) console.warn(failure.hint);
   * ```
   */
  waitFor(id: string, opts: WaitOptions = {}): Promise<WaitResult> {
    return waitFor(this, checkedId(id), opts);
  }

  /**
   * Follows many invoices at once until each settles: an async iterable of status changes (and
   * `opts.onChange`). Each tick reads them one GET each or through listing pages of 100, whichever
   * costs fewer requests, keeps `waitFor`'s recovery rules per invoice, and pauses every read on a 429.
   * See docs/scale-out.md.
   *
   * @example
   * ```ts
   * const ids = ['inv_1001', 'inv_1002']; // the invoices you submitted
   * for await (const change of client.invoices.watch(ids, { signal: AbortSignal.timeout(3_600_000) })) {
   *   if (change.kind === 'status' && change.final) console.log(change.id, change.invoice.rawStatus);
   * }
   * ```
   */
  watch(ids: Iterable<string>, opts: WatchOptions = {}): InvoiceWatch {
    return watchInvoices(this, ids, opts);
  }

  /**
   * Files an invoice in one call: local checks → create (idempotent) → reconcile the service's
   * totals with the lines → validate → sign → submit → wait (with `opts.wait`). Pass `externalRef`
   * (your document number) so that a re-run, or another process, never files it twice. Throws
   * `InvoiceCheckError` (nothing sent), `TotalsMismatchError` (nothing filed) or `FilingError`
   * (names the invoice and step; resume with `resumeFiling`).
   *
   * @example
   * ```ts
   * const { invoice, steps } = await client.invoices.createAndFile(input, {
   *   externalRef: 'ORDER-2026-0042',
   *   wait: { timeout: 120_000 },
   * });
   * ```
   */
  createAndFile(input: InvoiceCreateParams, opts: CreateAndFileOptions = {}): Promise<FilingResult> {
    return createAndFile(this, input, this._withClientRetries(opts));
  }

  /**
   * Reads the invoice and performs only what is left: the remaining transitions, or for an invoice
   * in `ERROR` one deliberate re-submit once automatic recovery is over (never while it is in
   * progress); then waits with `opts.wait`.
   *
   * @example
   * ```ts
   * const { invoice, steps } = await client.invoices.resumeFiling('inv_123', { wait: true });
   * ```
   */
  resumeFiling(id: string, opts: ResumeFilingOptions = {}): Promise<FilingResult> {
    return resumeFiling(this, checkedId(id), this._withClientRetries(opts));
  }

  /**
   * Files many invoices with `createAndFile`, `opts.concurrency` at a time: one result per input in
   * input order (a failure never stops the others), a 429 pauses every worker for its
   * `Retry-After`, and keys derived from `opts.externalRef` (or the content) so that a re-run after
   * a crash files nothing twice.
   *
   * @example
   * ```ts
   * const results = await client.invoices.fileMany(invoices, {
   *   concurrency: 8,
   *   externalRef: (input, i) => orders[i].number,
   * });
   * const stopped = results.filter((r) => !r.ok);
   * ```
   */
  fileMany(inputs: readonly InvoiceCreateParams[], opts: FileManyOptions = {}): Promise<FileManyResult[]> {
    return fileMany(this, inputs, this._withClientRetries(opts));
  }
}
