/**
 * Exactly-once state transitions. `validate`, `sign` and `submit` change the state of a document
 * filed with the tax authority, so none of them is ever sent twice blindly:
 *
 * 1. send once, with no automatic retry;
 * 2. after an ambiguous failure (dropped connection, timeout, 5xx, unreadable answer) the service may
 *    or may not have acted, so read the invoice: if it has already passed the step, the step is
 *    done; if it still sits where the step starts, send again (up to `maxRetries`, with backoff);
 * 3. a 409 or 400 is read back too: "already past that step" counts as done, "wrong state" becomes
 *    an {@link InvalidTransitionError} naming the status the invoice is in, and anything else (the
 *    invoice fails the service's checks) is the service's error, unretried;
 * 4. a 429 was refused before anything happened: wait for its `Retry-After` and send again;
 * 5. any other 4xx is the service's error, unretried.
 *
 * A submit of an invoice in `ERROR`, or in a status after `SUBMITTED` (`REJECTED`, …: what the
 * service does then is not shown, so it is sent and its answer reported, never taken for done), is
 * where "already passed" cannot be read from the status alone: there the record read before the send
 * (`baseline`) is compared with the one read after, and the submit is sent again only when the record
 * is provably untouched.
 */
import { InvalidTransitionError, RecoveryInProgressError } from '../core/errors.js';
import type { MutationRequestOptions } from '../core/request-options.js';
import type { Invoice } from '../model/invoice.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { abortReason, pause, realClock, type WaitClock } from './clock.js';
import {
  isAmbiguous,
  isRateLimited,
  nextDelay,
  resolvePolicy,
  statusOf,
  type FilingRetryOptions,
  type RateGate,
  type RetryCounters,
} from './retry.js';
import { RECOVERY_EVIDENCE, serverTime } from './failure.js';
import { scrubbed } from './redact.js';
import {
  canTransition,
  hasPassed,
  InvoiceStatus,
  isAfterSubmitted,
  nextAutomaticAttempt,
  recoveryVerdict,
  type FilingTransition,
} from '../model/status.js';

/**
 * Options of `client.invoices.validate / sign / submit`.
 *
 * @example
 * ```ts
 * const invoice = await client.invoices.submit(id, { maxRetries: 3, timeout: 10_000 });
 * ```
 */
export interface TransitionOptions extends MutationRequestOptions, FilingRetryOptions {
  /**
   * Further sends after an ambiguous failure, each only after a read showed the step not done
   * (default: the client's `maxRetries`). Never a blind resend.
   */
  maxRetries?: number | undefined;
  /**
   * `submit` only: send even while the service's automatic recovery is in play. Without it, a
   * submit of an invoice in `ERROR` that recovery will still pick up is refused locally with
   * `RecoveryInProgressError` (another submit does not speed recovery up).
   */
  force?: boolean | undefined;
}

/** How a transition ended: sent and answered, confirmed by reading back, or found already done. */
export type TransitionOutcome = 'sent' | 'confirmed' | 'already-done';

/** The result of {@link performTransition}. */
export interface TransitionResult {
  /** The invoice after the step. */
  invoice: Invoice;
  /** How the step was established. */
  outcome: TransitionOutcome;
  /** How many times the transition request was sent (0 when already done). */
  sends: number;
}

/**
 * Internal extras: the bulk runner's shared gate, and the record read before the step (without one,
 * a submit reads it first).
 */
export interface TransitionInternals {
  gate?: RateGate | undefined;
  baseline?: Invoice | undefined;
  clock?: WaitClock | undefined;
}

type Verdict = 'done' | 'not-yet' | 'wrong-state';

/**
 * Whether `current` shows `step` done. An invoice in `ERROR` or after `SUBMITTED` has passed
 * `submit` once, but that does not prove that *this* submit went through when the invoice was
 * already there before it: for such a re-submit (or an unknown baseline) it counts as done unless the
 * record is provably untouched since the baseline, and when every send so far was refused outright
 * (`refusedOnly`: a 409/400, so the service did not act) it does not count as done at all. From a
 * baseline before `ERROR` (`SIGNED`), an invoice now in `ERROR` was submitted since, by this send or
 * by another process whose submit made this one be refused: the step is done either way.
 */
export function judgeStep(
  step: FilingTransition,
  current: Invoice,
  context: { baseline?: Invoice | undefined; refusedOnly?: boolean } = {},
): Verdict {
  if (hasPassed(current.rawStatus ?? current.status, step)) {
    if (step === 'submit' && isResubmit(current)) {
      const baseline = context.baseline;
      const resubmit = baseline === undefined || isResubmit(baseline);
      if (resubmit && context.refusedOnly === true) return 'wrong-state';
      if (baseline !== undefined && resubmit && untouched(baseline, current)) return 'not-yet';
    }
    return 'done';
  }
  return canTransition(current.status, step) ? 'not-yet' : 'wrong-state';
}

/** A submit of an invoice in this state is a re-submit: in `ERROR`, or after `SUBMITTED`. */
function isResubmit(invoice: Invoice): boolean {
  return invoice.status === InvoiceStatus.ERROR || isAfterSubmitted(invoice.rawStatus ?? invoice.status);
}

/** True only when both records carry `updatedAt` and nothing that a submit changes has moved. */
function untouched(before: Invoice, after: Invoice): boolean {
  if (before.updatedAt === undefined || after.updatedAt === undefined) return false;
  return (
    before.updatedAt === after.updatedAt &&
    before.attempts === after.attempts &&
    before.rawStatus === after.rawStatus &&
    before.errorMessage === after.errorMessage
  );
}

