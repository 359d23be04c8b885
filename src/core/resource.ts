import type { ResolvedOptions } from './options.js';
import type { Transport, TransportResponse } from './transport.js';
import { invalidResponse, type Envelope } from './envelope.js';
import { readInvoiceRecord, type Invoice } from '../model/invoice.js';

export interface ResourceContext
  extends Readonly<Pick<ResolvedOptions, 'fieldMap' | 'logger' | 'codesCacheTtl' | 'maxRetries' | 'redactor' | 'finalStatuses'>> {
  readonly transport: Transport;
  /** The clock for caches; `Date.now` outside tests. */ readonly now: () => number;
}

/** Base of `client.invoices`, `client.apiKeys` and `client.codes`: thin classes, one call per method. @example const resources: APIResource[] = [client.invoices, client.apiKeys, client.codes]; */
export abstract class APIResource {
  /** @internal */ protected readonly _ctx: ResourceContext;

  /** @internal */
  constructor(ctx: ResourceContext) {
    this._ctx = ctx;
  }

  /** The invoice in a record, read for the client's `fieldMap`; an unreadable one is an `InvalidResponseError` naming its path. @internal */
  protected _invoiceFrom(
    record: unknown,
    envelope: Pick<Envelope, 'timestamp'>,
    response: TransportResponse,
    fallbackId?: string,
    /** Where the record is in the body: `data`, or its index in a listing's `data` (named only on error). */ at: string | number = 'data',
  ): Invoice {
    const ctx = this._ctx;
    const read = readInvoiceRecord(record, { fieldMap: ctx.fieldMap, observedAt: envelope.timestamp, fallbackId });
    if (read.ok) return read.invoice;
    const where = typeof at === 'number' ? `data.${at}` : at;
    const field = read.field === '' ? where : `${where}.${read.field}`;
    throw invalidResponse(response, {
      message:
        read.field === 'id'
          ? `The invoice record has no readable id at ${field} (looked for ${ctx.fieldMap.id.join(', ')}).`
          : `The response's ${field} is not an invoice record: ${read.message}.`,
      hint: 'If the service names the id differently, pass fieldMap: { id: "<its field>" } to the client.',
    });
  }
}
