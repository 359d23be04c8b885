/**
 * `createAndFile` and `resumeFiling`: filing an invoice in one call, correctly and exactly once.
 *
 *   check locally → create (idempotent) → reconcile totals → validate → sign → submit → wait?
 *
 * Both work from where the invoice stands: a create that replays an invoice already further along
 * (same idempotency key as an earlier, interrupted run) continues from its status, and
 * `resumeFiling` reads the invoice and performs only what is left. Every transition goes through
 * the exactly-once sender (transition.ts).
 *
 * Every stop is a `FilingError` naming the invoice (once created), the step and the typed cause:
 * the local checks' `InvoiceCheckError` at `check`, a `TotalsMismatchError` at `reconcile`, the
 * service's refusal or a lost connection at the step it hit. Its hint says what to do next.
 */
import {
  FilingError,
  type FilingStep,
  InvoiceCheckError,
  InvoicingError,
  isErrorKind,
  type TotalsFigures,
  TotalsMismatchError,
} from '../core/errors.js';
import { deriveIdempotencyKey, mintIdempotencyKey } from '../core/idempotency.js';
import { checkInvoice, type CheckOptions } from '../check/index.js';
import { compareTotals, computeTotals, type ComputeTotalsOptions, type InvoiceTotals } from '../model/money.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import type { FilingInvoicesApi } from './api.js';
import { abortReason, realClock, type WaitClock } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { mayPass, resolvePolicy, withRetries, type FilingRetryOptions, type RateGate } from './retry.js';
import {
  hasPassed,
  InvoiceStatus,
  nextTransition,
  recoveryState,
  statusRank,
  UNKNOWN_STATUS,
  type FilingTransition,
  type InvoiceStatusValue,
} from '../model/status.js';
import { notify } from './callbacks.js';
import { scrubbed } from './redact.js';
import { performTransition, type TransitionOutcome } from './transition.js';
import { waitFor, type WaitOptions } from './wait.js';

/**
 * A progress report from `createAndFile`/`resumeFiling`: a step `started`, is `done`, or was
 * `skipped` (already done, for example by an earlier run).
 *
 * @example
 * ```ts
 * await client.invoices.createAndFile(input, {
 *   externalRef: 'order-1042',
 *   onStep: (e) => console.log(e.step, e.state, e.invoice?.rawStatus ?? ''),
 * });
 * ```
 */
export interface FilingStepEvent {
  /** The step. */
  step: FilingStep;
  /** `started`, `done`, or `skipped` (already done, nothing sent). */
  state: 'started' | 'done' | 'skipped';
  /** The invoice, once created. */
  invoiceId: string | undefined;
  /** The invoice after the step (`done`/`skipped` of create and later steps). */
  invoice?: Invoice | undefined;
  /** Why a step was skipped, or how it was established. */
  detail?: string | undefined;
}

/**
 * One finished step in a {@link FilingResult}.
 *
 * @example
 * ```ts
 * const { steps } = await client.invoices.createAndFile(input, { externalRef: 'order-1042' });
 * console.table(steps); // [{ step: 'check', outcome: 'done' }, { step: 'create', … }, …]
 * ```
 */
export interface FilingStepRecord {
  /** The step. */
  step: FilingStep;
  /** `done` by this call, or `skipped` because it was already done. */
  outcome: 'done' | 'skipped';
  /** The invoice's status after the step, where one was read. */
  status?: InvoiceStatusValue | undefined;
  /** How many requests the step sent, where it sent any. */
  sends?: number | undefined;
  /** Why it was skipped, or how it was established (e.g. confirmed by reading back). */
  detail?: string | undefined;
}

/**
 * What `createAndFile` and `resumeFiling` resolve with.
 *
 * @example
 * ```ts
 * const { invoice, steps, failure } = await client.invoices.createAndFile(input, { wait: true });
 * console.log(invoice.id, invoice.rawStatus, steps.map((s) => s.step).join(' → '));
 * if (failure) console.warn(failure.kind, failure.hint);
 * ```
 */
