import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * 400: the service rejected the request. For a classification message the `hint` names the line and field and the lookup endpoints.
 *
 * @example
 * ```ts
 * import { BadRequestError, isBadRequestError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isBadRequestError(err)) console.error(err.message, err.hint);
 * }
 * ```
 */
export class BadRequestError extends APIError {
  /** Always `BadRequestError`: a stable name, also for the name-based guards. */
  override readonly name = 'BadRequestError' as const;
}

/**
 * True for a {@link BadRequestError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isBadRequestError } from 'invoicing-sdk';
 * isBadRequestError(new Error('x')); // false
 * ```
 */
export function isBadRequestError(value: unknown): value is BadRequestError {
  return isErrorKind(value, 'BadRequestError');
}
