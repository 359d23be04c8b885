import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * A response that is not the documented envelope: HTML, truncated JSON, `success: false`, or no `data`. Carries the status and body as received.
 *
 * @example
 * ```ts
 * import { InvalidResponseError, isInvalidResponseError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isInvalidResponseError(err)) console.error(err.status, err.body);
 * }
 * ```
 */
export class InvalidResponseError extends APIError {
  /** Always `InvalidResponseError`: a stable name, also for the name-based guards. */
  override readonly name = 'InvalidResponseError' as const;
}

/**
 * True for a {@link InvalidResponseError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isInvalidResponseError } from 'invoicing-sdk';
 * isInvalidResponseError(new Error('x')); // false
 * ```
 */
export function isInvalidResponseError(value: unknown): value is InvalidResponseError {
  return isErrorKind(value, 'InvalidResponseError');
}
