// waitFor: polls a submitted invoice (no webhooks); during recovery it never submits and reads about once a server minute.
import { InvoicingError, NotSubmittedError, WaitTimeoutError } from '../core/errors.js';
import type { Invoice } from '../model/invoice.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { notify, scrubbing } from './callbacks.js';
import { abortReason, pause, ServerClockRate, type WaitClock } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { checkNumber, nextDelay, retryState, type FilingInternals } from './retry.js';
import { AUTOMATIC_RECOVERY, isFinalStatus, matchesStatus, nextTransition, recoveryVerdict } from '../model/status.js';
import { spelledStatus, statusRank, type InvoiceStatus } from '../model/status.js';

/** Options of `client.invoices.waitFor(id, opts)`. @example const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 45 * 60_000 }); */
export interface WaitOptions {
  /** When to stop: statuses or a predicate (default: a final status, or `ERROR` with recovery over). */
  until?: readonly (InvoiceStatus | (string & {}))[] | ((invoice: Invoice) => boolean) | undefined;
  /** Give up after this many ms with a `WaitTimeoutError` (default 40 minutes). */ timeout?: number | undefined;
  /** First pause between reads in ms (default 500); grows by half each read up to `maxInterval`. */ interval?: number | undefined;
  /** Longest pause between two reads in ms (default 2000; a server minute during recovery). */ maxInterval?: number | undefined;
  /** Statuses after `SUBMITTED` that end the default wait (default: the client's `finalStatuses`). */
  finalStatuses?: readonly string[] | undefined;
  /** Aborts the wait at once, also mid-sleep; the promise rejects with the signal's reason. */ signal?: AbortSignal | undefined;
  /** Called with the first reading and on every change of status, raw status or attempt count. */
  onStatus?: ((invoice: Invoice, previous: Invoice | undefined) => void) | undefined;
  /** Per-request timeout in ms (the client's `timeout` by default). */ requestTimeout?: number | undefined;
  /** Server milliseconds per local millisecond, when known; measured otherwise. */ timeScale?: number | undefined;
  /** The clock to read and sleep on (default the real clock). */ clock?: WaitClock | undefined;
}

/**
 * What `waitFor` resolves with: the last invoice read and, unless accepted, the failure.
 * @example const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 60_000 });
 */
export interface WaitResult {
  /** The invoice as last read. */ invoice: Invoice;
  /** What went wrong and what to do, unless the invoice was accepted or is still on its way. */ failure?: FilingFailure | undefined;
}

/** The defaults of {@link WaitOptions}, and the server-time pace of reads during recovery. */
export const WAIT_DEFAULTS = {
  /** Long enough to see automatic recovery through. */ timeout: 2_400_000,
  interval: 500,
  maxInterval: 2_000,
  /** Growth of the pause per read outside recovery. */ factor: 1.5,
  /** Server time between reads during recovery: the job may run at any moment. */ recoveryPoll: 60_000,
} as const;

/** A new status, raw status or attempt count. */
export function changed(before: { status: string; rawStatus?: string | undefined; attempts?: number | undefined } | undefined, after: Invoice): boolean {
  return before === undefined || (['status', 'rawStatus', 'attempts'] as const).some((key) => before[key] !== after[key]);
}

/** Server ms until an `ERROR` invoice in recovery is worth reading again: a poll, or the window's close. */
export function nextRecoveryRead(invoice: Pick<Invoice, 'updatedAt'>, serverNow: number): number {
  const touched = serverTime(invoice.updatedAt, Number.NaN);
  if (Number.isNaN(touched)) return WAIT_DEFAULTS.recoveryPoll;
  const windowCloses = touched + AUTOMATIC_RECOVERY.windowMs + 1 - serverNow;
  return Math.max(0, Math.min(WAIT_DEFAULTS.recoveryPoll, windowCloses));
}

/** One reading judged by the rules `waitFor` and `watch` share. `errorSince`: when it was first seen in `ERROR`. */
export function judge(invoice: Invoice, serverNow: number, errorSince: number | undefined, finalStatuses: readonly string[] | undefined) {
  if (invoice.status !== 'ERROR') errorSince = undefined;
  // When it entered ERROR, at the latest: its last touch, else now.
  else errorSince ??= Math.min(serverTime(invoice.updatedAt, serverNow), serverNow);
  const recovery = recoveryVerdict(invoice, serverNow, errorSince).state;
  const failure = describeFailure(invoice, serverNow, { finalStatuses, errorSince });
  // Recovery over, or a final answer other than acceptance (a rejection settles whatever the list says).
  const ended = recovery === 'over' || failure?.recovery === 'not-applicable';
  const final = ended || isFinalStatus(spelledStatus(invoice), finalStatuses);
  return { errorSince, recovery, failure, ended, final };
}

