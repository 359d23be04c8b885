/**
 * What the filing workflow needs from `client.invoices`: three calls, described structurally so that
 * `filing/` depends on the resource's public surface only (STYLE: "filing/ uses resources through
 * their public methods") and can be exercised against anything that offers them.
 */
import type { Logger } from '../core/logger.js';
import type { Redactor } from '../core/redact.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import type { FilingTransition } from '../model/status.js';

/** Per-request options the filing helpers pass down (a subset of the client's `RequestOptions`). */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/** The calls of `client.invoices` the filing workflow is built on. */
export interface FilingInvoicesApi {
  create(
    input: InvoiceCreateParams,
    opts?: CallOptions & { idempotencyKey?: string | undefined; skipChecks?: boolean | undefined },
  ): Promise<Invoice>;
  retrieve(id: string, opts?: CallOptions): Promise<Invoice>;
  /** One send of a transition, no retry; reads the invoice back when the answer carries no record. */
  _transition(id: string, step: FilingTransition, opts?: CallOptions & { idempotencyKey?: string | undefined }): Promise<Invoice>;
  /** Where a failing callback of the caller is reported (`console` when absent). */
  readonly _logger?: Logger | undefined;
  /** The client's `finalStatuses`, the default of `waitFor` and `watch`. */
  readonly _finalStatuses?: readonly string[] | undefined;
  /** The client's redactor: every error the workflow throws or reports is scrubbed with it. */
  readonly _redactor?: Redactor | undefined;
}
