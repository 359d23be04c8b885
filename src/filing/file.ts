// createAndFile / resumeFiling: check → create → reconcile → validate → sign → submit → wait, from where the invoice stands.
import { FilingError, type FilingStep, InvoiceCheckError, InvoicingError, isErrorKind, type TotalsFigures, TotalsMismatchError } from '../core/errors.js';
import { deriveIdempotencyKey, mintIdempotencyKey } from '../core/idempotency.js';
import { checkInvoice, type CheckOptions } from '../check/index.js';
import { compareTotals, computeTotals, type ComputeTotalsOptions, type InvoiceTotals } from '../model/money.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import type { FilingInvoicesApi } from './api.js';
import { abortReason } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { mayPassLater } from '../core/retry.js';
import { retryState, withRetries, type FilingInternals, type FilingRetryOptions } from './retry.js';
import { hasPassed, InvoiceStatus, nextTransition, recoveryState, spelledStatus, statusRank, UNKNOWN_STATUS } from '../model/status.js';
import type { FilingTransition, InvoiceStatusValue } from '../model/status.js';
import { notify, scrubbing } from './callbacks.js';
import { performTransition, type TransitionResult } from './transition.js';
import { waitFor, type WaitOptions, type WaitResult } from './wait.js';

/** A progress report from `createAndFile`/`resumeFiling`. @example await client.invoices.createAndFile(input, { onStep: (e) => console.log(e.step, e.state) }); */
export interface FilingStepEvent extends Pick<FilingStepRecord, 'step' | 'detail'> {
  /** `started`, `done`, or `skipped` (already done, nothing sent). */ state: 'started' | 'done' | 'skipped';
  /** The invoice, once created. */ invoiceId: string | undefined;
  /** The invoice after the step (`done`/`skipped` of create and later steps). */ invoice?: Invoice | undefined;
}

/** One finished step in a {@link FilingResult}. @example const { steps } = await client.invoices.createAndFile(input); */
export interface FilingStepRecord {
  /** The step. */ step: FilingStep;
  /** `done` by this call, or `skipped` because it was already done. */ outcome: 'done' | 'skipped';
  /** The invoice's status after the step, where one was read. */ status?: InvoiceStatusValue | undefined;
  /** How many requests the step sent, where it sent any. */ sends?: number | undefined;
  /** Why it was skipped, or how it was established (e.g. confirmed by reading back). */ detail?: string | undefined;
}

/** What `createAndFile` and `resumeFiling` resolve with. @example const { invoice, failure } = await client.invoices.createAndFile(input, { wait: true }); */
export interface FilingResult extends WaitResult {
  /** The steps finished, in order. */ steps: FilingStepRecord[];
}

/** Options shared by `createAndFile` and `resumeFiling`. @example await client.invoices.resumeFiling(id, { wait: { timeout: 120_000 }, onStep: console.log }); */
export interface FilingOptions extends FilingRetryOptions {
  /** Per-request timeout in ms (the client's `timeout` by default). */ timeout?: number | undefined;
  /** Wait for the tax authority's answer after submitting: `true` or `waitFor`'s options. */ wait?: boolean | WaitOptions | undefined;
  /** Progress: called when each step starts and ends. */ onStep?: ((event: FilingStepEvent) => void) | undefined;
}

/** Options of `client.invoices.createAndFile(input, opts)`. @example await client.invoices.createAndFile(input, { externalRef: 'order-1042', wait: true }); */
export interface CreateAndFileOptions extends FilingOptions {
  /** The `idempotency-key` of the create. Prefer `externalRef`. */ idempotencyKey?: string | undefined;
  /** Your reference of the document; the idempotency key is derived from it, so a re-run finds the same invoice. */
  externalRef?: string | undefined;
  /** Version of the `externalRef` document (default 0); a corrected document gets the next one and a key of its own. */
  revision?: number | undefined;
  /** Skip the local checks (not recommended; the totals are still reconciled). */ skipChecks?: boolean | undefined;
  /** Options of the local checks (`checkInvoice`). */ checkOptions?: CheckOptions | undefined;
  /** How the service rounds, for the totals reconciliation (default: either per line or per invoice). */
  totals?: ComputeTotalsOptions | undefined;
  /** Stop when the service's record carries no readable totals (default: skip the reconcile with a warning). */
  requireTotals?: boolean | undefined;
}

/** Options of `client.invoices.resumeFiling(id, opts)`. @example const { invoice, steps } = await client.invoices.resumeFiling(id, { wait: true }); */
export interface ResumeFilingOptions extends FilingOptions {
  /** While recovery of an `ERROR` invoice is in progress: `'return'` at once, or `'wait'` and re-submit once if it fails. */
  duringRecovery?: 'return' | 'wait' | undefined;
}

