/**
 * `fileMany`: filing a batch (thousands a day) with `createAndFile` on a few workers.
 *
 * - Bounded concurrency: at most `concurrency` invoices in flight.
 * - One result per input, in input order: a failure is recorded and the others carry on.
 * - Coordinated backoff: a 429 seen by any worker pauses every worker for its `Retry-After` (one
 *   shared gate), so a rate limit is met by the whole batch slowing down, not by each worker
 *   hammering on its own schedule.
 * - Deterministic keys: each invoice's idempotency key is derived from `externalRef(input, index)`
 *   (your document number), or, without it, from the invoice's content. A re-run after a crash
 *   therefore finds the invoices already created and only finishes what was left: nothing is filed
 *   twice.
 */
import { canonicalJson } from '../core/canonical-json.js';
import { FilingError, InvoicingError } from '../core/errors.js';
import { deriveIdempotencyKey } from '../core/idempotency.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import type { FilingInvoicesApi } from './api.js';
import { abortReason, realClock } from './clock.js';
import type { FilingFailure } from './failure.js';
import { createAndFile, type CreateAndFileOptions, type FilingStepEvent, type FilingStepRecord } from './file.js';
import { notify } from './callbacks.js';
import { scrubbed } from './redact.js';
import { RateGate } from './retry.js';

/**
 * Options of `client.invoices.fileMany(inputs, opts)`: those of `createAndFile` (applied to every
 * invoice) plus the batch's own.
 *
 * @example
 * ```ts
 * const results = await client.invoices.fileMany(invoices, {
 *   concurrency: 8,
 *   externalRef: (input, i) => orders[i].number,
 *   onProgress: (p) => console.log(`${p.done}/${p.total}`),
 * });
 * ```
 */
export interface FileManyOptions extends Omit<CreateAndFileOptions, 'idempotencyKey' | 'externalRef' | 'onStep'> {
  /** How many invoices are filed at once (default 4). */
  concurrency?: number | undefined;
  /**
   * Your reference of each document (order or invoice number); its idempotency key is derived from
   * it. Default: derived from the invoice's content, so identical inputs count as one document.
   */
  externalRef?: ((input: InvoiceCreateParams, index: number) => string) | undefined;
  /** Called after each invoice finishes, successfully or not. */
  onProgress?: ((progress: FileManyProgress) => void) | undefined;
  /** Step-by-step progress of each invoice. */
  onStep?: ((index: number, event: FilingStepEvent) => void) | undefined;
}

/**
 * The outcome for one input of `fileMany`, at the input's `index`.
 *
 * @example
 * ```ts
 * for (const r of results) {
 *   if (r.ok) console.log(r.index, r.invoice.id, r.invoice.rawStatus);
 *   else console.error(r.index, r.invoiceId ?? '(not created)', r.error.message);
 * }
 * ```
 */
export type FileManyResult = FileManySuccess | FileManyFailure;

/**
 * An input of `fileMany` that was filed.
 *
 * @example
 * ```ts
 * const filed = results.filter((r): r is FileManySuccess => r.ok);
 * ```
 */
export interface FileManySuccess {
  /** Position of the input. */
  index: number;
  /** Always `true`. */
  ok: true;
  /** The invoice as last read. */
  invoice: Invoice;
  /** The steps finished. */
  steps: FilingStepRecord[];
  /** Never set: an invoice with a failure (rejected, in `ERROR`, …) is a {@link FileManyFailure}. */
  failure?: undefined;
  /** The idempotency key used to create it. */
  idempotencyKey: string;
}

/**
 * An input of `fileMany` that stopped; the others carried on.
 *
 * @example
 * ```ts
 * const stopped = results.filter((r): r is FileManyFailure => !r.ok);
 * ```
 */
export interface FileManyFailure {
  /** Position of the input. */
  index: number;
  /** Always `false`. */
  ok: false;
  /** Why it stopped: `InvoiceCheckError`, `TotalsMismatchError`, `FilingError`, … */
  error: Error;
  /** The invoice, when it was created before the stop (resume it with `resumeFiling`). */
  invoiceId: string | undefined;
  /** The idempotency key (undefined when it could not be derived). */
  idempotencyKey: string | undefined;
  /** The invoice as last read, when filing ran to its end but the invoice failed (see `failure`). */
  invoice?: Invoice | undefined;
  /** The steps finished, when filing ran to its end. */
  steps?: FilingStepRecord[] | undefined;
  /** Why the invoice failed although every step ran: rejected, cancelled, in `ERROR` (`failure.kind`, the service's reason, a hint). */
  failure?: FilingFailure | undefined;
}

/**
 * Progress of a `fileMany` run, reported after each invoice.
 *
 * @example
 * ```ts
 * const onProgress = (p: FileManyProgress) => process.stderr.write(`\r${p.done}/${p.total} (${p.failed} failed)`);
 * ```
 */
export interface FileManyProgress {
  /** Inputs in the batch. */
  total: number;
  /** Inputs finished. */
  done: number;
  /** Inputs filed. */
  succeeded: number;
  /** Inputs that stopped. */
  failed: number;
  /** The result just finished. */
  result: FileManyResult;
}

