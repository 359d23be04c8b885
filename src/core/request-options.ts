import type { Query } from './query.js';

/** Per-call options, taken last by every method; they override the client's options for that call. @example await client.invoices.retrieve('inv_123', { timeout: 10_000, maxRetries: 0 }); */
export interface RequestOptions {
  /** Aborts the request and any wait before a retry; the call rejects with `APIUserAbortError`. */ signal?: AbortSignal | undefined;
  /** Milliseconds per attempt, reading the body included. Overrides the client's `timeout`. */ timeout?: number | undefined;
  /** Retries after a retryable failure. Overrides the client's `maxRetries`. */ maxRetries?: number | undefined;
  /** Extra headers, added to the client's `defaultHeaders`. One that would set `X-API-Key`, `Authorization` or `idempotency-key` is refused with an `InvoicingError`; nothing is sent. */
  headers?: Record<string, string> | undefined;
  /** Extra query parameters. One named like a credential (`apiKey`, `token`, `password`, …) is refused with an `InvoicingError`; nothing is sent. */
  query?: Query | undefined;
}

/** {@link RequestOptions} plus the idempotency key. @example await client.invoices.create(input, { idempotencyKey: 'order-42' }); */
export interface MutationRequestOptions extends RequestOptions {
  /** Sent as `idempotency-key`, unchanged on every retry. Default: a UUID v7 minted once for the call. Reuse a key only to repeat the same request. */
  idempotencyKey?: string | undefined;
}