class FilingRun {
  readonly steps: FilingStepRecord[] = [];
  invoiceId: string | undefined;
  /** `opts.wait` as `waitFor`'s options, or `undefined` when the run does not wait. */ readonly waitOpts: WaitOptions | undefined;
  waited: FilingFailure | undefined;

  constructor(
    readonly api: FilingInvoicesApi,
    readonly opts: FilingOptions,
    readonly internals: FilingInternals,
  ) {
    this.waitOpts = opts.wait === true ? {} : opts.wait || undefined;
  }

  emit(event: Omit<FilingStepEvent, 'invoiceId'>): void {
    notify('onStep', this.api._logger, this.opts.onStep, { invoiceId: this.invoiceId, ...event });
  }

  record(entry: FilingStepRecord, invoice?: Invoice): void {
    this.steps.push(entry);
    this.emit({ step: entry.step, state: entry.outcome, invoice, detail: entry.detail });
  }

  stop(step: FilingStep, cause: unknown, extra: { hint?: string | undefined; message?: string }): never {
    if (isErrorKind(cause, 'FilingError')) throw cause;
    throw new FilingError({ invoiceId: this.invoiceId, step, cause, ...extra });
  }

  async transition(step: FilingTransition, invoice: Invoice, detail?: string): Promise<Invoice> {
    this.emit({ step, state: 'started', invoice });
    try {
      // Not the create's idempotency key.
      const { signal, timeout, maxRetries, maxRateLimitRetries, clock } = this.opts;
      const opts = { signal, timeout, maxRetries, maxRateLimitRetries, clock };
      const result = await performTransition(this.api, invoice.id, step, opts, { gate: this.internals.gate, baseline: invoice });
      this.record({ step, detail, ...OUTCOME[result.outcome], status: result.invoice.status, sends: result.sends }, result.invoice);
      return result.invoice;
    } catch (err) {
      const next = `resume with client.invoices.resumeFiling('${this.invoiceId}'): it reads the invoice and performs only the steps left.`;
      return this.stop(step, err, { hint: afterRefusal(err, next) });
    }
  }

  async advance(invoice: Invoice): Promise<Invoice> {
    if (invoice.status === UNKNOWN_STATUS && invoice.rawStatus === undefined) {
      const step = this.steps.some((s) => s.step === 'create') ? 'validate' : 'read';
      this.stop(step, new InvoicingError(`Invoice ${invoice.id} has no status the SDK can read.`), {
        hint: "No status field was found: add the service's name for it to the client's fieldMap (docs/filing.md). Nothing more was sent.",
      });
    }
    // Raw spelling: an unrecognised status is still one past SUBMITTED.
    const spelled = spelledStatus(invoice);
    for (const step of ['validate', 'sign', 'submit'] as const) {
      if (hasPassed(spelled, step)) {
        this.record({ step, outcome: 'skipped', status: invoice.status, detail: `already ${spelled}` }, invoice);
      }
    }
    let current = invoice;
    for (let step = nextTransition(current.status); step !== undefined; step = nextTransition(current.status)) {
      current = await this.transition(step, current);
    }
    return current;
  }

  async wait(invoice: Invoice, waitOpts: WaitOptions): Promise<Invoice> {
    this.emit({ step: 'wait', state: 'started', invoice });
    try {
      const opts = { ...waitOpts, signal: waitOpts.signal ?? this.opts.signal, clock: waitOpts.clock ?? this.opts.clock };
      const { invoice: last, failure } = await waitFor(this.api, invoice.id, opts, { gate: this.internals.gate });
      this.waited = failure;
      this.record({ step: 'wait', outcome: 'done', status: last.status }, last);
      return last;
    } catch (err) {
      const follow = `follow it with client.invoices.waitFor('${invoice.id}', { timeout }) or read it later with retrieve().`;
      return this.stop('wait', err, {
        hint: `Invoice ${invoice.id} was submitted; nothing more needs sending for now. ${afterRefusal(err, follow) ?? `To see the answer, ${follow}`}`,
      });
    }
  }

  result(invoice: Invoice): FilingResult {
    const failure = this.waited?.recovery === 'over' && invoice.status === InvoiceStatus.ERROR ? this.waited : undefined;
    return { invoice, steps: this.steps, failure: failure ?? describeFailure(invoice, undefined, { finalStatuses: this.api._finalStatuses }) };
  }
}

const OUTCOME: Record<TransitionResult['outcome'], Pick<FilingStepRecord, 'outcome' | 'detail'>> = {
  sent: { outcome: 'done' },
  confirmed: { outcome: 'done', detail: 'the answer was lost; reading the invoice back showed the step done' },
  'already-done': { outcome: 'skipped', detail: 'the invoice had already passed this step' },
};