function callOptions(opts: TransitionOptions): CallOptions {
  return { signal: opts.signal, timeout: opts.timeout, headers: opts.headers, maxRetries: 0 };
}

/**
 * Sends `step` for invoice `id` exactly once in effect (see the module comment). Resolves with the
 * invoice after the step; rejects with {@link InvalidTransitionError} when the invoice is in a state
 * that does not accept the step, or with the service's error otherwise.
 */
export async function performTransition(
  api: FilingInvoicesApi,
  id: string,
  step: FilingTransition,
  opts: TransitionOptions = {},
  internals: TransitionInternals = {},
): Promise<TransitionResult> {
  try {
    return await transitionOnce(api, id, step, opts, internals);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

async function transitionOnce(
  api: FilingInvoicesApi,
  id: string,
  step: FilingTransition,
  opts: TransitionOptions,
  internals: TransitionInternals,
): Promise<TransitionResult> {
  const clock = internals.clock ?? opts.clock ?? realClock;
  const policy = resolvePolicy(opts, clock, internals.gate);
  const counters: RetryCounters = { failures: 0, rateLimited: 0 };
  const call = callOptions(opts);
  let sends = 0;
  let lastError: unknown;
  /** True while no send could have been acted on: each was refused outright (409/400/429). */
  let refusedOnly = true;
  let baseline = internals.baseline;
  /**
   * Set when the invoice must be read before anything (else) is sent: after a failure, or first of
   * all (`'before'`) for a submit with no record from before it. A submit may be a deliberate
   * re-submit of an invoice in ERROR, which stays in ERROR whether or not the submit arrives: only
   * the record read before the send tells the two apart after a lost answer (one GET).
   */
  let readBack: 'before' | 'ambiguous' | 'refused' | 'final' | undefined =
    baseline === undefined && step === 'submit' ? 'before' : undefined;

  const fail = (err: unknown): never => {
    if (opts.signal?.aborted) throw abortReason(opts.signal, err);
    throw err;
  };

  for (;;) {
    await policy.gate.wait(opts.signal);

    if (readBack !== undefined) {
      let current: Invoice;
      try {
        current = await api.retrieve(id, call);
      } catch (err) {
        const delay = nextDelay(policy, err, counters);
        if (delay === undefined) fail(lastError ?? err);
        if (delay) await pause(clock, delay, opts.signal);
        continue;
      }
      if (readBack === 'before') {
        baseline = current;
        if (!isResubmit(current) && hasPassed(current.rawStatus ?? current.status, step)) {
          return { invoice: current, outcome: 'already-done', sends: 0 };
        }
      } else {
        const verdict = judgeStep(step, current, { baseline, refusedOnly });
        if (verdict === 'done') return { invoice: current, outcome: sends === 0 ? 'already-done' : 'confirmed', sends };
        if (verdict === 'wrong-state') {
          throw new InvalidTransitionError({
            invoiceId: id,
            transition: step,
            currentStatus: current.status,
            rawStatus: current.rawStatus,
            cause: lastError,
          });
        }
        // The invoice still sits where the step starts.
        if (readBack === 'refused' || readBack === 'final') fail(lastError);
      }
      readBack = undefined;
    }

    if (step === 'submit' && sends === 0 && opts.force !== true && baseline !== undefined) refuseDuringRecovery(baseline);

    try {
      sends += 1;
      const invoice = await api._transition(id, step, { ...call, idempotencyKey: opts.idempotencyKey });
      return { invoice, outcome: 'sent', sends };
    } catch (err) {
      // The request's own method and path, when the abort hit it in flight.
      if (opts.signal?.aborted) throw abortReason(opts.signal, err);
      lastError = err;
      if (isRateLimited(err)) {
        // Refused before anything happened: nothing to read back.
        if (nextDelay(policy, err, counters) === undefined) fail(err);
        continue;
      }
      const status = statusOf(err);
      if (status === 409 || status === 400 || status === 422) {
        // "Already past that step", "wrong state", or a real refusal: the record tells which.
        readBack = 'refused';
        continue;
      }
      if (!isAmbiguous(err)) fail(err);
      refusedOnly = false;
      const delay = nextDelay(policy, err, counters);
      // Out of tries: still read once, so a step that did go through is reported as done.
      readBack = delay === undefined ? 'final' : 'ambiguous';
      if (delay) await pause(clock, delay, opts.signal);
    }
  }
}

/**
 * The document's rule: while automatic recovery is in play, another submit does not speed it up, so
 * the invoice is followed rather than re-submitted. Judged on the service's clock.
 */
function refuseDuringRecovery(invoice: Invoice): void {
  const serverNow = serverTime(invoice.observedAt);
  const verdict = recoveryVerdict(invoice, serverNow);
  if (verdict.state !== 'in-progress') return;
  throw new RecoveryInProgressError({
    invoiceId: invoice.id,
    invoice,
    ...nextAutomaticAttempt(invoice, serverNow),
    hint:
      `Judged from ${RECOVERY_EVIDENCE[verdict.evidence ?? 'none']}. Follow the recovery with client.invoices.waitFor('${invoice.id}'); ` +
      'another submit does not speed it up. Submit with { force: true } only if the recovery cannot succeed.',
  });
}
