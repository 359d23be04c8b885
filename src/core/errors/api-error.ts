import { redactDeep, redactSecrets } from '../redact.js';
import { InvoicingError } from './invoicing-error.js';
import { isErrorKind, type InvoicingErrorName } from './names.js';

/**
 * What an {@link APIError} is built from. `generateAPIError()` fills it from a response; the
 * connection errors fill only what they know.
 *
 * @example
 * ```ts
 * import { APIError } from 'invoicing-sdk';
 * const err = new APIError({ message: 'Gone', status: 410, method: 'GET', path: '/api/v1/invoices/x' });
 * ```
 */
export interface APIErrorInit {
  /** The service's words (or the SDK's, when there were none). */
  message: string;
  /** HTTP status; `undefined` when no response arrived. */
  status?: number | undefined;
  /** A machine-readable code, where the body carries one. */
  code?: string | undefined;
  /** The response body, parsed when it was JSON, otherwise its text. */
  body?: unknown;
  /** The `x-request-id` response header, for support requests. */
  requestId?: string | undefined;
  /** Request method. */
  method?: string | undefined;
  /** Path of the request, e.g. `/api/v1/invoices`. */
  path?: string | undefined;
  /** What to do about it. */
  hint?: string | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An HTTP failure: the service answered with an error status or with a body that is not the
 * documented envelope, or no answer arrived (see the subclasses). Build one from a response with
 * `generateAPIError()`.
 *
 * @example
 * ```ts
 * import { isAPIError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.create(input);
 * } catch (err) {
 *   if (isAPIError(err)) console.error(err.status, err.message, err.requestId, err.hint);
 * }
 * ```
 */
export class APIError extends InvoicingError {
  /** A stable name (`APIError` here, each subclass its own), read by the name-based guards. */
  override readonly name: InvoicingErrorName = 'APIError';
  /** HTTP status; `undefined` when no response arrived. */
  readonly status: number | undefined;
  /** A machine-readable code, where the body carries one. */
  readonly code: string | undefined;
  /** The response body (secrets scrubbed): parsed JSON, or the text. */
  readonly body: unknown;
  /** The `x-request-id` response header. */
  readonly requestId: string | undefined;
  /** Request method (`GET`, `POST`, …). */
  readonly method: string | undefined;
  /** Request path, e.g. `/api/v1/invoices/inv_123/sign`. */
  readonly path: string | undefined;

  constructor(init: APIErrorInit) {
    super(init.message, { hint: init.hint, cause: init.cause });
    this.status = init.status;
    // `code` and `requestId` come from the server like the body does, and are read directly (a
    // request id is what users paste into support tickets): scrubbed like the body.
    this.code = init.code === undefined ? undefined : redactSecrets(init.code);
    this.body = redactDeep(init.body);
    this.requestId = init.requestId === undefined ? undefined : redactSecrets(init.requestId);
    this.method = init.method;
    // The path carries the caller's ids, which could be anything, a pasted key included.
    this.path = init.path === undefined ? undefined : redactSecrets(init.path);
  }

  /** Status, code, method, path, request id and body. */
  protected override details(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.status !== undefined) out.status = this.status;
    if (this.code !== undefined) out.code = this.code;
    if (this.method !== undefined) out.method = this.method;
    if (this.path !== undefined) out.path = this.path;
    if (this.requestId !== undefined) out.requestId = this.requestId;
    if (this.body !== undefined) out.body = this.body;
    return out;
  }
}

/**
 * True for any {@link APIError} (and its subclasses), by `name`.
 *
 * @example
 * ```ts
 * import { isAPIError } from 'invoicing-sdk';
 * if (isAPIError(err) && err.status === 404) console.log('no such invoice');
 * ```
 */
export function isAPIError(value: unknown): value is APIError {
  return isErrorKind(value, 'APIError');
}
