import type { Query } from './query.js';

/** Per-call options, taken last by every method; they override the client's options for that call. @example await client.invoices.retrieve('inv_123', { timeout: 10_000, maxRetries: 0 }); */
export interface RequestOptions {
  /** Aborts the request and any wait before a retry; the call rejects with `APIUserAbortError`. */ signal?: AbortSignal | undefined;
  /** Milliseconds per attempt, reading the body included. Overrides the client's `timeout`. */ timeout?: number | undefined;
  /** Retries after a retryable failure. Overrides the client's `maxRetries`. */ maxRetries?: number | undefined;
  /** Added to `defaultHeaders`; `X-API-Key`, `Authorization` or `idempotency-key` is refused, nothing sent. */
  headers?: Record<string, string> | undefined;
  /** Extra query parameters; one named like a credential (`apiKey`, `token`, …) is refused, nothing sent. */ query?: Query | undefined;
}

/** {@link RequestOptions} plus the idempotency key. @example await client.invoices.create(input, { idempotencyKey: 'order-42' }); */
export interface MutationRequestOptions extends RequestOptions {
  /** Sent on every retry. Default: a UUID v7 per call. Reuse a key only to repeat the same request. */ idempotencyKey?: string | undefined;
}
