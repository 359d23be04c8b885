import { APIError } from './api-error.js';
import { isErrorKind, type InvoicingErrorName } from './names.js';

/**
 * 404: no such resource (or not visible to this key).
 *
 * @example
 * ```ts
 * import { NotFoundError, isNotFoundError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isNotFoundError(err)) console.log('no such invoice');
 * }
 * ```
 */
export class NotFoundError extends APIError {
  /** A stable name (`NotFoundError` here, each subclass its own), read by the name-based guards. */
  override readonly name: InvoicingErrorName = 'NotFoundError';
}

/**
 * True for a {@link NotFoundError} or a subclass, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isNotFoundError } from 'invoicing-sdk';
 * isNotFoundError(new Error('x')); // false
 * ```
 */
export function isNotFoundError(value: unknown): value is NotFoundError {
  return isErrorKind(value, 'NotFoundError');
}
