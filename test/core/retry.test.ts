import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InternalServerError, InvalidResponseError, InvoicingError, RateLimitError, ResponseTooLargeError } from '../../src/core/errors.js';
import {
  failureOf,
  isAmbiguousError,
  isRetryableError,
  mayPassLater,
  shouldRetry,
  type RetryDecisionInput,
} from '../../src/core/retry.js';

describe('core/retry shouldRetry', () => {
  const base: RetryDecisionInput = {
    method: 'GET',
    hasIdempotencyKey: false,
    failure: { kind: 'connection' },
  };

  it.each([408, 429, 500, 502, 503, 504])('retries HTTP %i', (status) => {
    expect(shouldRetry({ ...base, failure: { kind: 'status', status } })).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422, 501, 505])('does not retry HTTP %i', (status) => {
    expect(shouldRetry({ ...base, failure: { kind: 'status', status } })).toBe(false);
  });

  it('retries connection errors and timeouts', () => {
    expect(shouldRetry({ ...base, failure: { kind: 'connection' } })).toBe(true);
    expect(shouldRetry({ ...base, failure: { kind: 'timeout' } })).toBe(true);
  });

  it('retries a POST only when it carries an idempotency key', () => {
    expect(shouldRetry({ ...base, method: 'POST', hasIdempotencyKey: false })).toBe(false);
    expect(shouldRetry({ ...base, method: 'POST', hasIdempotencyKey: true })).toBe(true);
  });
});

describe('core/retry error helpers', () => {
  const at = { method: 'GET', path: '/api/v1/invoices' };

  it('retries connection errors, timeouts and the retryable statuses', () => {
    expect(isRetryableError(new APIConnectionError(at))).toBe(true);
    expect(isRetryableError(new APIConnectionTimeoutError(at))).toBe(true);
    expect(isRetryableError(new RateLimitError({ ...at, message: 'slow', status: 429 }))).toBe(true);
    expect(isRetryableError(new InternalServerError({ ...at, message: 'x', status: 503 }))).toBe(true);
  });

  it('never retries aborts, too-large bodies, refusals and local errors', () => {
    expect(isRetryableError(new APIUserAbortError(at))).toBe(false);
    expect(isRetryableError(new ResponseTooLargeError({ ...at, message: 'big', status: 200, limit: 10 }))).toBe(false);
    expect(isRetryableError(new APIError({ ...at, message: 'bad', status: 400 }))).toBe(false);
    expect(isRetryableError(new InvoicingError('local'))).toBe(false);
    expect(isRetryableError(new Error('other'))).toBe(false);
    expect(failureOf(new ResponseTooLargeError({ ...at, message: 'big', status: 200, limit: 10 }))).toEqual({ kind: 'too-large' });
  });

  it('calls a failure ambiguous when the request may have taken effect', () => {
    expect(isAmbiguousError(new APIConnectionError(at))).toBe(true);
    expect(isAmbiguousError(new InvalidResponseError({ ...at, message: 'x', status: 200 }))).toBe(true);
    expect(isAmbiguousError(new APIError({ ...at, message: 'x', status: 502 }))).toBe(true);
    expect(isAmbiguousError(new APIError({ ...at, message: 'x', status: 408 }))).toBe(true);
    expect(isAmbiguousError(new RateLimitError({ ...at, message: 'x', status: 429 }))).toBe(false);
    expect(isAmbiguousError(new APIUserAbortError(at))).toBe(false);
    expect(isAmbiguousError(new ResponseTooLargeError({ ...at, message: 'big', status: 200, limit: 10 }))).toBe(false);
  });

  it('says a request may pass later after ambiguous failures, 429s and aborts, never after a refusal', () => {
    expect(mayPassLater(new APIConnectionError(at))).toBe(true);
    expect(mayPassLater(new RateLimitError({ ...at, message: 'x', status: 429 }))).toBe(true);
    expect(mayPassLater(new APIUserAbortError(at))).toBe(true);
    expect(mayPassLater(new APIError({ ...at, message: 'x', status: 400 }))).toBe(false);
    expect(mayPassLater(new APIError({ ...at, message: 'x', status: 404 }))).toBe(false);
  });
});