function needsWait(invoice: Invoice): boolean {
  if (invoice.status === InvoiceStatus.SUBMITTED) return true;
  return invoice.status === InvoiceStatus.ERROR && recoveryState(invoice, serverTime(invoice.observedAt)) === 'in-progress';
}

const REFUSED = 'The service refused the request and would refuse it again: fix that first.';

/** Hint for a refusal that calling again would meet again; `undefined` when calling again may pass. */
function afterRefusal(cause: unknown, then: string, refused = REFUSED): string | undefined {
  if (!isErrorKind(cause, 'APIError') || mayPassLater(cause) || isErrorKind(cause, 'InvalidTransitionError')) return undefined;
  const own = (cause as InvoicingError).hint;
  return `${refused}${own === undefined ? '' : ` ${own}`}${then === '' ? '' : ` Then ${then}`}`;
}

function figures(t: Pick<Invoice, 'subtotal' | 'taxTotal' | 'total'>): TotalsFigures {
  return { subtotal: t.subtotal, taxTotal: t.taxTotal, total: t.total };
}

function filingKey(input: InvoiceCreateParams, opts: Pick<CreateAndFileOptions, 'idempotencyKey' | 'externalRef' | 'revision'>): string {
  if (opts.revision !== undefined && (opts.externalRef === undefined || opts.idempotencyKey !== undefined)) {
    throw new InvoicingError('createAndFile: revision numbers a version of the document externalRef names; pass it with externalRef, not idempotencyKey.');
  }
  if (opts.idempotencyKey !== undefined) return opts.idempotencyKey;
  if (opts.externalRef !== undefined) return deriveIdempotencyKey(input.businessId, opts.externalRef, opts.revision);
  return mintIdempotencyKey();
}

export const createAndFile = /* @__PURE__ */ scrubbing(fileNew);

async function fileNew(
  api: FilingInvoicesApi,
  input: InvoiceCreateParams,
  opts: CreateAndFileOptions = {},
  internals: FilingInternals = {},
): Promise<FilingResult> {
  const key = filingKey(input, opts);
  const run = new FilingRun(api, opts, internals);
  const expected = expectedTotals(run, input, opts);

  run.emit({ step: 'create', state: 'started' });
  let invoice: Invoice;
  try {
    invoice = await withRetries(retryState(opts, internals), () =>
      api.create(input, { idempotencyKey: key, skipChecks: true, maxRetries: 0, signal: opts.signal, timeout: opts.timeout }),
    );
  } catch (err) {
    const refused = 'The service refused the invoice; nothing was created, and the same request would be refused again.';
    const ref = opts.revision ? `'${opts.externalRef}' and revision ${opts.revision}` : `'${opts.externalRef}'`;
    return run.stop('create', err, {
      hint:
        afterRefusal(err, '', refused) ??
        `No invoice id is known. Call createAndFile() again with idempotencyKey '${key}'` +
          (opts.externalRef === undefined ? '' : ` (or the same externalRef ${ref})`) +
          ': the service returns the invoice already created for that key instead of a second one.',
    });
  }
  run.invoiceId = invoice.id;
  const spelled = spelledStatus(invoice);
  const detail = statusRank(spelled) > 0 ? `the key's invoice already exists and is ${spelled}` : undefined;
  run.record({ step: 'create', outcome: 'done', status: invoice.status, detail }, invoice);

  reconcile(run, invoice, expected, opts);

  let current = await run.advance(invoice);
  if (run.waitOpts !== undefined && needsWait(current)) current = await run.wait(current, run.waitOpts);
  return run.result(current);
}

function expectedTotals(run: FilingRun, input: InvoiceCreateParams, opts: CreateAndFileOptions): [InvoiceTotals, ...InvoiceTotals[]] {
  if (opts.skipChecks !== true) {
    run.emit({ step: 'check', state: 'started' });
    const report = checkInvoice(input, opts.checkOptions);
    if (!report.ok) {
      run.stop('check', new InvoiceCheckError(report), {
        hint: 'Nothing was sent. Fix the issues in err.cause.report.errors and call createAndFile() again.',
      });
    }
    run.record({ step: 'check', outcome: 'done' });
  } else {
    run.record({ step: 'check', outcome: 'skipped', detail: 'skipChecks' });
  }
  try {
    const first = computeTotals(input.lines, opts.totals);
    if (opts.totals?.rounding !== undefined) return [first];
    // The document shows no rounding: accept per line or per invoice.
    return [first, computeTotals(input.lines, { ...opts.totals, rounding: 'invoice' })];
  } catch (err) {
    // Only reachable with skipChecks.
    return run.stop('reconcile', err, { hint: 'The lines carry amounts that are not numbers; nothing was sent.' });
  }
}

