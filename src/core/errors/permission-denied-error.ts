import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * 403: the key lacks the scope the call needs; the `hint` names it.
 *
 * @example
 * ```ts
 * import { PermissionDeniedError, isPermissionDeniedError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isPermissionDeniedError(err)) console.error(err.hint); // names the scope, e.g. invoices:write
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  /** Always `PermissionDeniedError`: a stable name, also for the name-based guards. */
  override readonly name = 'PermissionDeniedError' as const;
}

/**
 * True for a {@link PermissionDeniedError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isPermissionDeniedError } from 'invoicing-sdk';
 * isPermissionDeniedError(new Error('x')); // false
 * ```
 */
export function isPermissionDeniedError(value: unknown): value is PermissionDeniedError {
  return isErrorKind(value, 'PermissionDeniedError');
}
