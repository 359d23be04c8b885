import { APIError } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * The caller's `signal` aborted the call, during a request or during the wait before a retry.
 * `cause` is the signal's reason. Never retried. For a mutating call the request may or may not
 * have reached the service: read the resource before repeating it.
 *
 * @example
 * ```ts
 * import { isAPIUserAbortError } from 'invoicing-sdk';
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1_000);
 * try {
 *   await client.invoices.list({}, { signal: controller.signal });
 * } catch (err) {
 *   if (isAPIUserAbortError(err)) console.log('cancelled');
 * }
 * ```
 */
export class APIUserAbortError extends APIError {
  /** Always `APIUserAbortError`: a stable name, also for the name-based guards. */
  override readonly name = 'APIUserAbortError' as const;

  constructor(init: { method?: string | undefined; path?: string | undefined; cause?: unknown } = {}) {
    super({ message: 'Request was aborted.', method: init.method, path: init.path, cause: init.cause });
  }
}

/**
 * True for an {@link APIUserAbortError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isAPIUserAbortError } from 'invoicing-sdk';
 * isAPIUserAbortError(new Error('x')); // false
 * ```
 */
export function isAPIUserAbortError(value: unknown): value is APIUserAbortError {
  return isErrorKind(value, 'APIUserAbortError');
}
