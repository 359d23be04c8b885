import { ConflictError } from './conflict-error.js';
import { isErrorKind } from './names.js';

/**
 * 409 about the `idempotency-key`: the key was already used with a different request body. Nothing new was created.
 *
 * @example
 * ```ts
 * import { IdempotencyConflictError, isIdempotencyConflictError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isIdempotencyConflictError(err)) console.error('reuse of an idempotency key with another body');
 * }
 * ```
 */
export class IdempotencyConflictError extends ConflictError {
  /** Always `IdempotencyConflictError`: a stable name, also for the name-based guards. */
  override readonly name = 'IdempotencyConflictError' as const;
}

/**
 * True for a {@link IdempotencyConflictError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isIdempotencyConflictError } from 'invoicing-sdk';
 * isIdempotencyConflictError(new Error('x')); // false
 * ```
 */
export function isIdempotencyConflictError(value: unknown): value is IdempotencyConflictError {
  return isErrorKind(value, 'IdempotencyConflictError');
}
