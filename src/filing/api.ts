// What filing needs from `client.invoices`, structurally (STYLE: filing/ uses resources' public methods).
import type { Logger } from '../core/logger.js';
import type { Redactor } from '../core/redact.js';
import type { RequestOptions } from '../core/request-options.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import type { Invoice } from '../model/invoice.js';
import type { FilingTransition } from '../model/status.js';

export type CallOptions = Pick<RequestOptions, 'signal' | 'timeout' | 'maxRetries' | 'headers'>;

export interface FilingInvoicesApi {
  create(
    input: InvoiceCreateParams,
    opts?: CallOptions & { idempotencyKey?: string | undefined; skipChecks?: boolean | undefined },
  ): Promise<Invoice>;
  retrieve(id: string, opts?: CallOptions): Promise<Invoice>;
  /** One send of a transition, no retry; reads the invoice back when the answer carries no record. */
  _transition(id: string, step: FilingTransition, opts?: CallOptions & { idempotencyKey?: string | undefined }): Promise<Invoice>;
  readonly _logger?: Logger | undefined;
  readonly _finalStatuses?: readonly string[] | undefined;
  readonly _redactor?: Redactor | undefined;
}
