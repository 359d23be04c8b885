/**
 * Retrying inside the filing workflow, for what the transport cannot know: a transition is read back
 * after an ambiguous failure before it is sent again (transition.ts), and a 429 pauses every worker
 * of a bulk run ({@link RateGate}). Whether a failure may pass later is core/retry.ts's one answer.
 */
import { InvoicingError } from '../core/errors.js';
import { isAmbiguousError, isRateLimitedError, mayPassLater } from '../core/retry.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, retryDelay } from '../core/retry-timing.js';
import { abortReason, pause, type WaitClock } from './clock.js';

/** The HTTP status an SDK error carries, if any. */
export function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** True for a 429. */
export const isRateLimited: (err: unknown) => boolean = isRateLimitedError;

/** `Retry-After` in milliseconds, as the transport parsed it onto the error, if present. */
export function retryAfterOf(err: unknown): number | undefined {
  const value = (err as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** True when it is unknown whether the service acted on the request. */
export const isAmbiguous: (err: unknown) => boolean = isAmbiguousError;

/** True when the same request may succeed if sent again. */
export const mayPass: (err: unknown) => boolean = mayPassLater;

/** A pause shared by every worker of a bulk run: a 429 seen by one holds them all back. */
export class RateGate {
  readonly #clock: WaitClock;
  #until = 0;

  constructor(clock: WaitClock) {
    this.#clock = clock;
  }

  /** Holds every caller of {@link wait} back for at least `ms` from now. */
  pause(ms: number): void {
    this.#until = Math.max(this.#until, this.#clock.now() + ms);
  }

  /** Milliseconds left of the pause in force (0 when none). */
  remaining(): number {
    return Math.max(0, this.#until - this.#clock.now());
  }

  /** Resolves once no pause is in force; rejects at once when `signal` aborts. */
  async wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const left = this.#until - this.#clock.now();
      if (left <= 0) return;
      await pause(this.#clock, left, signal);
    }
  }
}

/** How the filing helpers retry: the clock to sleep on, the shared {@link RateGate}, and the budgets. */
export interface RetryPolicy {
  clock: WaitClock;
  gate: RateGate;
  signal?: AbortSignal | undefined;
  /** Further tries after ambiguous failures (connection, timeout, 5xx). */
  maxRetries: number;
  /** Further tries after 429s, each after its `Retry-After` (by default `maxRetries`). */
  maxRateLimitRetries: number;
}

/** Failure counts of one logical call, kept across its tries. */
export interface RetryCounters {
  failures: number;
  rateLimited: number;
}

/**
 * Decides what follows a failed try: the wait in ms before the next one, or `undefined` to give up.
 * A 429 pauses the shared gate for its `Retry-After` (the wait is then spent at the gate); a
 * `Retry-After` beyond the transport's cap ends the retries at once, as in the transport, so the
 * caller decides. `ambiguousRetry` says whether an ambiguous failure may be retried by this caller.
 */
export function nextDelay(policy: RetryPolicy, err: unknown, counters: RetryCounters, ambiguousRetry = true): number | undefined {
  if (policy.signal?.aborted) return undefined;
  const after = retryAfterOf(err);
  if (after !== undefined && after > MAX_RETRY_AFTER_MS) return undefined;
  if (isRateLimited(err)) {
    counters.rateLimited += 1;
    if (counters.rateLimited > policy.maxRateLimitRetries) return undefined;
    // Without a Retry-After, back off as for a fault, but never not at all.
    policy.gate.pause(after ?? Math.max(INITIAL_RETRY_DELAY_MS, retryDelay({ retriesSoFar: counters.rateLimited - 1 })));
    return 0;
  }
  if (ambiguousRetry && isAmbiguous(err)) {
    counters.failures += 1;
    if (counters.failures > policy.maxRetries) return undefined;
    return retryDelay({ retriesSoFar: counters.failures - 1, retryAfterMs: after });
  }
  return undefined;
}

/**
 * Runs an idempotent call (a read, or a create carrying its idempotency key) until it succeeds or
 * {@link nextDelay} gives up, waiting at the shared gate before every try.
 */
export async function withRetries<T>(policy: RetryPolicy, call: () => Promise<T>): Promise<T> {
  const counters: RetryCounters = { failures: 0, rateLimited: 0 };
  for (;;) {
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

/**
 * Retry settings every filing helper accepts.
 *
 * @example
 * ```ts
 * await client.invoices.sign(id, { maxRetries: 4, signal: AbortSignal.timeout(30_000) });
 * ```
 */
export interface FilingRetryOptions {
  /** Aborts the call at once, also during a backoff wait. */
  signal?: AbortSignal | undefined;
  /**
   * Further tries after an ambiguous failure (connection, timeout, 5xx). Through `client.invoices`
   * the default is the client's `maxRetries`; called directly, 2.
   */
  maxRetries?: number | undefined;
  /**
   * Further tries after a 429, each after its `Retry-After` (default: the same as `maxRetries`).
   * Raise it for a large `fileMany` run against a strict rate limit.
   */
  maxRateLimitRetries?: number | undefined;
  /** The clock to sleep on (default the real clock); tests pass a simulated one. */
  clock?: WaitClock | undefined;
}

/** The defaults of {@link FilingRetryOptions}. */
export const RETRY_DEFAULTS = {
  maxRetries: 2,
} as const;

/** Builds a {@link RetryPolicy}; `gate` is shared by the workers of a bulk run, else private. */
export function resolvePolicy(opts: FilingRetryOptions, clock: WaitClock, gate?: RateGate): RetryPolicy {
  const maxRetries = checkCount('maxRetries', opts.maxRetries ?? RETRY_DEFAULTS.maxRetries);
  return {
    clock,
    gate: gate ?? new RateGate(clock),
    signal: opts.signal,
    maxRetries,
    // sdk-api.md: "never beyond maxRetries", 429s included, unless the caller asks for more.
    maxRateLimitRetries: checkCount('maxRateLimitRetries', opts.maxRateLimitRetries ?? maxRetries),
  };
}

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvoicingError(`${name} must be an integer >= 0, got ${String(value)}`);
  }
  return value;
}
