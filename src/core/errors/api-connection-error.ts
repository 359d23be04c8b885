import { APIError } from './api-error.js';
import { isErrorKind, type InvoicingErrorName } from './names.js';

/**
 * What a connection error knows: no response arrived.
 *
 * @example
 * ```ts
 * import { APIConnectionError } from 'invoicing-sdk';
 * new APIConnectionError({ method: 'GET', path: '/api/v1/invoices' });
 * ```
 */
export interface APIConnectionErrorInit {
  /** Replaces the default message. */
  message?: string | undefined;
  /** Request method. */
  method?: string | undefined;
  /** Request path. */
  path?: string | undefined;
  /** What to do about it. */
  hint?: string | undefined;
  /** The network error beneath (never an object holding the request's headers). */
  cause?: unknown;
}

/**
 * No response arrived: DNS, refused or dropped connection, TLS. Already retried up to `maxRetries`
 * (a POST only when it carried an idempotency key, so a retry never files twice).
 *
 * @example
 * ```ts
 * import { isAPIConnectionError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.list();
 * } catch (err) {
 *   if (isAPIConnectionError(err)) console.error('service unreachable:', err.cause);
 * }
 * ```
 */
export class APIConnectionError extends APIError {
  /** A stable name (`APIConnectionError` here, each subclass its own), read by the name-based guards. */
  override readonly name: InvoicingErrorName = 'APIConnectionError';

  constructor(init: APIConnectionErrorInit = {}) {
    super({
      message: init.message ?? 'Connection error: no response from the service.',
      method: init.method,
      path: init.path,
      hint: init.hint,
      cause: init.cause,
    });
  }
}

/**
 * True for an {@link APIConnectionError} or an {@link APIConnectionTimeoutError}, by `name`.
 *
 * @example
 * ```ts
 * import { isAPIConnectionError } from 'invoicing-sdk';
 * isAPIConnectionError(new Error('x')); // false
 * ```
 */
export function isAPIConnectionError(value: unknown): value is APIConnectionError {
  return isErrorKind(value, 'APIConnectionError');
}
