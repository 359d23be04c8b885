// The one answer to "may this be retried?" for the transport, the filing workflow and the CLI. Pure.
import { isErrorKind } from './errors.js';

export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

export type AttemptFailure = { kind: 'connection' | 'timeout' | 'too-large' | 'aborted' | 'local' } | { kind: 'status'; status: number };

/** Everything {@link shouldRetry} decides on (the retry budget is ky's); a POST is retried only with an `idempotency-key`. */
export interface RetryDecisionInput {
  method: string;
  hasIdempotencyKey: boolean;
  failure: AttemptFailure;
}

export function shouldRetry(input: RetryDecisionInput): boolean {
  // A POST without an idempotency key may have been carried out already; repeating it could file twice.
  if (input.method.toUpperCase() === 'POST' && !input.hasIdempotencyKey) return false;
  return isRetryableFailure(input.failure);
}

// Too large, aborted and local refusals fail the same way again; 4xx and 501 give the same answer.
function isRetryableFailure(failure: AttemptFailure): boolean {
  if (failure.kind === 'status') return RETRYABLE_STATUSES.includes(failure.status);
  return failure.kind === 'connection' || failure.kind === 'timeout';
}

const statusOf = (err: unknown): unknown => (isErrorKind(err, 'APIError') ? (err as { status?: unknown }).status : undefined);

/** The {@link AttemptFailure} an SDK error stands for (read by `name`). */
export function failureOf(err: unknown): AttemptFailure {
  // Before their parents: an abort and a too-large body are APIErrors too.
  if (isErrorKind(err, 'APIUserAbortError')) return { kind: 'aborted' };
  if (isErrorKind(err, 'ResponseTooLargeError')) return { kind: 'too-large' };
  if (isErrorKind(err, 'APIConnectionTimeoutError')) return { kind: 'timeout' };
  if (isErrorKind(err, 'APIConnectionError')) return { kind: 'connection' };
  const status = statusOf(err);
  return typeof status === 'number' ? { kind: 'status', status } : { kind: 'local' };
}

/** True when sending the same request again may succeed. @example if (isRetryableError(err)) console.log('try again later'); */
export function isRetryableError(err: unknown): boolean {
  return isRetryableFailure(failureOf(err));
}

/** True when it is unknown whether the service acted (no answer, 408, 5xx, unreadable answer). @example if (isAmbiguousError(err)) await client.invoices.retrieve(id); */
export function isAmbiguousError(err: unknown): boolean {
  if (isErrorKind(err, 'APIUserAbortError') || isErrorKind(err, 'ResponseTooLargeError')) return false;
  if (isErrorKind(err, 'APIConnectionError') || isErrorKind(err, 'InvalidResponseError') || isErrorKind(err, 'InternalServerError')) return true;
  const status = statusOf(err);
  return typeof status === 'number' && (status === 408 || status >= 500);
}

/** True for a 429: the service refused the request before doing anything with it. */
export function isRateLimitedError(err: unknown): boolean {
  return isErrorKind(err, 'RateLimitError') || statusOf(err) === 429;
}

/** True when the same request may succeed later: an ambiguous failure, a 429 or an abort. @example if (!mayPassLater(err)) console.error('fix the input first'); */
export function mayPassLater(err: unknown): boolean {
  return isAmbiguousError(err) || isRateLimitedError(err) || isErrorKind(err, 'APIUserAbortError');
}