export interface FilingResult {
  /** The invoice as last read. */
  invoice: Invoice;
  /** The steps finished, in order. */
  steps: FilingStepRecord[];
  /** Present unless the invoice was accepted or is still on its way (`rejected`, `ERROR`, …): what failed and what to do. */
  failure?: FilingFailure | undefined;
}

/**
 * Options shared by `createAndFile` and `resumeFiling`.
 *
 * @example
 * ```ts
 * await client.invoices.resumeFiling(id, { wait: { timeout: 120_000 }, onStep: console.log });
 * ```
 */
export interface FilingOptions extends FilingRetryOptions {
  /** Per-request timeout in ms (the client's `timeout` by default). */
  timeout?: number | undefined;
  /**
   * Wait for the tax authority's answer after submitting: `true` for the default wait, or the
   * options of `waitFor`. Without it the call returns once the invoice is submitted.
   */
  wait?: boolean | WaitOptions | undefined;
  /** Progress: called when each step starts and ends. */
  onStep?: ((event: FilingStepEvent) => void) | undefined;
}

/**
 * Options of `client.invoices.createAndFile(input, opts)`.
 *
 * @example
 * ```ts
 * const { invoice } = await client.invoices.createAndFile(input, {
 *   externalRef: 'order-1042', // the same order never files twice, across processes and re-runs
 *   wait: true,
 * });
 * ```
 */
export interface CreateAndFileOptions extends FilingOptions {
  /** The `idempotency-key` of the create. Prefer `externalRef`. */
  idempotencyKey?: string | undefined;
  /**
   * Your own reference of the document (order number, invoice number). The idempotency key is
   * derived from it and the business (`deriveIdempotencyKey`), so re-running after a crash, or a
   * second process filing the same document, finds the same invoice instead of creating another.
   */
  externalRef?: string | undefined;
  /**
   * Which version of the document `externalRef` names (default 0). When a version failed (the
   * tax authority rejected a field, the totals were wrong) and you file a corrected one, pass the
   * next revision: it gets a key of its own (`deriveIdempotencyKey(businessId, externalRef,
   * revision)`), so the corrected body meets no idempotency conflict, and a re-run of the same
   * revision still finds its invoice instead of filing it twice. The failed invoice stays as the
   * service holds it (in `ERROR`, or a draft); the corrected one is a new invoice.
   */
  revision?: number | undefined;
  /** Skip the local checks (not recommended; the totals are still reconciled). */
  skipChecks?: boolean | undefined;
  /** Options of the local checks (`checkInvoice`). */
  checkOptions?: CheckOptions | undefined;
  /**
   * How the service rounds, for the totals reconciliation (default: half up, 2 decimals, and either
   * per line or per invoice, since the document shows neither; give `rounding` to accept only one).
   */
  totals?: ComputeTotalsOptions | undefined;
  /**
   * Stop when the service's record carries no totals the SDK can read (default `false`: the
   * reconcile is skipped with a warning; configure `fieldMap` if the service names its totals
   * differently).
   */
  requireTotals?: boolean | undefined;
}

/**
 * Options of `client.invoices.resumeFiling(id, opts)`.
 *
 * @example
 * ```ts
 * const { invoice, steps } = await client.invoices.resumeFiling(id, { wait: true });
 * ```
 */
export interface ResumeFilingOptions extends FilingOptions {
  /**
   * An invoice in `ERROR` whose automatic recovery is still in progress: `'return'` (default without
   * `wait`) returns at once with the failure and submits nothing; `'wait'` (default with `wait`)
   * waits for recovery to end and, if it ends without success, re-submits once.
   */
  duringRecovery?: 'return' | 'wait' | undefined;
}

/** Internal extras: the bulk runner's shared gate and clock. */
export interface FilingInternals {
  gate?: RateGate | undefined;
  clock?: WaitClock | undefined;
}

