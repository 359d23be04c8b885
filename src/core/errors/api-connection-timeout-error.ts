import { APIConnectionError, type APIConnectionErrorInit } from './api-connection-error.js';
import { isErrorKind } from './names.js';

/**
 * An attempt took longer than `timeout` (per attempt, reading the body included). Already retried
 * up to `maxRetries`.
 *
 * @example
 * ```ts
 * import { isAPIConnectionTimeoutError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.list({}, { timeout: 5_000 });
 * } catch (err) {
 *   if (isAPIConnectionTimeoutError(err)) console.error('the service is slow:', err.message);
 * }
 * ```
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  /** Always `APIConnectionTimeoutError`: a stable name, also for the name-based guards. */
  override readonly name = 'APIConnectionTimeoutError' as const;

  constructor(init: APIConnectionErrorInit = {}) {
    super({ ...init, message: init.message ?? 'Request timed out.' });
  }
}

/**
 * True for an {@link APIConnectionTimeoutError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isAPIConnectionTimeoutError } from 'invoicing-sdk';
 * isAPIConnectionTimeoutError(new Error('x')); // false
 * ```
 */
export function isAPIConnectionTimeoutError(value: unknown): value is APIConnectionTimeoutError {
  return isErrorKind(value, 'APIConnectionTimeoutError');
}
