// The one answer to "may this be retried?" for the transport, the filing workflow and the CLI. Pure.
import { isErrorKind } from './errors.js';

/** The statuses a retry may cure: 408, 429 and the transient 500, 502, 503, 504. @example RETRYABLE_STATUSES.includes(503); // true */
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/** The failure of one attempt. @example const failure: AttemptFailure = { kind: 'status', status: 503 }; */
export type AttemptFailure =
  | {
      /** What went wrong. */
      kind: 'connection' | 'timeout' | 'too-large' | 'aborted' | 'local';
    }
  | {
      /** The service answered with a non-2xx status. */
      kind: 'status';
      /** The status the service answered. */
      status: number;
    };

/** Everything {@link shouldRetry} decides on. @example const input: RetryDecisionInput = { method: 'POST', hasIdempotencyKey: true, retriesSoFar: 0, maxRetries: 2, failure: { kind: 'timeout' } }; */
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

/** Whether to retry after a failed attempt. @example shouldRetry({ method: 'GET', hasIdempotencyKey: false, retriesSoFar: 0, maxRetries: 2, failure: { kind: 'status', status: 429 } }); // true */
export function shouldRetry(input: RetryDecisionInput): boolean {
  if (input.retriesSoFar >= input.maxRetries) return false;
  // A POST without an idempotency key may have been carried out already; repeating it could file twice.
  if (input.method.toUpperCase() === 'POST' && !input.hasIdempotencyKey) return false;
  return isRetryableFailure(input.failure);
}

/** Whether a failure of this kind may be cured by sending the same request again. @example isRetryableFailure({ kind: 'status', status: 400 }); // false */
export function isRetryableFailure(failure: AttemptFailure): boolean {
  // Too large, aborted and local refusals fail the same way again; 4xx and 501 give the same answer.
  if (failure.kind === 'status') return RETRYABLE_STATUSES.includes(failure.status);
  return failure.kind === 'connection' || failure.kind === 'timeout';
}

/** The {@link AttemptFailure} an SDK error stands for (read by `name`). @example failureOf(err); // { kind: 'status', status: 503 } */
export function failureOf(err: unknown): AttemptFailure {
  // Before their parents: an abort and a too-large body are APIErrors too.
  if (isErrorKind(err, 'APIUserAbortError')) return { kind: 'aborted' };
  if (isErrorKind(err, 'ResponseTooLargeError')) return { kind: 'too-large' };
  if (isErrorKind(err, 'APIConnectionTimeoutError')) return { kind: 'timeout' };
  if (isErrorKind(err, 'APIConnectionError')) return { kind: 'connection' };
  const status = (err as { status?: unknown } | null)?.status;
  if (isErrorKind(err, 'APIError') && typeof status === 'number') return { kind: 'status', status };
  return { kind: 'local' };
}

/** True when sending the same request again may succeed. @example if (isRetryableError(err)) console.log('try again later'); */
export function isRetryableError(err: unknown): boolean {
  return isRetryableFailure(failureOf(err));
}

/** True when it is unknown whether the service acted (no answer, 408, 5xx, unreadable answer). @example if (isAmbiguousError(err)) await client.invoices.retrieve(id); */
export function isAmbiguousError(err: unknown): boolean {
  if (isErrorKind(err, 'APIUserAbortError') || isErrorKind(err, 'ResponseTooLargeError')) return false;
  if (isErrorKind(err, 'APIConnectionError') || isErrorKind(err, 'InvalidResponseError') || isErrorKind(err, 'InternalServerError')) return true;
  const status = (err as { status?: unknown } | null)?.status;
  return isErrorKind(err, 'APIError') && typeof status === 'number' && (status === 408 || status >= 500);
}

/** True for a 429: the service refused the request before doing anything with it. @example if (isRateLimitedError(err)) console.log('slow down'); */
export function isRateLimitedError(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return isErrorKind(err, 'RateLimitError') || (isErrorKind(err, 'APIError') && status === 429);
}

/** True when the same request may succeed later: an ambiguous failure, a 429 or an abort. @example if (!mayPassLater(err)) console.error('fix the input first'); */
export function mayPassLater(err: unknown): boolean {
  return isAmbiguousError(err) || isRateLimitedError(err) || isErrorKind(err, 'APIUserAbortError');
}