function reconcile(run: FilingRun, invoice: Invoice, candidates: [InvoiceTotals, ...InvoiceTotals[]], opts: CreateAndFileOptions): void {
  const [expected] = candidates;
  run.emit({ step: 'reconcile', state: 'started', invoice });
  const actual = figures(invoice);
  if (actual.subtotal === undefined && actual.taxTotal === undefined && actual.total === undefined) {
    const noTotals = `The service's record of invoice ${invoice.id} carries no totals the SDK can read`;
    if (opts.requireTotals !== true) {
      run.api._logger?.warn(`${noTotals}; the totals were not reconciled (map them with the client's fieldMap).`);
      run.record({ step: 'reconcile', outcome: 'skipped', status: invoice.status, detail: 'the record carries no totals the SDK can read' }, invoice);
      return;
    }
    run.stop('reconcile', new InvoicingError(`${noTotals}.`), {
      hint:
        `Invoice ${invoice.id} was left as it is (${spelledStatus(invoice)}); nothing was filed. ` +
        "The document asks callers to reconcile totals before filing: map the service's total fields with the client's fieldMap, or " +
        'leave requireTotals unset if you reconcile yourself, then resumeFiling().',
    });
  }
  if (candidates.some((c) => compareTotals(figures(c), actual).length === 0)) {
    run.record({ step: 'reconcile', outcome: 'done', status: invoice.status }, invoice);
    return;
  }
  const differences = compareTotals(figures(expected), actual).map(({ difference: _, ...rest }) => rest);
  const mismatch = new TotalsMismatchError({ invoiceId: invoice.id, expected: figures(expected), actual, differences });
  if (statusRank(spelledStatus(invoice)) >= statusRank(InvoiceStatus.SUBMITTED)) {
    run.stop('reconcile', mismatch, {
      message: `Invoice ${invoice.id} was already submitted by an earlier run, and the service's totals contradict its lines: ${mismatch.message.split(': ').slice(1).join(': ')}`,
      hint: 'It is filed with these figures; correct it the way your tax rules require (for example a credit note).',
    });
  }
  const next =
    opts.externalRef === undefined
      ? 'createAndFile(corrected) (a new key is minted for it).'
      : `createAndFile(corrected, { externalRef: '${opts.externalRef}', revision: ${(opts.revision ?? 0) + 1} }).`;
  run.stop('reconcile', mismatch, {
    message: mismatch.message,
    hint: `Invoice ${invoice.id} stays a draft, never filed. File the corrected document as a new invoice: ${next}`,
  });
}

export const resumeFiling = /* @__PURE__ */ scrubbing(resume);

async function resume(
  api: FilingInvoicesApi,
  id: string,
  opts: ResumeFilingOptions = {},
  internals: FilingInternals = {},
): Promise<FilingResult> {
  const run = new FilingRun(api, opts, internals);
  run.invoiceId = id;
  const duringRecovery = opts.duringRecovery ?? (run.waitOpts === undefined ? 'return' : 'wait');
  let invoice: Invoice;
  try {
    // A plain read: the transport's retries (ky) are enough.
    invoice = await api.retrieve(id, { signal: opts.signal, timeout: opts.timeout, maxRetries: opts.maxRetries });
  } catch (err) {
    return run.stop('read', err, {
      message: `Could not read invoice ${id} to resume its filing: ${err instanceof Error ? err.message : String(err)}`,
      hint: `Nothing was sent. ${afterRefusal(err, `call resumeFiling('${id}') again.`) ?? `Call resumeFiling('${id}') again once the service answers.`}`,
    });
  }

  let current = await run.advance(invoice);
  if (current.status === InvoiceStatus.ERROR && recoveryState(current, serverTime(current.observedAt)) === 'in-progress') {
    if (duringRecovery === 'return') {
      const detail = 'automatic recovery is in progress: not re-submitted';
      run.record({ step: 'submit', outcome: 'skipped', status: current.status, detail }, current);
      return run.result(current);
    }
    current = await run.wait(current, run.waitOpts ?? {});
  }
  const over = recoveryState(current, serverTime(current.observedAt)) === 'over' || run.waited?.recovery === 'over';
  if (current.status === InvoiceStatus.ERROR && over) {
    current = await run.transition('submit', current, 'deliberate re-submit: automatic recovery is over');
    run.waited = undefined;
  }
  if (opts.signal?.aborted) throw abortReason(opts.signal);
  if (run.waitOpts !== undefined && needsWait(current) && run.steps.at(-1)?.step !== 'wait') {
    current = await run.wait(current, run.waitOpts);
  }
  return run.result(current);
}
