/**
 * `waitFor`: following an invoice after submission by reading it (the service has no webhooks).
 * Normally it polls from `interval` up to `maxInterval`; while automatic recovery is in play it
 * never submits (another submit does not speed recovery up) and reads at least once a minute, since
 * the retry job runs on its own schedule. A caller's `maxInterval` is never exceeded. At the deadline
 * it reads once more. Only a final status (`finalStatuses`) or `ERROR` with recovery over ends it;
 * `DRAFT`, `VALIDATED`, `SIGNED` move only by the caller, so `NotSubmittedError` answers at once.
 * Recovery is judged on the service's clock, and server-time waits are converted to local time at
 * the measured pace of that clock (clock.ts), so a sped-up sandbox is followed in seconds.
 */
import { InvoicingError, NotSubmittedError, WaitTimeoutError } from '../core/errors.js';
import type { Invoice } from '../model/invoice.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { notify } from './callbacks.js';
import { scrubbed } from './redact.js';
import { abortReason, pause, realClock, ServerClockRate, type WaitClock } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { nextDelay, resolvePolicy, type RateGate, type RetryCounters } from './retry.js';
import {
  AUTOMATIC_RECOVERY,
  isFinalStatus,
  matchesStatus,
  nextTransition,
  recoveryVerdict,
  statusRank,
  type InvoiceStatus,
} from '../model/status.js';

/**
 * Options of `client.invoices.waitFor(id, opts)`.
 *
 * @example
 * ```ts
 * const { invoice, failure } = await client.invoices.waitFor(id, {
 *   timeout: 45 * 60_000, // long enough to follow a whole automatic recovery
 *   onStatus: (inv) => console.log(inv.rawStatus, inv.attempts ?? ''),
 * });
 * ```
 */
export interface WaitOptions {
  /**
   * When to stop: a list of statuses (canonical or as the service spells them), or a predicate.
   * Default: a final status (`finalStatuses`), or `ERROR` that automatic recovery will not pick up.
   * Whatever `until` says, a final status other than an acceptance, or an `ERROR` invoice whose
   * recovery is over, ends the wait at once: nothing moves it on by itself.
   */
  until?: readonly (InvoiceStatus | (string & {}))[] | ((invoice: Invoice) => boolean) | undefined;
  /**
   * Give up after this many ms with a `WaitTimeoutError` carrying the last invoice, after one last
   * read at the deadline. Default 40 minutes: long enough to see automatic recovery through (3
   * attempts, 10 minutes apart). Must be finite.
   */
  timeout?: number | undefined;
  /** First pause between reads in ms (default 500); grows by half each read up to `maxInterval`. */
  interval?: number | undefined;
  /**
   * Longest pause between two reads, in ms, never exceeded. Default: 2000 outside automatic
   * recovery, and one minute of the service's time while recovery is in play.
   */
  maxInterval?: number | undefined;
  /**
   * Statuses after `SUBMITTED` that end the default wait (canonical names or the service's
   * spellings). Default: the client's `finalStatuses`, else `DEFAULT_FINAL_STATUSES`
   * (`ACCEPTED`, `REJECTED`, `CANCELLED`). Any other status after `SUBMITTED` keeps it polling.
   */
  finalStatuses?: readonly string[] | undefined;
  /** Aborts the wait at once, also mid-sleep; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Called with the first reading and on every change of status, raw status or attempt count. */
  onStatus?: ((invoice: Invoice, previous: Invoice | undefined) => void) | undefined;
  /** Per-request timeout in ms (the client's `timeout` by default). */
  requestTimeout?: number | undefined;
  /**
   * Server milliseconds per local millisecond, when known (a sandbox run with a `timeScale`). By
   * default the rate is measured from the service's timestamps, so this is rarely needed.
   */
  timeScale?: number | undefined;
  /** The clock to read and sleep on (default the real clock); tests pass a simulated one. */
  clock?: WaitClock | undefined;
}

/**
 * What `waitFor` resolves with: the last invoice read and, unless it was accepted (or is still on
 * its way), the failure: `rejected`, `cancelled`, another final status, or `ERROR` (classified,
 * with whether recovery is over and what to do).
 *
 * @example
 * ```ts
 * const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 60_000 });
 * if (!failure) console.log('filed:', invoice.rawStatus);
 * else console.error(failure.kind, failure.message, failure.hint);
 * ```
 */
export interface WaitResult {
  /** The invoice as last read. */
  invoice: Invoice;
  /** Present unless the invoice was accepted or is still on its way: what went wrong and what to do. */
  failure?: FilingFailure | undefined;
}

/**
 * The defaults of {@link WaitOptions}, and the pacing of reads during automatic recovery (server
 * time: every `recoveryPoll`).
 *
 * @example
 * ```ts
 * import { WAIT_DEFAULTS } from 'invoicing-sdk';
 * WAIT_DEFAULTS.timeout; // 2400000 (40 minutes)
 * ```
 */