const STEP_ORDER: readonly FilingTransition[] = ['validate', 'sign', 'submit'];

/** Runs the steps of one filing and keeps its record; one per call. */
class FilingRun {
  readonly steps: FilingStepRecord[] = [];
  invoiceId: string | undefined;
  readonly api: FilingInvoicesApi;
  readonly opts: FilingOptions;
  readonly internals: FilingInternals;
  readonly clock: WaitClock;
  /** The failure the last wait ended with (judged with what the wait saw over time). */
  waited: FilingFailure | undefined;

  constructor(api: FilingInvoicesApi, opts: FilingOptions, internals: FilingInternals) {
    this.api = api;
    this.opts = opts;
    this.internals = internals;
    this.clock = internals.clock ?? opts.clock ?? realClock;
  }

  emit(event: Omit<FilingStepEvent, 'invoiceId'>): void {
    const onStep = this.opts.onStep;
    if (onStep !== undefined) notify('onStep', this.api._logger, () => onStep({ invoiceId: this.invoiceId, ...event }));
  }

  record(entry: FilingStepRecord, invoice?: Invoice): void {
    this.steps.push(entry);
    this.emit({ step: entry.step, state: entry.outcome, invoice, detail: entry.detail });
  }

  /** A stop during `step`: a FilingError, unless it already is one. */
  stop(step: FilingStep, cause: unknown, extra: { hint?: string | undefined; message?: string } = {}): never {
    if (isErrorKind(cause, 'FilingError')) throw cause;
    const id = this.invoiceId;
    const hint =
      extra.hint ??
      (id === undefined ? undefined : afterRefusal(cause, `resume with client.invoices.resumeFiling('${id}'): it reads the invoice and performs only the steps left.`));
    throw new FilingError({ invoiceId: id, step, cause, ...extra, hint });
  }

  async transition(step: FilingTransition, invoice: Invoice, detail?: string): Promise<Invoice> {
    this.emit({ step, state: 'started', invoice });
    try {
      // Only the retry and request settings: the create's idempotency key is not the transition's.
      const { signal, timeout, maxRetries, maxRateLimitRetries } = this.opts;
      const result = await performTransition(
        this.api,
        invoice.id,
        step,
        { signal, timeout, maxRetries, maxRateLimitRetries },
        { gate: this.internals.gate, clock: this.clock, baseline: invoice },
      );
      this.record(
        { step, outcome: result.outcome === 'already-done' ? 'skipped' : 'done', status: result.invoice.status, sends: result.sends, detail: OUTCOME_DETAIL[result.outcome] ?? detail },
        result.invoice,
      );
      return result.invoice;
    } catch (err) {
      return this.stop(step, err);
    }
  }

