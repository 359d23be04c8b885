import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * 401: the API key (or, on key-management routes, the session token) was missing, wrong or revoked. Only `X-API-Key` works, and a key is revoked as soon as another key of the same type is created.
 *
 * @example
 * ```ts
 * import { AuthenticationError, isAuthenticationError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isAuthenticationError(err)) console.error(err.hint);
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  /** Always `AuthenticationError`: a stable name, also for the name-based guards. */
  override readonly name = 'AuthenticationError' as const;
}

/**
 * True for a {@link AuthenticationError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isAuthenticationError } from 'invoicing-sdk';
 * isAuthenticationError(new Error('x')); // false
 * ```
 */
export function isAuthenticationError(value: unknown): value is AuthenticationError {
  return isErrorKind(value, 'AuthenticationError');
}
