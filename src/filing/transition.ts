// Exactly-once transitions: never resent blindly; after an ambiguous failure or a 409/400 the invoice is read back.
import { InvalidTransitionError, RecoveryInProgressError } from '../core/errors.js';
import type { MutationRequestOptions } from '../core/request-options.js';
import type { Invoice } from '../model/invoice.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { scrubbing } from './callbacks.js';
import { abortReason, pause } from './clock.js';
import { isAmbiguousError, isRateLimitedError } from '../core/retry.js';
import { nextDelay, retryState, statusOf, withRetries, type FilingInternals, type FilingRetryOptions } from './retry.js';
import { RECOVERY_EVIDENCE, serverTime } from './failure.js';
import { canTransition, hasPassed, InvoiceStatus, isAfterSubmitted, spelledStatus, type FilingTransition } from '../model/status.js';
import { nextAutomaticAttempt, recoveryVerdict } from '../model/status.js';

/** Options of `client.invoices.validate / sign / submit`. @example const invoice = await client.invoices.submit(id, { maxRetries: 3, timeout: 10_000 }); */
export interface TransitionOptions extends MutationRequestOptions, FilingRetryOptions {
  /** Further sends after an ambiguous failure, each after a read showed the step not done. */ maxRetries?: number | undefined;
  /** `submit` only: send even while automatic recovery is in play (else `RecoveryInProgressError`). */
  force?: boolean | undefined;
}

export interface TransitionResult {
  invoice: Invoice;
  outcome: 'sent' | 'confirmed' | 'already-done';
  sends: number;
}

type Verdict = 'done' | 'not-yet' | 'wrong-state';

// A re-submit counts as done unless the record is provably untouched since the baseline, and never when every send was refused.
function judgeStep(step: FilingTransition, current: Invoice, baseline: Invoice | undefined, refusedOnly: boolean): Verdict {
  if (hasPassed(spelledStatus(current), step)) {
    if (step === 'submit' && isResubmit(current)) {
      const resubmit = baseline === undefined || isResubmit(baseline);
      if (resubmit && refusedOnly) return 'wrong-state';
      if (baseline !== undefined && resubmit && untouched(baseline, current)) return 'not-yet';
    }
    return 'done';
  }
  return canTransition(current.status, step) ? 'not-yet' : 'wrong-state';
}

function isResubmit(invoice: Invoice): boolean {
  return invoice.status === InvoiceStatus.ERROR || isAfterSubmitted(spelledStatus(invoice));
}

function untouched(before: Invoice, after: Invoice): boolean {
  const same = (['updatedAt', 'attempts', 'rawStatus', 'errorMessage'] as const).every((key) => before[key] === after[key]);
  return same && before.updatedAt !== undefined;
}

export const performTransition = /* @__PURE__ */ scrubbing(transitionOnce);

async function transitionOnce(
  api: FilingInvoicesApi,
  id: string,
  step: FilingTransition,
  opts: TransitionOptions = {},
  internals: FilingInternals = {},
): Promise<TransitionResult> {
  const state = retryState(opts, internals);
  const call: CallOptions = { signal: opts.signal, timeout: opts.timeout, headers: opts.headers, maxRetries: 0 };
  let sends = 0;
  let lastError: unknown;
  // No send could have been acted on yet.
  let refusedOnly = true;
  let baseline = internals.baseline;
  // Read before sending: for a submit with no baseline, or after a failure (`last`: the read decides).
  let readBack: 'before' | 'again' | 'last' | undefined = baseline === undefined && step === 'submit' ? 'before' : undefined;

  const fail = (err: unknown): never => {
    if (opts.signal?.aborted) throw abortReason(opts.signal, err);
    throw err;
  };

  for (;;) {
    await state.gate.wait(opts.signal);

    if (readBack !== undefined) {
      const current = await withRetries(state, () => api.retrieve(id, call)).catch((err: unknown) => fail(lastError ?? err));
      if (readBack === 'before') {
        baseline = current;
        if (!isResubmit(current) && hasPassed(spelledStatus(current), step)) return { invoice: current, outcome: 'already-done', sends: 0 };
      } else {
        const verdict = judgeStep(step, current, baseline, refusedOnly);
        if (verdict === 'done') return { invoice: current, outcome: sends === 0 ? 'already-done' : 'confirmed', sends };
        if (verdict === 'wrong-state') {
          const { status: currentStatus, rawStatus } = current;
          throw new InvalidTransitionError({ invoiceId: id, transition: step, currentStatus, rawStatus, cause: lastError });
        }
        // The invoice still sits where the step starts.
        if (readBack === 'last') fail(lastError);
      }
      readBack = undefined;
    }

    if (step === 'submit' && sends === 0 && opts.force !== true && baseline !== undefined) refuseDuringRecovery(baseline);

    try {
      sends += 1;
      const invoice = await api._transition(id, step, { ...call, idempotencyKey: opts.idempotencyKey });
      return { invoice, outcome: 'sent', sends };
    } catch (err) {
      if (opts.signal?.aborted) throw abortReason(opts.signal, err);
      lastError = err;
      if (isRateLimitedError(err)) {
        if (nextDelay(state, err) === undefined) fail(err);
        continue;
      }
      const status = statusOf(err);
      if (status === 409 || status === 400 || status === 422) {
        // Already past the step, wrong state, or a real refusal: the record tells which.
        readBack = 'last';
        continue;
      }
      if (!isAmbiguousError(err)) fail(err);
      refusedOnly = false;
      const delay = nextDelay(state, err);
      // Out of tries: still read once, so a step that did go through is reported as done.
      readBack = delay === undefined ? 'last' : 'again';
      if (delay) await pause(state.clock, delay, opts.signal);
    }
  }
}

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