  /** Validate, sign and submit, each only if the invoice has not passed it yet. */
  async advance(invoice: Invoice): Promise<Invoice> {
    if (invoice.status === UNKNOWN_STATUS && invoice.rawStatus === undefined) {
      this.stop(nextUnknownStep(this.steps), new InvoicingError(`Invoice ${invoice.id} has no status the SDK can read.`), {
        hint:
          'The record carries no readable status field. If the service names it differently, add ' +
          "the name to the client's fieldMap (see docs/filing.md); nothing more was sent.",
      });
    }
    for (const step of STEP_ORDER) {
      // The raw spelling: a status the SDK does not recognise is still one reached after SUBMITTED.
      if (hasPassed(invoice.rawStatus ?? invoice.status, step)) {
        this.record({ step, outcome: 'skipped', status: invoice.status, detail: `already ${describeStatus(invoice)}` }, invoice);
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
      const { invoice: last, failure } = await waitFor(
        this.api,
        invoice.id,
        { ...waitOpts, signal: waitOpts.signal ?? this.opts.signal, clock: waitOpts.clock ?? this.clock },
        { gate: this.internals.gate },
      );
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

const OUTCOME_DETAIL: Record<TransitionOutcome, string | undefined> = {
  sent: undefined,
  confirmed: 'the answer was lost; reading the invoice back showed the step done',
  'already-done': 'the invoice had already passed this step',
};

function describeStatus(invoice: Invoice): string {
  return invoice.rawStatus ?? invoice.status;
}

/** Where a record with no readable status stops: `validate` after a create, else the `read`. */
function nextUnknownStep(steps: readonly FilingStepRecord[]): FilingStep {
  return steps.some((s) => s.step === 'create') ? 'validate' : 'read';
}

function waitOptions(wait: FilingOptions['wait']): WaitOptions | undefined {
  if (wait === undefined || wait === false) return undefined;
  return wait === true ? {} : wait;
}

/** True while the invoice may still move on its own: submitted, or in `ERROR` with recovery in play. */
function needsWait(invoice: Invoice): boolean {
  if (invoice.status === InvoiceStatus.SUBMITTED) return true;
  return invoice.status === InvoiceStatus.ERROR && recoveryState(invoice, serverTime(invoice.observedAt)) === 'in-progress';
}

/**
 * After a refusal the same call would meet again (a revoked key's 401): fix the cause first, then
 * `then`. `undefined` when calling again may pass, or for a transition refused by status.
 */
function afterRefusal(cause: unknown, then: string): string | undefined {
  if (!isErrorKind(cause, 'APIError') || mayPass(cause) || isErrorKind(cause, 'InvalidTransitionError')) return undefined;
  const own = (cause as InvoicingError).hint;
  return `The service refused the request and would refuse it again: fix that first.${own === undefined ? '' : ` ${own}`} Then ${then}`;
}

function figures(t: Pick<Invoice, 'subtotal' | 'taxTotal' | 'total'>): TotalsFigures {
  return { subtotal: t.subtotal, taxTotal: t.taxTotal, total: t.total };
}

/** The idempotency key of a create: the caller's, derived from `externalRef`, or minted once. */
export function filingKey(input: InvoiceCreateParams, opts: Pick<CreateAndFileOptions, 'idempotencyKey' | 'externalRef' | 'revision'>): string {
  if (opts.revision !== undefined && (opts.externalRef === undefined || opts.idempotencyKey !== undefined)) {
    throw new InvoicingError('createAndFile: revision numbers a version of the document externalRef names; pass it with externalRef, not idempotencyKey.');
  }
  if (opts.idempotencyKey !== undefined) return opts.idempotencyKey;
  if (opts.externalRef !== undefined) return deriveIdempotencyKey(input.businessId, opts.externalRef, opts.revision);
  return mintIdempotencyKey();
}

/**
 * Files an invoice in one call: check locally → create (idempotent) → reconcile the service's
 * totals with the lines → validate → sign → submit → wait (when `opts.wait`). See the module
 * comment for how stops are reported.
 *
 * @example
 * ```ts
 * const { invoice, steps } = await createAndFile(client.invoices, input, { externalRef: 'order-1042' });
 * ```
 */
export async function createAndFile(
  api: FilingInvoicesApi,
  input: InvoiceCreateParams,
  opts: CreateAndFileOptions = {},
  internals: FilingInternals = {},
): Promise<FilingResult> {
  try {
    return await fileNew(api, input, opts, internals);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

async function fileNew(
  api: FilingInvoicesApi,
  input: InvoiceCreateParams,
  opts: CreateAndFileOptions,
  internals: FilingInternals,
): Promise<FilingResult> {
  const key = filingKey(input, opts);
  const run = new FilingRun(api, opts, internals);
  const waitOpts = waitOptions(opts.wait);
  const expected = expectedTotals(run, input, opts);

  // create: replayed safely with the same key after an ambiguous failure.
  run.emit({ step: 'create', state: 'started' });
  const policy = resolvePolicy(opts, run.clock, internals.gate);
  let invoice: Invoice;
  try {
    invoice = await withRetries(policy, () =>
      api.create(input, { idempotencyKey: key, skipChecks: true, maxRetries: 0, signal: opts.signal, timeout: opts.timeout }),
    );
  } catch (err) {
    // Calling again can only help after a failure that may pass: no answer, a 5xx or 408, a 429, an
    // abort. A refusal (400, 401, 403, 404, a key conflict) would be refused again, with nothing
    // created: its own hint says what to fix.
    if (isErrorKind(err, 'APIError') && !mayPass(err)) {
      const causeHint = (err as InvoicingError).hint;
      return run.stop('create', err, {
        hint: `The service refused the invoice; nothing was created, and the same request would be refused again.${causeHint === undefined ? '' : ` ${causeHint}`}`,
      });
    }
    return run.stop('create', err, {
      hint:
        `No invoice id is known. Call createAndFile() again with idempotencyKey '${key}'` +
        (opts.externalRef === undefined ? '' : ` (or the same externalRef '${opts.externalRef}'${opts.revision ? ` and revision ${opts.revision}` : ''})`) +
        ': the service returns the invoice already created for that key instead of a second one.',
    });
  }
  run.invoiceId = invoice.id;
  const replayed = statusRank(invoice.rawStatus ?? invoice.status) > 0;
  run.record(
    { step: 'create', outcome: 'done', status: invoice.status, detail: replayed ? `the key's invoice already exists and is ${describeStatus(invoice)}` : undefined },
    invoice,
  );

  reconcile(run, invoice, expected, opts);

  let current = await run.advance(invoice);
  if (waitOpts !== undefined && needsWait(current)) current = await run.wait(current, waitOpts);
  return run.result(current);
}

function expectedTotals(run: FilingRun, input: InvoiceCreateParams, opts: CreateAndFileOptions): InvoiceTotals[] | undefined {
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
    // The document shows no rounding: per line and per invoice are both the service's figures.
    return [first, computeTotals(input.lines, { ...opts.totals, rounding: 'invoice' })];
  } catch (err) {
    // Only reachable with skipChecks: the checks refuse lines whose amounts cannot be read.
    return run.stop('reconcile', err, { hint: 'The lines carry amounts that are not numbers; nothing was sent.' });
  }
}

/** Holds the service's totals against the lines; throws before anything is filed when they differ. */
function reconcile(run: FilingRun, invoice: Invoice, candidates: InvoiceTotals[] | undefined, opts: CreateAndFileOptions): void {
  const expected = candidates?.[0];
  if (candidates === undefined || expected === undefined) return;
  run.emit({ step: 'reconcile', state: 'started', invoice });
  const actual = figures(invoice);
  if (actual.subtotal === undefined && actual.taxTotal === undefined && actual.total === undefined) {
    if (opts.requireTotals !== true) {
      run.api._logger?.warn(
        `The service's record of invoice ${invoice.id} carries no totals the SDK can read; the totals were not reconciled (map them with the client's fieldMap).`,
      );
      run.record({ step: 'reconcile', outcome: 'skipped', status: invoice.status, detail: 'the record carries no totals the SDK can read' }, invoice);
      return;
    }
    run.stop('reconcile', new InvoicingError(`The service's record of invoice ${invoice.id} carries no totals the SDK can read.`), {
      hint:
        `Invoice ${invoice.id} was left as it is (${describeStatus(invoice)}); nothing was filed. The document asks callers to ` +
        "reconcile totals before filing: map the service's total fields with the client's fieldMap, or pass " +
        'leave requireTotals unset if you reconcile yourself, then resumeFiling().',
    });
  }
  const differences = compareTotals(figures(expected), actual).map(({ field, expected: e, actual: a }) => ({ field, expected: e, actual: a }));
  if (differences.length === 0 || candidates.some((c) => compareTotals(figures(c), actual).length === 0)) {
    run.record({ step: 'reconcile', outcome: 'done', status: invoice.status }, invoice);
    return;
  }
  const mismatch = new TotalsMismatchError({ invoiceId: invoice.id, expected: figures(expected), actual, differences });
  if (statusRank(invoice.rawStatus ?? invoice.status) >= statusRank(InvoiceStatus.SUBMITTED)) {
    // An earlier run already filed it: say so rather than "nothing was filed".
    run.stop('reconcile', mismatch, {
      message: `Invoice ${invoice.id} was already submitted by an earlier run, and the service's totals contradict its lines: ${mismatch.message.split(': ').slice(1).join(': ')}`,
      hint: 'It is filed with these figures; correct it the way your tax rules require (for example a credit note).',
    });
  }
  run.stop('reconcile', mismatch, {
    message: mismatch.message,
    hint:
      `Invoice ${invoice.id} stays a draft, never filed. File the corrected document as a new invoice: ${nextRevision(opts)}`,
  });
}

/** How to file a corrected version of the document `opts` filed: its next revision. */
export function nextRevision(opts: Pick<CreateAndFileOptions, 'externalRef' | 'revision'>): string {
  if (opts.externalRef === undefined) return 'createAndFile(corrected) (a new key is minted for it).';
  return `createAndFile(corrected, { externalRef: '${opts.externalRef}', revision: ${(opts.revision ?? 0) + 1} }).`;
}

/**
 * Reads invoice `id` and performs only what is left: validate, sign and submit where not yet done;
 * for an invoice in `ERROR`, one deliberate re-submit once automatic recovery is over (while it is
 * in progress: see `duringRecovery`); then waits when `opts.wait`.
 *
 * @example
 * ```ts
 * const { invoice, steps } = await resumeFiling(client.invoices, id, { wait: true });
 * ```
 */
export async function resumeFiling(
  api: FilingInvoicesApi,
  id: string,
  opts: ResumeFilingOptions = {},
  internals: FilingInternals = {},
): Promise<FilingResult> {
  try {
    return await resume(api, id, opts, internals);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

async function resume(
  api: FilingInvoicesApi,
  id: string,
  opts: ResumeFilingOptions,
  internals: FilingInternals,
): Promise<FilingResult> {
  const run = new FilingRun(api, opts, internals);
  run.invoiceId = id;
  const waitOpts = waitOptions(opts.wait);
  const duringRecovery = opts.duringRecovery ?? (waitOpts === undefined ? 'return' : 'wait');
  const policy = resolvePolicy(opts, run.clock, internals.gate);
  let invoice: Invoice;
  try {
    invoice = await withRetries(policy, () => api.retrieve(id, { signal: opts.signal, timeout: opts.timeout, maxRetries: 0 }));
  } catch (err) {
    return run.stop('read', err, {
      message: `Could not read invoice ${id} to resume its filing: ${err instanceof Error ? err.message : String(err)}`,
      hint: `Nothing was sent. ${afterRefusal(err, `call resumeFiling('${id}') again.`) ?? `Call resumeFiling('${id}') again once the service answers.`}`,
    });
  }

  let current = await run.advance(invoice);
  let resubmitted = false;
  if (current.status === InvoiceStatus.ERROR) {
    if (recoveryState(current, serverTime(current.observedAt)) === 'in-progress') {
      if (duringRecovery === 'return') {
        run.record({ step: 'submit', outcome: 'skipped', status: current.status, detail: 'automatic recovery is in progress: not re-submitted' }, current);
        return run.result(current);
      }
      current = await run.wait(current, waitOpts ?? {});
    }
    const over = recoveryState(current, serverTime(current.observedAt)) === 'over' || run.waited?.recovery === 'over';
    if (current.status === InvoiceStatus.ERROR && over) {
      current = await run.transition('submit', current, 'deliberate re-submit: automatic recovery is over');
      resubmitted = true;
      run.waited = undefined;
    }
  }
  if (opts.signal?.aborted) throw abortReason(opts.signal);
  if (waitOpts !== undefined && needsWait(current) && (resubmitted || !run.steps.some((s) => s.step === 'wait'))) {
    current = await run.wait(current, waitOpts);
  }
  return run.result(current);
}
