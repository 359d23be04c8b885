import { APIError } from './api-error.js';
import { isErrorKind, type InvoicingErrorName } from './names.js';

/**
 * 409: the request conflicts with the resource's current state.
 *
 * @example
 * ```ts
 * import { ConflictError, isConflictError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isConflictError(err)) console.error(err.message);
 * }
 * ```
 */
export class ConflictError extends APIError {
  /** A stable name (`ConflictError` here, each subclass its own), read by the name-based guards. */
  override readonly name: InvoicingErrorName = 'ConflictError';
}

/**
 * True for a {@link ConflictError} or a subclass, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isConflictError } from 'invoicing-sdk';
 * isConflictError(new Error('x')); // false
 * ```
 */
export function isConflictError(value: unknown): value is ConflictError {
  return isErrorKind(value, 'ConflictError');
}