export const waitFor = /* @__PURE__ */ scrubbing(waitUntil);

async function waitUntil(api: FilingInvoicesApi, id: string, opts: WaitOptions = {}, internals: FilingInternals = {}): Promise<WaitResult> {
  const tip = ' waitFor needs an end: to follow a whole automatic recovery (3 retries, 10 minutes apart) pass about 45 * 60_000.';
  const timeout = checkNumber('waitFor: timeout', opts.timeout ?? WAIT_DEFAULTS.timeout, 0, false, false, tip);
  const interval = checkNumber('waitFor: interval', opts.interval ?? WAIT_DEFAULTS.interval, 1);
  const maxInterval = checkNumber('waitFor: maxInterval', opts.maxInterval ?? Math.max(WAIT_DEFAULTS.maxInterval, interval), interval);
  // Only a cap the caller chose also bounds the recovery pace.
  const hardMax = opts.maxInterval === undefined ? Infinity : maxInterval;
  if (opts.timeScale !== undefined) checkNumber('waitFor: timeScale', opts.timeScale, 0, false, true);
  const { until, finalStatuses = api._finalStatuses } = opts;
  if (until !== undefined && typeof until !== 'function' && !Array.isArray(until)) {
    throw new InvoicingError('waitFor: until must be a list of statuses or a predicate (invoice) => boolean');
  }
  if (!Array.isArray(finalStatuses ?? []) || finalStatuses?.some((s) => typeof s !== 'string')) {
    throw new InvoicingError('waitFor: finalStatuses must be a list of status names');
  }
  const matches =
    typeof until === 'function' ? until : until === undefined ? undefined : (i: Invoice) => matchesStatus(spelledStatus(i), until);
  // A status before SUBMITTED is worth waiting for only when `until` names one.
  const awaitsCaller = Array.isArray(until) && until.some((s) => statusRank(s) >= 0 && statusRank(s) < 3);
  // Transient read failures never end a wait: the deadline does.
  const state = retryState({ ...opts, maxRetries: Number.MAX_SAFE_INTEGER, maxRateLimitRetries: Number.MAX_SAFE_INTEGER }, internals);
  const { clock, signal } = state;
  const rate = new ServerClockRate(clock, opts.timeScale, 250);
  const call: CallOptions = { signal, timeout: opts.requestTimeout, maxRetries: 0 };
  const deadline = clock.now() + timeout;
  let step = interval;
  let last: Invoice | undefined;
  let errorSince: number | undefined;
  const grow = (): number => {
    const now = step;
    step = Math.min(maxInterval, step * WAIT_DEFAULTS.factor);
    return now;
  };
  const timedOut = (): WaitTimeoutError => new WaitTimeoutError({ invoiceId: id, lastInvoice: last, timeoutMs: timeout });

  for (;;) {
    const gated = state.gate.remaining();
    if (gated > 0 && gated > deadline - clock.now()) {
      await pause(clock, Math.max(0, deadline - clock.now()), signal);
      throw timedOut();
    }
    await state.gate.wait(signal);
    let sleepFor: number;
    try {
      const invoice = await api.retrieve(id, call);
      state.failures = 0;
      rate.observe(invoice.observedAt);
      if (changed(last, invoice)) notify('onStatus', api._logger, opts.onStatus, invoice, last);
      last = invoice;

      const serverNow = serverTime(invoice.observedAt);
      const reading = judge(invoice, serverNow, errorSince, finalStatuses);
      errorSince = reading.errorSince;
      if (reading.ended || (matches === undefined ? reading.final : matches(invoice))) return { invoice, failure: reading.failure };
      const next = nextTransition(spelledStatus(invoice));
      if (next !== undefined && !awaitsCaller) throw new NotSubmittedError({ invoice, nextStep: next });
      if (reading.recovery === 'in-progress') {
        const serverWait = nextRecoveryRead(invoice, serverNow);
        // Pace unknown yet: read at the normal pace rather than sleep long against a sped-up sandbox.
        const local = rate.toLocal(serverWait) ?? Math.min(serverWait, grow());
        sleepFor = Math.min(hardMax, Math.max(interval, local));
      } else {
        sleepFor = grow();
      }
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal, err);
      const delay = nextDelay(state, err);
      if (delay === undefined) throw err;
      sleepFor = Math.max(delay, interval);
    }

    const left = deadline - clock.now();
    if (left <= 0) throw timedOut();
    // At most to the deadline; the loop then reads once more.
    await pause(clock, Math.min(sleepFor, left), signal);
  }
}
