import { APIError, type APIErrorInit } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * A response body (after decompression) larger than the client's `maxResponseBytes`: the SDK stopped
 * reading at `limit` bytes instead of holding it all in memory. Never retried: the same request
 * would get the same body.
 *
 * @example
 * ```ts
 * import { isResponseTooLargeError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.list({ limit: 100_000 });
 * } catch (err) {
 *   if (isResponseTooLargeError(err)) console.error(`over ${err.limit} bytes; ask for smaller pages`);
 * }
 * ```
 */
export class ResponseTooLargeError extends APIError {
  /** Always `ResponseTooLargeError`: a stable name, also for the name-based guards. */
  override readonly name = 'ResponseTooLargeError' as const;
  /** The limit that was exceeded, in bytes (`maxResponseBytes`). */
  readonly limit: number;

  constructor(init: APIErrorInit & { limit: number }) {
    super(init);
    this.limit = init.limit;
  }

  /** The API error's fields plus `limit`. */
  protected override details(): Record<string, unknown> {
    return { ...super.details(), limit: this.limit };
  }
}

/**
 * True for a {@link ResponseTooLargeError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isResponseTooLargeError } from 'invoicing-sdk';
 * isResponseTooLargeError(new Error('x')); // false
 * ```
 */
export function isResponseTooLargeError(value: unknown): value is ResponseTooLargeError {
  return isErrorKind(value, 'ResponseTooLargeError');
}