export const WAIT_DEFAULTS = {
  /** Forty minutes: automatic recovery takes up to 30 (3 attempts, 10 minutes apart). */
  timeout: 2_400_000,
  interval: 500,
  maxInterval: 2_000,
  /** Growth of the pause per read outside recovery. */
  factor: 1.5,
  /** Server time between reads while automatic recovery is in play: the job may run at any moment. */
  recoveryPoll: 60_000,
} as const;

/**
 * Least local time between two reads before the server clock's measured pace is trusted. Latency
 * jitter over this span can make the real service look up to ~20 % fast, which only means one
 * early read; a sped-up sandbox is recognised after the first pause.
 */
const RATE_MIN_SPAN_MS = 250;

/** Internal extras: the bulk runner's shared gate, the client's `finalStatuses`. */
export interface WaitInternals {
  gate?: RateGate | undefined;
  finalStatuses?: readonly string[] | undefined;
}

function checkMs(name: string, value: number, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    const tip =
      name === 'timeout'
        ? ' waitFor needs an end: to follow a whole automatic recovery (3 retries, 10 minutes apart) pass about 45 * 60_000.'
        : '';
    throw new InvoicingError(`waitFor: ${name} must be a finite number of milliseconds >= ${min}, got ${String(value)}.${tip}`, {
      hint: tip.trim() || undefined,
    });
  }
  return value;
}

/** Checks and fills the options: every mistake is reported before any request. */
function resolveWaitOptions(opts: WaitOptions) {
  const timeout = checkMs('timeout', opts.timeout ?? WAIT_DEFAULTS.timeout, 0);
  const interval = checkMs('interval', opts.interval ?? WAIT_DEFAULTS.interval, 1);
  const maxInterval = checkMs('maxInterval', opts.maxInterval ?? Math.max(WAIT_DEFAULTS.maxInterval, interval), interval);
  // Only a cap the caller chose also bounds the recovery pace (the default 2 s would mean 30 reads a minute).
  const hardMax = opts.maxInterval === undefined ? Number.POSITIVE_INFINITY : maxInterval;
  if (opts.timeScale !== undefined && !(Number.isFinite(opts.timeScale) && opts.timeScale > 0)) {
    throw new InvoicingError(`waitFor: timeScale must be a finite number > 0, got ${String(opts.timeScale)}`);
  }
  const until = opts.until;
  if (until !== undefined && typeof until !== 'function' && !Array.isArray(until)) {
    throw new InvoicingError('waitFor: until must be a list of statuses or a predicate (invoice) => boolean');
  }
  const finalStatuses = opts.finalStatuses;
  if (finalStatuses !== undefined && (!Array.isArray(finalStatuses) || finalStatuses.some((s) => typeof s !== 'string'))) {
    throw new InvoicingError('waitFor: finalStatuses must be a list of status names');
  }
  return { timeout, interval, maxInterval, hardMax, until, finalStatuses };
}

function matcher(until: WaitOptions['until'], finalStatuses: readonly string[] | undefined): (invoice: Invoice) => boolean {
  // Default: the authority gave a final answer (recovery over is handled by the caller).
  if (until === undefined) return (invoice) => isFinalStatus(invoice.rawStatus ?? invoice.status, finalStatuses);
  if (typeof until === 'function') return (invoice) => until(invoice);
  return (invoice) => matchesStatus(invoice.rawStatus ?? invoice.status, until);
}

function changed(before: Invoice | undefined, after: Invoice): boolean {
  return (
    before === undefined ||
    before.status !== after.status ||
    before.rawStatus !== after.rawStatus ||
    before.attempts !== after.attempts
  );
}

/**
 * Server milliseconds from `serverNow` until it is worth reading an `ERROR` invoice in recovery
 * again: a minute (`WAIT_DEFAULTS.recoveryPoll`), since the recovery job runs on its own 10-minute
 * schedule and the rescue can land at any moment, or when the 24-hour window closes (recovery is
 * then over), whichever comes first.
 */
export function nextRecoveryRead(invoice: Pick<Invoice, 'updatedAt'>, serverNow: number): number {
  const touched = invoice.updatedAt === undefined ? Number.NaN : Date.parse(invoice.updatedAt);
  if (Number.isNaN(touched)) return WAIT_DEFAULTS.recoveryPoll;
  const windowCloses = touched + AUTOMATIC_RECOVERY.windowMs + 1 - serverNow;
  return Math.max(0, Math.min(WAIT_DEFAULTS.recoveryPoll, windowCloses));
}

/**
 * Polls invoice `id` until `opts.until` holds, following the service's recovery rules (see the
 * module comment). Resolves with `{ invoice, failure }`; rejects with `WaitTimeoutError` (carrying
 * the last invoice) when `timeout` passes, with the signal's reason when aborted, and with the
 * service's error when a read fails for a reason retrying cannot fix (404, 401, …). Never submits.
 */
