// fileMany: createAndFile on a few workers sharing one rate gate; one result per input; keys derived, so re-runs file nothing twice.
import { canonicalJson } from '../core/safe-json.js';
import { FilingError, InvoicingError, isErrorKind } from '../core/errors.js';
import { deriveIdempotencyKey } from '../core/idempotency.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import { spelledStatus, type InvoiceStatusValue } from '../model/status.js';
import type { FilingInvoicesApi } from './api.js';
import { realClock } from './clock.js';
import type { FilingFailure } from './failure.js';
import { createAndFile, type CreateAndFileOptions, type FilingResult, type FilingStepEvent, type FilingStepRecord } from './file.js';
import { notify, pool, scrubbed, scrubbing } from './callbacks.js';
import { checkNumber, RateGate } from './retry.js';

/**
 * Options of `client.invoices.fileMany(inputs, opts)`: `createAndFile`'s plus the batch's own.
 * @example await client.invoices.fileMany(invoices, { concurrency: 8, externalRef: (input, i) => orders[i].number });
 */
export interface FileManyOptions extends Omit<CreateAndFileOptions, 'idempotencyKey' | 'externalRef' | 'revision' | 'onStep'> {
  /** How many invoices are filed at once (default 4). */ concurrency?: number | undefined;
  /** Your reference of each document, for its idempotency key (default: the invoice's content). */
  externalRef?: ((input: InvoiceCreateParams, index: number) => string) | undefined;
  /** The revision of each document (see `createAndFile`'s `revision`): one for all, or one per input. */
  revision?: number | ((input: InvoiceCreateParams, index: number) => number | undefined) | undefined;
  /** A graceful stop: no further input starts, those in flight finish (`signal` cuts them instead). */
  stopSignal?: AbortSignal | undefined;
  /** Called after each invoice finishes, successfully or not (not for inputs never started). */
  onProgress?: ((progress: FileManyProgress) => void) | undefined;
  /** Step-by-step progress of each invoice. */ onStep?: ((index: number, event: FilingStepEvent) => void) | undefined;
}

/**
 * The outcome for one input of `fileMany`: filed, stopped, or not started.
 * @example for (const r of results) if (!r.ok && !r.notStarted) console.error(r.index, r.error.message);
 */
export type FileManyResult = FileManySuccess | FileManyFailure | FileManyNotStarted;

/** An input of `fileMany` that was filed. @example const filed = results.filter((r): r is FileManySuccess => r.ok); */
export interface FileManySuccess extends Pick<FileManyOutcome, 'index'>, Pick<FilingResult, 'invoice' | 'steps'> {
  /** Always `true`. */ ok: true;
  /** Always `false`. */ notStarted: false;
  /** Never set: an invoice with a failure is a {@link FileManyFailure}. */ failure?: undefined;
  /** The idempotency key used to create it. */ idempotencyKey: string;
}

/** An input of `fileMany` that stopped; the others carried on. @example const stopped = results.filter((r): r is FileManyFailure => !r.ok && !r.notStarted); */
export interface FileManyFailure extends Pick<FileManyOutcome, 'index' | 'idempotencyKey' | 'failure'> {
  /** Always `false`. */ ok: false;
  /** Always `false`. */ notStarted: false;
  /** Why it stopped, as `createAndFile` throws it. */ error: FilingError;
  /** The invoice, when it was created before the stop (resume it with `resumeFiling`). */ invoiceId: string | undefined;
  /** The invoice as last read, when filing ran to its end but the invoice failed (see `failure`). */ invoice?: Invoice | undefined;
  /** The steps finished, when filing ran to its end. */ steps?: FilingStepRecord[] | undefined;
}

/**
 * An input of `fileMany` never started because the run was stopped first. Not a failure.
 * @example const left = results.filter((r): r is FileManyNotStarted => r.notStarted);
 */
export interface FileManyNotStarted extends Pick<FileManyOutcome, 'index'> {
  /** Always `false`: it was not filed. */ ok: false;
  /** Always `true`. */ notStarted: true;
  /** Never created. */ invoiceId: undefined;
  /** The key it will be filed under by a run with the same options. */ idempotencyKey: string;
}

/**
 * One finished input as `onProgress` reports it, without the invoice's record.
 * @example const line = (r: FileManyOutcome) => `${r.index} ${r.ok ? r.status : r.error?.message}`;
 */
export interface FileManyOutcome {
  /** Position of the input. */ index: number;
  /** As in the result. */ ok: boolean;
  /** The invoice, once created. */ invoiceId: string | undefined;
  /** The invoice's status as last read, when it was created. */ status: InvoiceStatusValue | undefined;
  /** The idempotency key (undefined when it could not be derived). */ idempotencyKey: string | undefined;
  /** Why the invoice was not accepted, when every step ran. */ failure?: FilingFailure | undefined;
  /** Why it stopped, when it did. */ error?: FilingError | undefined;
}

/**
 * Progress of a `fileMany` run, reported after each invoice.
 * @example const onProgress = (p: FileManyProgress) => process.stderr.write(`\r${p.done}/${p.total} (${p.failed} failed)`);
 */
export interface FileManyProgress {
  /** Inputs in the batch. */ total: number;
  /** Inputs finished. */ done: number;
  /** Inputs filed. */ succeeded: number;
  /** Inputs that stopped. */ failed: number;
  /** The input just finished. */ result: FileManyOutcome;
}

