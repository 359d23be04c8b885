// When to retry (ky's backoff settings and the filing waits); whether to is core/retry.ts.

/** Backoff before the first retry, doubled for each further retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is cut to it. */
export const MAX_RETRY_AFTER_MS = 60_000;

export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Only a date that names its zone: `Date.parse` reads anything else in local time.
  if (!/\b(GMT|UTC|Z)\b|[+-]\d{2}:?\d{2}$/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** How long to wait before retry number `retriesSoFar + 1`. */
export function retryDelay(input: { retriesSoFar: number; retryAfterMs?: number | undefined; random?: () => number }): number {
  if (input.retryAfterMs !== undefined) return Math.min(input.retryAfterMs, MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** input.retriesSoFar);
  return Math.floor((input.random ?? Math.random)() * ceiling);
}

/** Waits `ms`, or rejects with the signal's reason as soon as `signal` aborts (also when it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