export async function waitFor(
  api: FilingInvoicesApi,
  id: string,
  opts: WaitOptions = {},
  internals: WaitInternals = {},
): Promise<WaitResult> {
  try {
    return await waitUntil(api, id, opts, internals);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

async function waitUntil(
  api: FilingInvoicesApi,
  id: string,
  opts: WaitOptions,
  internals: WaitInternals,
): Promise<WaitResult> {
  const { timeout, interval, maxInterval, hardMax, until, finalStatuses } = resolveWaitOptions(opts);
  const clock = opts.clock ?? realClock;
  const finals = finalStatuses ?? internals.finalStatuses ?? api._finalStatuses;
  const done = matcher(until, finals);
  // Waiting for a status before SUBMITTED is meaningful only when `until` names one (another
  // process of the caller's may move it); otherwise nothing but the caller's own call would.
  const awaitsCaller = Array.isArray(until) && until.some((s) => statusRank(s) >= 0 && statusRank(s) < 3);
  const rate = new ServerClockRate(clock, opts.timeScale, RATE_MIN_SPAN_MS);
  const call: CallOptions = { signal: opts.signal, timeout: opts.requestTimeout, maxRetries: 0 };
  // Transient read failures (connection, 5xx, 429) never end a wait on their own: the deadline does.
  const policy = resolvePolicy({ signal: opts.signal, maxRetries: Number.MAX_SAFE_INTEGER, maxRateLimitRetries: Number.MAX_SAFE_INTEGER }, clock, internals.gate);
  const counters: RetryCounters = { failures: 0, rateLimited: 0 };
  const deadline = clock.now() + timeout;
  let step = interval;
  let last: Invoice | undefined;
  /** Server time the invoice was first seen in its current stretch of ERROR. */
  let errorSince: number | undefined;

  for (;;) {
    if (opts.signal?.aborted) throw abortReason(opts.signal);
    const gated = policy.gate.remaining();
    if (gated > 0 && gated > deadline - clock.now()) {
      // A Retry-After longer than the time left: no read can happen in time.
      await pause(clock, Math.max(0, deadline - clock.now()), opts.signal);
      throw timeoutError(id, last, timeout);
    }
    await policy.gate.wait(opts.signal);
    let sleepFor: number;
    try {
      const invoice = await api.retrieve(id, call);
      counters.failures = 0;
      rate.observe(invoice.observedAt);
      const previous = last;
      last = invoice;
      const onStatus = opts.onStatus;
      if (onStatus !== undefined && changed(previous, invoice)) notify('onStatus', api._logger, () => onStatus(invoice, previous));

      const serverNow = serverTime(invoice.observedAt);
      errorSince = invoice.status === 'ERROR' ? (errorSince ?? firstSeen(invoice, serverNow)) : undefined;
      const recovery = recoveryVerdict(invoice, serverNow, errorSince).state;
      const failure = describeFailure(invoice, serverNow, { finalStatuses: finals, errorSince });
      if (done(invoice) || recovery === 'over' || failure?.recovery === 'not-applicable') return { invoice, failure };
      const next = nextTransition(invoice.rawStatus ?? invoice.status);
      if (next !== undefined && !awaitsCaller) throw new NotSubmittedError({ invoice, nextStep: next });
      if (recovery === 'in-progress') {
        const serverWait = nextRecoveryRead(invoice, serverNow);
        const local = rate.toLocal(serverWait);
        if (local === undefined) {
          // Until the server clock's pace is measured, read at the normal pace rather than risk a
          // ten-minute local sleep against a sped-up sandbox.
          sleepFor = Math.min(serverWait, step);
          step = Math.min(maxInterval, step * WAIT_DEFAULTS.factor);
        } else {
          sleepFor = local;
        }
        sleepFor = Math.min(hardMax, Math.max(interval, sleepFor));
      } else {
        sleepFor = step;
        step = Math.min(maxInterval, step * WAIT_DEFAULTS.factor);
      }
    } catch (err) {
      if (opts.signal?.aborted) throw abortReason(opts.signal, err);
      if (err instanceof NotSubmittedError) throw err;
      const delay = nextDelay(policy, err, counters);
      if (delay === undefined) throw err;
      sleepFor = Math.max(delay, interval);
    }

    const left = deadline - clock.now();
    if (left <= 0) throw timeoutError(id, last, timeout);
    // Sleep to the deadline at most; the loop then reads once more before giving up.
    await pause(clock, Math.min(sleepFor, left), opts.signal);
  }
}

/** When an invoice read in ERROR entered it, at the latest: its last touch, else now. */
function firstSeen(invoice: Invoice, serverNow: number): number {
  const touched = invoice.updatedAt === undefined ? Number.NaN : Date.parse(invoice.updatedAt);
  return Number.isNaN(touched) ? serverNow : Math.min(touched, serverNow);
}

function timeoutError(id: string, last: Invoice | undefined, timeoutMs: number): WaitTimeoutError {
  return new WaitTimeoutError({ invoiceId: id, lastInvoice: last, timeoutMs });
}
