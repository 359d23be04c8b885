import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * 5xx: the service failed. 500, 502, 503 and 504 were already retried up to `maxRetries`.
 *
 * @example
 * ```ts
 * import { InternalServerError, isInternalServerError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isInternalServerError(err)) console.error(err.status, err.requestId);
 * }
 * ```
 */
export class InternalServerError extends APIError {
  /** Always `InternalServerError`: a stable name, also for the name-based guards. */
  override readonly name = 'InternalServerError' as const;
}

/**
 * True for a {@link InternalServerError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isInternalServerError } from 'invoicing-sdk';
 * isInternalServerError(new Error('x')); // false
 * ```
 */
export function isInternalServerError(value: unknown): value is InternalServerError {
  return isErrorKind(value, 'InternalServerError');
}
