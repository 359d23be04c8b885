import { NotFoundError } from './not-found-error.js';
import { isErrorKind } from './names.js';

/**
 * 404 `Business not found` on create: the business is not owned by the key's user, or the key is a BUSINESS key, which the service's known defect rejects here. Use a USER key.
 *
 * @example
 * ```ts
 * import { BusinessNotFoundError, isBusinessNotFoundError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isBusinessNotFoundError(err)) console.error(err.hint);
 * }
 * ```
 */
export class BusinessNotFoundError extends NotFoundError {
  /** Always `BusinessNotFoundError`: a stable name, also for the name-based guards. */
  override readonly name = 'BusinessNotFoundError' as const;
}

/**
 * True for a {@link BusinessNotFoundError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isBusinessNotFoundError } from 'invoicing-sdk';
 * isBusinessNotFoundError(new Error('x')); // false
 * ```
 */
export function isBusinessNotFoundError(value: unknown): value is BusinessNotFoundError {
  return isErrorKind(value, 'BusinessNotFoundError');
}