/** The default `externalRef`: the invoice's content, with object keys sorted so order does not matter. */
export function contentRef(input: InvoiceCreateParams): string {
  return `content:${canonicalJson(input)}`;
}

/** The error of a result whose invoice failed after its steps ran: the failure in words. */
function failedError(invoice: Invoice, steps: readonly FilingStepRecord[], failure: FilingFailure): FilingError {
  const status = invoice.rawStatus ?? invoice.status;
  const what =
    failure.kind === 'rejected' || failure.kind === 'cancelled'
      ? `was ${failure.kind}`
      : failure.kind === 'not-accepted'
        ? `ended in ${status}, not an acceptance`
        : `is in ${status} (${failure.kind})`;
  return new FilingError({
    invoiceId: invoice.id,
    step: steps.at(-1)?.step ?? 'submit',
    cause: undefined,
    message: `Invoice ${invoice.id} ${what}: ${failure.message}`,
    hint: failure.hint,
  });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new InvoicingError(String(err));
}

/**
 * Files every input with `createAndFile`, `concurrency` at a time, and resolves with one result per
 * input in input order (see the module comment). Never rejects for a single invoice's failure; an
 * abort ends the run early, and the inputs not finished get a failure result carrying the abort.
 *
 * @example
 * ```ts
 * const results = await fileMany(client.invoices, invoices, { externalRef: (inv, i) => refs[i] });
 * ```
 */
export async function fileMany(
  api: FilingInvoicesApi,
  inputs: readonly InvoiceCreateParams[],
  opts: FileManyOptions = {},
): Promise<FileManyResult[]> {
  try {
    return await fileAll(api, inputs, opts);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

async function fileAll(api: FilingInvoicesApi, inputs: readonly InvoiceCreateParams[], opts: FileManyOptions): Promise<FileManyResult[]> {
  if (!Array.isArray(inputs)) throw new InvoicingError('fileMany: inputs must be an array of invoices.');
  const concurrency = opts.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvoicingError(`fileMany: concurrency must be an integer >= 1, got ${String(concurrency)}`);
  }
  const { concurrency: _c, externalRef, onProgress, onStep, ...perInvoice } = opts;
  const clock = opts.clock ?? realClock;
  const gate = new RateGate(clock);
  const results = new Array<FileManyResult>(inputs.length);
  const progress = { total: inputs.length, done: 0, succeeded: 0, failed: 0 };

  const finish = (result: FileManyResult): void => {
    // A failure is reported, not thrown: scrubbed here like a thrown error.
    if (!result.ok) scrubbed(api, result.error);
    results[result.index] = result;
    progress.done += 1;
    if (result.ok) progress.succeeded += 1;
    else progress.failed += 1;
    if (onProgress !== undefined) notify('onProgress', api._logger, () => onProgress({ ...progress, result }));
  };

  // Keys up front: a reference that cannot be derived, or two inputs sharing one key (the same
  // document twice in a batch), is reported for that input and never sent.
  const keys = new Array<string | undefined>(inputs.length);
  const firstWithKey = new Map<string, number>();
  const queue: number[] = [];
  inputs.forEach((input, index) => {
    let key: string;
    try {
      key = deriveIdempotencyKey(input.businessId, externalRef ? externalRef(input, index) : contentRef(input));
    } catch (err) {
      finish({ index, ok: false, error: asError(err), invoiceId: undefined, idempotencyKey: undefined });
      return;
    }
    keys[index] = key;
    const first = firstWithKey.get(key);
    if (first !== undefined) {
      const error = new InvoicingError(
        `Input ${index} is the same document as input ${first} (same ${externalRef ? 'externalRef' : 'content'}); it was not filed again.`,
        { hint: externalRef ? 'Give each document its own externalRef.' : 'Pass externalRef to tell apart documents that are identical on purpose.' },
      );
      finish({ index, ok: false, error, invoiceId: undefined, idempotencyKey: key });
      return;
    }
    firstWithKey.set(key, index);
    queue.push(index);
  });

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const index = queue[next++] as number;
      const input = inputs[index] as InvoiceCreateParams;
      const key = keys[index] as string;
      if (opts.signal?.aborted) {
        finish({ index, ok: false, error: abortReason(opts.signal), invoiceId: undefined, idempotencyKey: key });
        continue;
      }
      try {
        const filed = await createAndFile(
          api,
          input,
          { ...perInvoice, idempotencyKey: key, onStep: onStep && ((event) => onStep(index, event)) },
          { gate, clock },
        );
        const { invoice, steps, failure } = filed;
        if (failure === undefined) finish({ index, ok: true, invoice, steps, idempotencyKey: key });
        else finish({ index, ok: false, error: failedError(invoice, steps, failure), invoiceId: invoice.id, idempotencyKey: key, invoice, steps, failure });
      } catch (err) {
        const invoiceId = (err as { invoiceId?: unknown } | null)?.invoiceId;
        finish({ index, ok: false, error: asError(err), invoiceId: typeof invoiceId === 'string' ? invoiceId : undefined, idempotencyKey: key });
      }
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(queue.length, 1)) }, worker));
  return results;
}
