/**
 * `waitFor`: following an invoice after submission by reading it (the service has no webhooks).
 *
 * Two paces:
 * - normally it polls from `interval` up to `maxInterval` (500 ms → 2 s by default), so a change is
 *   noticed within about two seconds;
 * - while the service's automatic recovery is in play (an `ERROR` invoice touched within 24 hours,
 *   fewer than 3 attempts used) nothing changes between the 10-minute retries, so it sleeps until
 *   just after the next retry is due (10 minutes after the record was last touched) and never
 *   submits: another submit does not speed recovery up. Following a 30-minute recovery takes a
 *   handful of reads.
 *
 * The recovery rules are judged on the service's clock (`observedAt`, the envelope's timestamp),
 * never the local one, and server-time waits are converted into local time at the rate the server's
 * clock is measured to run (see clock.ts), so a sandbox running 600 × faster is followed in seconds.
 */
import { InvoicingError } from '../core/errors/invoicing-error.js';
import { WaitTimeoutError } from '../core/errors/wait-timeout-error.js';
import type { Invoice } from '../model/invoice.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { notify } from './callbacks.js';
import { abortReason, pause, realClock, ServerClockRate, type WaitClock } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { nextDelay, resolvePolicy, type RateGate, type RetryCounters } from './retry.js';
import { AUTOMATIC_RECOVERY, isFinalStatus, matchesStatus, recoveryState, type InvoiceStatus } from '../model/status.js';

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
   * Default: a final status (`DEFAULT_FINAL_STATUSES`), or `ERROR` that automatic recovery will not pick up.
   * Whatever `until` says, an `ERROR` invoice whose recovery is over ends the wait at once: nothing
   * moves it without a deliberate re-submit.
   */
  until?: readonly (InvoiceStatus | (string & {}))[] | ((invoice: Invoice) => boolean) | undefined;
  /** Give up after this many ms with a `WaitTimeoutError` carrying the last invoice (default 300 000). Must be finite. */
  timeout?: number | undefined;
  /** First pause between reads in ms (default 500); grows by half each read up to `maxInterval`. */
  interval?: number | undefined;
  /** Longest pause between reads outside automatic recovery, in ms (default 2000). */
  maxInterval?: number | undefined;
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
 * What `waitFor` resolves with: the last invoice read and, when it is in `ERROR`, the failure
 * (classified, with whether recovery is over and what to do).
 *
 * @example
 * ```ts
 * const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 60_000 });
 * if (!failure) console.log('filed:', invoice.rawStatus);
 * else if (failure.resubmitRequired) console.warn(failure.hint);
 * ```
 */
export interface WaitResult {
  /** The invoice as last read. */
  invoice: Invoice;
  /** Present when the invoice is in `ERROR`: what went wrong and whether a re-submit is needed. */
  failure?: FilingFailure | undefined;
}

/**
 * The defaults of {@link WaitOptions}, and the pacing of reads during automatic recovery (server
 * time: read `retryMargin` after a retry is due, every `overduePoll` once it is late).
 *
 * @example
 * ```ts
 * import { WAIT_DEFAULTS } from 'invoicing-sdk';
 * WAIT_DEFAULTS.timeout; // 300000
 * ```
 */
export const WAIT_DEFAULTS = {
  /** Five minutes. */
  timeout: 300_000,
  interval: 500,
  maxInterval: 2_000,
  /** Growth of the pause per read outside recovery. */
  factor: 1.5,
  /** Server time after a retry is due before reading, so the retry has had time to land. */
  retryMargin: 15_000,
  /** Server time between reads once a retry is overdue (the service ran late, or ran it on its own schedule). */
  overduePoll: 60_000,
} as const;

/**
 * Least local time between two reads before the server clock's measured pace is trusted. Latency
 * jitter over this span can make the real service look up to ~20 % fast, which only means one
 * early read; a sped-up sandbox is recognised after the first pause.
 */
const RATE_MIN_SPAN_MS = 250;

/** Internal extras: the bulk runner's shared gate. */
export interface WaitInternals {
  gate?: RateGate | undefined;
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
  if (opts.timeScale !== undefined && !(Number.isFinite(opts.timeScale) && opts.timeScale > 0)) {
    throw new InvoicingError(`waitFor: timeScale must be a finite number > 0, got ${String(opts.timeScale)}`);
  }
  const until = opts.until;
  if (until !== undefined && typeof until !== 'function' && !Array.isArray(until)) {
    throw new InvoicingError('waitFor: until must be a list of statuses or a predicate (invoice) => boolean');
  }
  return { timeout, interval, maxInterval, until };
}

