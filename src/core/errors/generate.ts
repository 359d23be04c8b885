import { parseRetryAfter } from '../retry-timing.js';
import { statusText } from '../status-text.js';
import { APIError, type APIErrorInit } from './api-error.js';
import { AuthenticationError } from './authentication-error.js';
import { BadRequestError } from './bad-request-error.js';
import { summarizeBody } from './body-message.js';
import { BusinessNotFoundError } from './business-not-found-error.js';
import { ConflictError } from './conflict-error.js';
import { hintFor, isBusinessNotFound, isIdempotencyConflict } from './hints.js';
import { IdempotencyConflictError } from './idempotency-conflict-error.js';
import { InternalServerError } from './internal-server-error.js';
import { NotFoundError } from './not-found-error.js';
import { PermissionDeniedError } from './permission-denied-error.js';
import { RateLimitError } from './rate-limit-error.js';

/**
 * An error response, as the transport received it.
 *
 * @example
 * ```ts
 * import { generateAPIError } from 'invoicing-sdk';
 * const err = generateAPIError({
 *   status: 404, headers: new Headers(), body: { message: 'Business not found' },
 *   method: 'POST', path: '/api/v1/invoices',
 * });
 * ```
 */
export interface ErrorResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (`x-request-id`, `Retry-After`). */
  headers: Headers | undefined;
  /** The body: parsed JSON, or the text when it was not JSON, or `undefined` when empty. */
  body: unknown;
  /** Request method. */
  method: string;
  /** Request path, e.g. `/api/v1/invoices`. */
  path: string;
}

/**
 * The one factory from a response to an error: reads the body whatever its shape, picks the class by
 * status (and, for 404 and 409, by the service's words), and adds the hint the service document
 * supports.
 *
 * @example
 * ```ts
 * import { generateAPIError, isRateLimitError } from 'invoicing-sdk';
 * const err = generateAPIError({
 *   status: 429, headers: new Headers({ 'retry-after': '2' }), body: 'slow down',
 *   method: 'GET', path: '/api/v1/invoices',
 * });
 * isRateLimitError(err) && err.retryAfter; // 2000
 * ```
 */
export function generateAPIError(response: ErrorResponse): APIError {
  const { status, headers, body, method, path } = response;
  const summary = summarizeBody(body);
  const fallback = `${status} ${statusText(status) ?? 'HTTP error'}`;
  const init: APIErrorInit = {
    message: summary.message ?? fallback,
    status,
    code: summary.code,
    body,
    requestId: requestIdOf(headers),
    method,
    path,
    hint: hintFor({ status, message: summary.message, method, path }),
  };
  switch (status) {
    case 400:
    case 422:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return isBusinessNotFound(summary.message) ? new BusinessNotFoundError(init) : new NotFoundError(init);
    case 409:
      return isIdempotencyConflict(summary.message) ? new IdempotencyConflictError(init) : new ConflictError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfter: parseRetryAfter(headers?.get('retry-after')) });
    default:
      return status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}

/** The request id the service (or its gateway) put on the response, for support requests. */
export function requestIdOf(headers: Headers | undefined): string | undefined {
  if (headers === undefined) return undefined;
  return headers.get('x-request-id') ?? headers.get('request-id') ?? headers.get('x-correlation-id') ?? undefined;
}
