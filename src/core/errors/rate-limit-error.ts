import { APIError, type APIErrorInit } from './api-error.js';
import { isErrorKind } from './names.js';

/**
 * 429: too many requests. The SDK already retried up to `maxRetries`, honouring `Retry-After`;
 * `retryAfter` is how long the service asked to wait (milliseconds), when it said.
 *
 * @example
 * ```ts
 * import { isRateLimitError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.list();
 * } catch (err) {
 *   if (isRateLimitError(err)) await new Promise((r) => setTimeout(r, err.retryAfter ?? 1000));
 * }
 * ```
 */
export class RateLimitError extends APIError {
  /** Always `RateLimitError`: a stable name, also for the name-based guards. */
  override readonly name = 'RateLimitError' as const;
  /** Milliseconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }

  /** The API error's fields plus `retryAfter`. */
  protected override details(): Record<string, unknown> {
    return { ...super.details(), retryAfter: this.retryAfter };
  }
}

/**
 * True for a {@link RateLimitError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isRateLimitError } from 'invoicing-sdk';
 * isRateLimitError(new Error('x')); // false
 * ```
 */
export function isRateLimitError(value: unknown): value is RateLimitError {
  return isErrorKind(value, 'RateLimitError');
}