/** Default `until`: the authority answered, or the invoice is stuck in `ERROR` for good. */
function settled(invoice: Invoice, serverNow: number): boolean {
  return isFinalStatus(invoice.rawStatus ?? invoice.status) || recoveryState(invoice, serverNow) === 'over';
}

function matcher(until: WaitOptions['until']): (invoice: Invoice, serverNow: number) => boolean {
  if (until === undefined) return settled;
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
 * again: just after the next 10-minute retry is due, or when the 24-hour window closes (recovery is
 * then over), whichever comes first. Once a retry is overdue, every minute of server time.
 *
 * @example
 * ```ts
 * // touched 4 minutes ago: read again in 6 minutes and 15 seconds
 * nextRecoveryRead({ updatedAt: '2026-01-01T00:00:00Z' }, Date.parse('2026-01-01T00:04:00Z'));
 * ```
 */
export function nextRecoveryRead(invoice: Pick<Invoice, 'updatedAt'>, serverNow: number): number {
  const touched = invoice.updatedAt === undefined ? Number.NaN : Date.parse(invoice.updatedAt);
  if (Number.isNaN(touched)) return WAIT_DEFAULTS.overduePoll;
  const windowCloses = touched + AUTOMATIC_RECOVERY.windowMs + 1 - serverNow;
  const retryDue = touched + AUTOMATIC_RECOVERY.intervalMs + WAIT_DEFAULTS.retryMargin - serverNow;
  const wait = retryDue > 0 ? retryDue : WAIT_DEFAULTS.overduePoll;
  return Math.max(0, Math.min(wait, windowCloses));
}

/**
 * Polls invoice `id` until `opts.until` holds, following the service's recovery rules (see the
 * module comment). Resolves with `{ invoice, failure }`; rejects with `WaitTimeoutError` (carrying
 * the last invoice) when `timeout` passes, with the signal's reason when aborted, and with the
 * service's error when a read fails for a reason retrying cannot fix (404, 401, …). Never submits.
 *
 * @example
 * ```ts
 * const { invoice, failure } = await waitFor(client.invoices, id, { timeout: 60_000 });
 * ```
 */
export async function waitFor(
  api: FilingInvoicesApi,
  id: string,
  opts: WaitOptions = {},
  internals: WaitInternals = {},
): Promise<WaitResult> {
  const { timeout, interval, maxInterval, until } = resolveWaitOptions(opts);
  const clock = opts.clock ?? realClock;
  const done = matcher(until);
  const rate = new ServerClockRate(clock, opts.timeScale, RATE_MIN_SPAN_MS);
  const call: CallOptions = { signal: opts.signal, timeout: opts.requestTimeout, maxRetries: 0 };
  // Transient read failures (connection, 5xx, 429) never end a wait on their own: the deadline does.
  const policy = resolvePolicy({ signal: opts.signal, maxRetries: Number.MAX_SAFE_INTEGER, maxRateLimitRetries: Number.MAX_SAFE_INTEGER }, clock, internals.gate);
  const counters: RetryCounters = { failures: 0, rateLimited: 0 };
  const deadline = clock.now() + timeout;
  let step = interval;
  let last: Invoice | undefined;

  for (;;) {
    if (opts.signal?.aborted) throw abortReason(opts.signal);
    if (policy.gate.remaining() > deadline - clock.now()) {
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
      const recovery = recoveryState(invoice, serverNow);
      if (done(invoice, serverNow) || recovery === 'over') {
        return { invoice, failure: describeFailure(invoice, serverNow) };
      }
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
        sleepFor = Math.max(interval, sleepFor);
      } else {
        sleepFor = step;
        step = Math.min(maxInterval, step * WAIT_DEFAULTS.factor);
      }
    } catch (err) {
      if (opts.signal?.aborted) throw abortReason(opts.signal, err);
      const delay = nextDelay(policy, err, counters);
      if (delay === undefined) throw err;
      sleepFor = Math.max(delay, interval);
    }

    const left = deadline - clock.now();
    if (left <= 0) throw timeoutError(id, last, timeout);
    // Sleep to the deadline at most, then read once more before giving up.
    await pause(clock, Math.min(sleepFor, left), opts.signal);
  }
}

function timeoutError(id: string, last: Invoice | undefined, timeoutMs: number): WaitTimeoutError {
  return new WaitTimeoutError({ invoiceId: id, lastInvoice: last, timeoutMs });
}
