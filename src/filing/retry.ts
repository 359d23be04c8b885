// Filing retries: read-back before resending a transition, and one 429 gate shared by a bulk run's workers.
import { InvoicingError } from '../core/errors.js';
import { isAmbiguousError, isRateLimitedError } from '../core/retry.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, retryDelay } from '../core/retry-timing.js';
import type { Invoice } from '../model/invoice.js';
import { abortReason, pause, realClock, type WaitClock } from './clock.js';

export const statusOf = (err: unknown): unknown => (err as { status?: unknown } | null)?.status;

/** `value` when it is a finite number (an integer if asked) at least `min` (above it with `above`). */
export function checkNumber(name: string, value: unknown, min: number, integer = false, above = false, tip = ''): number {
  const ok = typeof value === 'number' && Number.isFinite(value) && (above ? value > min : value >= min);
  if (ok && (!integer || Number.isInteger(value))) return value;
  throw new InvoicingError(
    `${name} must be a finite ${integer ? 'integer' : 'number'} ${above ? '>' : '>='} ${min}, got ${String(value)}${tip === '' ? '' : `.${tip}`}`,
    { hint: tip.trim() || undefined },
  );
}

/** A pause shared by every worker of a bulk run. */
export class RateGate {
  #until = 0;

  constructor(readonly clock: WaitClock) {}

  pause(ms: number): void {
    this.#until = Math.max(this.#until, this.clock.now() + ms);
  }

  remaining(): number {
    return Math.max(0, this.#until - this.clock.now());
  }

  async wait(signal?: AbortSignal): Promise<void> {
    for (let left = this.remaining(); left > 0; left = this.remaining()) await pause(this.clock, left, signal);
    if (signal?.aborted) throw abortReason(signal);
  }
}

/** What a bulk run shares with each filing call; `baseline`: the record a transition starts from. */
export interface FilingInternals {
  gate?: RateGate | undefined;
  baseline?: Invoice | undefined;
}

/** The retry limits of one logical call, and its failure counts so far. */
type RetryState = ReturnType<typeof retryState>;

/** The wait in ms before the next try, or `undefined` to give up; a 429 pauses the shared gate instead. */
export function nextDelay(state: RetryState, err: unknown): number | undefined {
  const raw = (err as { retryAfter?: unknown } | null)?.retryAfter;
  const after = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : undefined;
  if (after !== undefined && after > MAX_RETRY_AFTER_MS) return undefined;
  if (isRateLimitedError(err)) {
    if (++state.rateLimited > state.maxRateLimitRetries) return undefined;
    state.gate.pause(after ?? Math.max(INITIAL_RETRY_DELAY_MS, retryDelay({ retriesSoFar: state.rateLimited - 1 })));
    return 0;
  }
  if (!isAmbiguousError(err) || ++state.failures > state.maxRetries) return undefined;
  return retryDelay({ retriesSoFar: state.failures - 1, retryAfterMs: after });
}

/** Runs a call until it succeeds or {@link nextDelay} gives up; a 429 holds every worker on the gate. */
export async function withRetries<T>(state: RetryState, call: () => Promise<T>, beforeEach?: () => Promise<void>): Promise<T> {
  for (;;) {
    await beforeEach?.();
    await state.gate.wait(state.signal);
    try {
      return await call();
    } catch (err) {
      if (state.signal?.aborted) throw abortReason(state.signal, err);
      const delay = nextDelay(state, err);
      if (delay === undefined) throw err;
      if (delay > 0) await pause(state.clock, delay, state.signal);
    }
  }
}

/** Retry settings every filing helper accepts. @example await client.invoices.sign(id, { maxRetries: 4, signal: AbortSignal.timeout(30_000) }); */
export interface FilingRetryOptions {
  /** Aborts the call at once, also during a backoff wait. */ signal?: AbortSignal | undefined;
  /** Further tries after an ambiguous failure (default: the client's `maxRetries`). */ maxRetries?: number | undefined;
  /** Further tries after a 429, each after its `Retry-After` (default: `maxRetries`). */ maxRateLimitRetries?: number | undefined;
  /** The clock to sleep on (default the real clock). */ clock?: WaitClock | undefined;
}

export function retryState(opts: FilingRetryOptions, internals: FilingInternals = {}) {
  const clock = opts.clock ?? realClock;
  const maxRetries = checkNumber('maxRetries', opts.maxRetries ?? 2, 0, true);
  // sdk-api.md: 429s never beyond maxRetries unless asked.
  const maxRateLimitRetries = checkNumber('maxRateLimitRetries', opts.maxRateLimitRetries ?? maxRetries, 0, true);
  const gate = internals.gate ?? new RateGate(clock);
  return { clock, gate, signal: opts.signal, maxRetries, maxRateLimitRetries, failures: 0, rateLimited: 0 };
}
