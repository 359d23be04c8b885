// Filing retries: read-back before resending a transition, and one 429 gate shared by a bulk run's workers.
import { InvoicingError } from '../core/errors.js';
import { isAmbiguousError, isRateLimitedError, mayPassLater } from '../core/retry.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, retryDelay } from '../core/retry-timing.js';
import { abortReason, pause, type WaitClock } from './clock.js';

export function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export const isRateLimited: (err: unknown) => boolean = isRateLimitedError;
export const isAmbiguous: (err: unknown) => boolean = isAmbiguousError;
export const mayPass: (err: unknown) => boolean = mayPassLater;

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

export interface RetryPolicy {
  clock: WaitClock;
  gate: RateGate;
  signal?: AbortSignal | undefined;
  maxRetries: number;
  maxRateLimitRetries: number;
}

/** Failure counts of one logical call, kept across its tries. */
export interface RetryCounters {
  failures: number;
  rateLimited: number;
}

/** The wait in ms before the next try, or `undefined` to give up; a 429 pauses the shared gate instead. */
export function nextDelay(policy: RetryPolicy, err: unknown, counters: RetryCounters, ambiguousRetry = true): number | undefined {
  if (policy.signal?.aborted) return undefined;
  const raw = (err as { retryAfter?: unknown } | null)?.retryAfter;
  const after = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw : undefined;
  if (after !== undefined && after > MAX_RETRY_AFTER_MS) return undefined;
  if (isRateLimited(err)) {
    if (++counters.rateLimited > policy.maxRateLimitRetries) return undefined;
    policy.gate.pause(after ?? Math.max(INITIAL_RETRY_DELAY_MS, retryDelay({ retriesSoFar: counters.rateLimited - 1 })));
    return 0;
  }
  if (!ambiguousRetry || !isAmbiguous(err) || ++counters.failures > policy.maxRetries) return undefined;
  return retryDelay({ retriesSoFar: counters.failures - 1, retryAfterMs: after });
}

/** Runs a call until it succeeds or {@link nextDelay} gives up; a 429 holds every worker on the gate. */
export async function withRetries<T>(
  policy: RetryPolicy,
  call: () => Promise<T>,
  counters: RetryCounters = { failures: 0, rateLimited: 0 },
  beforeEach?: () => Promise<void>,
): Promise<T> {
  for (;;) {
    await beforeEach?.();
    await policy.gate.wait(policy.signal);
    try {
      return await call();
    } catch (err) {
      if (policy.signal?.aborted) throw abortReason(policy.signal, err);
      const delay = nextDelay(policy, err, counters);
      if (delay === undefined) throw err;
      if (delay > 0) await pause(policy.clock, delay, policy.signal);
    }
  }
}

/** Retry settings every filing helper accepts. @example await client.invoices.sign(id, { maxRetries: 4, signal: AbortSignal.timeout(30_000) }); */
export interface FilingRetryOptions {
  /** Aborts the call at once, also during a backoff wait. */
  signal?: AbortSignal | undefined;
  /** Further tries after an ambiguous failure (default: the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Further tries after a 429, each after its `Retry-After` (default: `maxRetries`). */
  maxRateLimitRetries?: number | undefined;
  /** The clock to sleep on (default the real clock). */
  clock?: WaitClock | undefined;
}

export function resolvePolicy(opts: FilingRetryOptions, clock: WaitClock, gate?: RateGate): RetryPolicy {
  const maxRetries = checkNumber('maxRetries', opts.maxRetries ?? 2, 0, true);
  // sdk-api.md: 429s never beyond maxRetries unless asked.
  const maxRateLimitRetries = checkNumber('maxRateLimitRetries', opts.maxRateLimitRetries ?? maxRetries, 0, true);
  return { clock, gate: gate ?? new RateGate(clock), signal: opts.signal, maxRetries, maxRateLimitRetries };
}
