/**
 * The one answer to "may this be retried?", for every caller: the transport (through ky's
 * `retry.shouldRetry`), the filing workflow (which reads a transition back before it sends it again)
 * and the CLI. Pure: nothing here sends, sleeps or reads a clock.
 */
import { isErrorKind } from './errors.js';

/**
 * The HTTP statuses a retry may cure: 408 Request Timeout, 429 Too Many Requests, and the transient
 * server-side 500, 502, 503, 504.
 *
 * @example
 * ```ts
 * import { RETRYABLE_STATUSES } from 'invoicing-sdk';
 * RETRYABLE_STATUSES.includes(503); // true
 * ```
 */
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/**
 * The failure of one attempt, as the retry decision sees it.
 *
 * @example
 * ```ts
 * import type { AttemptFailure } from 'invoicing-sdk';
 * const failure: AttemptFailure = { kind: 'status', status: 503 };
 * ```
 */
export type AttemptFailure =
  | {
      /** No response arrived (refused, reset, DNS). */
      kind: 'connection';
    }
  | {
      /** The attempt ran out of time. */
      kind: 'timeout';
    }
  | {
      /** The service answered with a non-2xx status. */
      kind: 'status';
      /** That status. */
      status: number;
    }
  | {
      /** The body was over `maxResponseBytes`. */
      kind: 'too-large';
    }
  | {
      /** The caller's signal aborted the call. */
      kind: 'aborted';
    }
  | {
      /** Refused locally before anything was sent. */
      kind: 'local';
    };

/**
 * Everything {@link shouldRetry} decides on.
 *
 * @example
 * ```ts
 * import type { RetryDecisionInput } from 'invoicing-sdk';
 * const input: RetryDecisionInput = {
 *   method: 'POST', hasIdempotencyKey: true, retriesSoFar: 0, maxRetries: 2, failure: { kind: 'timeout' },
 * };
 * ```
 */
export interface RetryDecisionInput {
  /** The HTTP method of the call. */
  method: string;
  /** Whether the request carries an `idempotency-key` (a POST is retried only with one). */
  hasIdempotencyKey: boolean;
  /** Retries already made for this call. */
  retriesSoFar: number;
  /** The most retries allowed for this call. */
  maxRetries: number;
  /** What went wrong with the last attempt. */
  failure: AttemptFailure;
}

/**
 * Whether to retry after a failed attempt. Pure: the same input always gives the same answer.
 *
 * @example
 * ```ts
 * import { shouldRetry } from 'invoicing-sdk';
 * shouldRetry({ method: 'GET', hasIdempotencyKey: false, retriesSoFar: 0, maxRetries: 2, failure: { kind: 'status', status: 429 } }); // true
 * ```
 */
export function shouldRetry(input: RetryDecisionInput): boolean {
  // The budget is spent: per-call `maxRetries` wins over the client's, and both are hard limits.
  if (input.retriesSoFar >= input.maxRetries) return false;
  // A POST without an idempotency key may have been carried out before the failure; repeating it
  // could create (or file) twice. With a key the service returns the first result instead.
  if (input.method.toUpperCase() === 'POST' && !input.hasIdempotencyKey) return false;
  return isRetryableFailure(input.failure);
}

/**
 * Whether a failure of this kind may be cured by sending the same request again, budget and method
 * aside.
 *
 * @example
 * ```ts
 * import { isRetryableFailure } from 'invoicing-sdk';
 * isRetryableFailure({ kind: 'status', status: 400 }); // false
 * ```
 */
export function isRetryableFailure(failure: AttemptFailure): boolean {
  switch (failure.kind) {
    // No response: the request may not have reached the service; safe to repeat (see above).
    case 'connection':
      return true;
    // The attempt ran out of time; a slow moment rarely lasts.
    case 'timeout':
      return true;
    // Too large once is too large every time: the same page would be sent again.
    case 'too-large':
      return false;
    // The caller asked to stop.
    case 'aborted':
      return false;
    // Refused before sending (bad header, missing credential): the same call fails the same way.
    case 'local':
      return false;
    // 408, 429 and the transient 5xx; anything else (4xx, 501, …) gives the same answer again.
    case 'status':
      return RETRYABLE_STATUSES.includes(failure.status);
  }
}