export function contentRef(input: InvoiceCreateParams): string {
  return `content:${canonicalJson(input)}`;
}

function failedError(invoice: Invoice, steps: readonly FilingStepRecord[], failure: FilingFailure): FilingError {
  const status = spelledStatus(invoice);
  const what =
    failure.kind === 'rejected' || failure.kind === 'cancelled'
      ? `was ${failure.kind}`
      : failure.kind === 'not-accepted'
        ? `ended in ${status}, not an acceptance`
        : `is in ${status} (${failure.kind})`;
  const message = `Invoice ${invoice.id} ${what}: ${failure.message}`;
  return new FilingError({ invoiceId: invoice.id, step: steps.at(-1)?.step ?? 'submit', cause: undefined, message, hint: failure.hint });
}

function outcome(result: FileManySuccess | FileManyFailure): FileManyOutcome {
  if (result.ok) return { index: result.index, ok: true, invoiceId: result.invoice.id, status: result.invoice.status, idempotencyKey: result.idempotencyKey };
  const { index, invoiceId, idempotencyKey, error, invoice, failure } = result;
  return { index, ok: false, invoiceId, status: invoice?.status, idempotencyKey, error, ...(failure === undefined ? {} : { failure }) };
}

export const fileMany = /* @__PURE__ */ scrubbing(fileAll);

async function fileAll(
  api: FilingInvoicesApi,
  inputs: readonly InvoiceCreateParams[],
  opts: FileManyOptions = {},
  // Inputs the resource could not serialize, by index, with why.
  internals: { invalid?: ReadonlyMap<number, unknown> | undefined } = {},
): Promise<FileManyResult[]> {
  const concurrency = checkNumber('fileMany: concurrency', opts.concurrency ?? 4, 1, true);
  const { concurrency: _c, externalRef, revision, stopSignal, onProgress, onStep, ...perInvoice } = opts;
  const gate = new RateGate(opts.clock ?? realClock);
  const results = new Array<FileManyResult>(inputs.length);
  const progress = { total: inputs.length, done: 0, succeeded: 0, failed: 0 };

  const finish = (result: FileManySuccess | FileManyFailure): void => {
    // Reported, not thrown: scrubbed like a thrown error.
    if (!result.ok) scrubbed(api, result.error);
    results[result.index] = result;
    progress.done += 1;
    progress[result.ok ? 'succeeded' : 'failed'] += 1;
    notify('onProgress', api._logger, onProgress, { ...progress, result: outcome(result) });
  };
  const refuse = (index: number, cause: unknown, key: string | undefined, hint?: string): void => {
    const error = new FilingError({ invoiceId: undefined, step: 'check', cause, message: cause instanceof Error ? cause.message : String(cause), hint });
    finish({ index, ok: false, notStarted: false, error, invoiceId: undefined, idempotencyKey: key });
  };

  // Keys up front: an input without a key, or sharing one with another, is reported and never sent.
  const firstWithKey = new Map<string, number>();
  const queue: { index: number; key: string }[] = [];
  inputs.forEach((input, index) => {
    if (internals.invalid?.has(index)) return refuse(index, internals.invalid.get(index), undefined);
    let key: string;
    try {
      const rev = typeof revision === 'function' ? revision(input, index) : revision;
      key = deriveIdempotencyKey(input.businessId, externalRef ? externalRef(input, index) : contentRef(input), rev);
    } catch (err) {
      return refuse(index, err, undefined, (err as { hint?: string }).hint ?? 'Nothing was sent for this input; the others carried on.');
    }
    const first = firstWithKey.get(key);
    if (first !== undefined) {
      const by = externalRef ? 'externalRef' : 'content';
      const same = new InvoicingError(`Input ${index} is the same document as input ${first} (same ${by}); it was not filed again.`);
      return refuse(index, same, key, externalRef ? 'Give each document its own externalRef.' : 'Pass externalRef to tell apart documents that are identical on purpose.');
    }
    firstWithKey.set(key, index);
    queue.push({ index, key });
  });

  await pool(queue.length, concurrency, async (next) => {
    const { index, key } = queue[next]!;
    if (opts.signal?.aborted || stopSignal?.aborted) {
      results[index] = { index, ok: false, notStarted: true, invoiceId: undefined, idempotencyKey: key };
      return;
    }
    try {
      const one = { ...perInvoice, idempotencyKey: key, onStep: onStep && ((event: FilingStepEvent) => onStep(index, event)) };
      const { invoice, steps, failure } = await createAndFile(api, inputs[index]!, one, { gate });
      if (failure === undefined) finish({ index, ok: true, notStarted: false, invoice, steps, idempotencyKey: key });
      else finish({ index, ok: false, notStarted: false, error: failedError(invoice, steps, failure), invoiceId: invoice.id, idempotencyKey: key, invoice, steps, failure });
    } catch (err) {
      const error = isErrorKind(err, 'FilingError') ? (err as FilingError) : new FilingError({ invoiceId: undefined, step: 'create', cause: err });
      finish({ index, ok: false, notStarted: false, error, invoiceId: error.invoiceId, idempotencyKey: key });
    }
  });
  return results;
}