/**
 * The {@link AttemptFailure} an SDK error stands for (read by `name`, so it works across realms).
 *
 * @example
 * ```ts
 * import { failureOf } from 'invoicing-sdk';
 * failureOf(err); // { kind: 'status', status: 503 }
 * ```
 */
export function failureOf(err: unknown): AttemptFailure {
  // Before its parents: an abort and a too-large body are APIErrors too.
  if (isErrorKind(err, 'APIUserAbortError')) return { kind: 'aborted' };
  if (isErrorKind(err, 'ResponseTooLargeError')) return { kind: 'too-large' };
  if (isErrorKind(err, 'APIConnectionTimeoutError')) return { kind: 'timeout' };
  if (isErrorKind(err, 'APIConnectionError')) return { kind: 'connection' };
  const status = (err as { status?: unknown } | null)?.status;
  if (isErrorKind(err, 'APIError') && typeof status === 'number') return { kind: 'status', status };
  return { kind: 'local' };
}

/**
 * True when sending the same request again may succeed: a connection error, a timeout, 408, 429,
 * 500, 502, 503 or 504. False for aborts, too-large bodies, refusals (4xx) and local errors.
 *
 * @example
 * ```ts
 * import { isRetryableError } from 'invoicing-sdk';
 * try { await client.invoices.list(); } catch (err) { if (isRetryableError(err)) console.log('try again later'); }
 * ```
 */
export function isRetryableError(err: unknown): boolean {
  return isRetryableFailure(failureOf(err));
}

/**
 * True when a failure leaves it unknown whether the service acted on the request: no answer (dropped
 * connection, timeout), a 5xx or 408, or an answer whose body could not be read. Such a request may
 * have been committed, so it is read back (transitions) or replayed with its idempotency key
 * (create) rather than trusted either way.
 *
 * @example
 * ```ts
 * import { isAmbiguousError } from 'invoicing-sdk';
 * if (isAmbiguousError(err)) await client.invoices.retrieve(id); // did it happen?
 * ```
 */
export function isAmbiguousError(err: unknown): boolean {
  if (isErrorKind(err, 'APIUserAbortError') || isErrorKind(err, 'ResponseTooLargeError')) return false;
  if (isErrorKind(err, 'APIConnectionError') || isErrorKind(err, 'InvalidResponseError')) return true;
  if (isErrorKind(err, 'InternalServerError')) return true;
  const status = (err as { status?: unknown } | null)?.status;
  return isErrorKind(err, 'APIError') && typeof status === 'number' && (status === 408 || status >= 500);
}

/**
 * True for a 429: the service refused the request before doing anything with it.
 *
 * @example
 * ```ts
 * import { isRateLimitedError } from 'invoicing-sdk';
 * if (isRateLimitedError(err)) console.log('slow down');
 * ```
 */
export function isRateLimitedError(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return isErrorKind(err, 'RateLimitError') || (isErrorKind(err, 'APIError') && status === 429);
}

/**
 * True when the same request may succeed if sent again later: an ambiguous failure (see
 * {@link isAmbiguousError}), a 429, or an abort. Anything else the service answered (400, 401, 403,
 * 404, a key conflict) is a refusal the same request would get again. The filing workflow and the
 * CLI decide with it whether "run it again" is worth saying.
 *
 * @example
 * ```ts
 * import { mayPassLater } from 'invoicing-sdk';
 * if (!mayPassLater(err)) console.error('fix the input first');
 * ```
 */
export function mayPassLater(err: unknown): boolean {
  return isAmbiguousError(err) || isRateLimitedError(err) || isErrorKind(err, 'APIUserAbortError');
}
