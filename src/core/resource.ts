import { requestIdOf } from './error-hints.js';
import { InvalidResponseError } from './errors.js';
import type { Logger } from './logger.js';
import type { Redactor } from './redact.js';
import type { Transport, TransportResponse } from './transport.js';
import type { Envelope } from './envelope.js';
import type { ResolvedFieldMap } from '../model/field-map.js';
import { readInvoiceRecord, type Invoice } from '../model/invoice.js';

/**
 * What a resource runs on. Holds no secret: the credentials stay inside the transport.
 *
 * @example
 * ```ts
 * class Reports extends APIResource {
 *   list() {
 *     return this._ctx.transport.request({ method: 'GET', path: '/api/v1/reports' });
 *   }
 * }
 * ```
 */
export interface ResourceContext {
  readonly transport: Transport;
  readonly fieldMap: ResolvedFieldMap;
  readonly logger: Logger;
  readonly codesCacheTtl: number;
  /**
   * The client's resolved `maxRetries`. The filing workflow sends its transitions with no transport
   * retry and retries itself (reading back first), so it needs the client's budget to follow it.
   */
  readonly maxRetries: number;
  /** The clock for caches; `Date.now` outside tests. */
  readonly now: () => number;
  /** This client's secrets: records and errors handed out are scrubbed with it. */
  readonly redactor: Redactor;
  /** Statuses after SUBMITTED that count as final (client option `finalStatuses`). */
  readonly finalStatuses: readonly string[];
}

/**
 * Base of `client.invoices`, `client.apiKeys` and `client.codes`: thin classes, one call per method.
 *
 * @example
 * ```ts
 * import type { APIResource } from 'invoicing-sdk';
 * const resources: APIResource[] = [client.invoices, client.apiKeys, client.codes];
 * ```
 */
export abstract class APIResource {
  readonly #ctx: ResourceContext;

  /** @internal */
  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** @internal */
  protected get _ctx(): ResourceContext {
    return this.#ctx;
  }

  /**
   * The invoice in a record, read through the model's schema for the client's `fieldMap`
   * (`readInvoiceRecord`), its `raw` scrubbed of this client's secrets first. A record that cannot
   * be read is an `InvalidResponseError` naming the field by its path in the body (`data.id`,
   * `data.3.id` for the fourth record of a listing).
   *
   * @internal
   */
  protected _invoiceFrom(
    record: unknown,
    envelope: Pick<Envelope, 'timestamp'>,
    response: TransportResponse,
    fallbackId?: string,
    at = 'data',
  ): Invoice {
    const ctx = this.#ctx;
    const read = readInvoiceRecord(scrubbed(ctx.redactor, record), { fieldMap: ctx.fieldMap, observedAt: envelope.timestamp, fallbackId });
    if (read.ok) return read.invoice;
    const field = read.field === '' ? at : `${at}.${read.field}`;
    throw invalidResponse(response, {
      message:
        read.field === 'id'
          ? `The invoice record has no readable id at ${field} (looked for ${ctx.fieldMap.id.join(', ')}).`
          : `The response's ${field} is not an invoice record: ${read.message}.`,
      hint: 'If the service names the id differently, pass fieldMap: { id: "<its field>" } to the client.',
    });
  }
}

// Past this depth the record is handed to redactDeep, which marks what lies deeper.
const SCAN_DEPTH = 64;
// No secret holds NUL (a header value cannot), so no match spans two joined strings.
const SEPARATOR = '\u0000';
// A record with more values than this (none real) is left to redactDeep, which also handles cycles.
const SCAN_VALUES = 100_000;

/**
 * `record` scrubbed of the client's secrets: the record itself when none of its strings or keys holds
 * one (the common case, tested with one scan of them all, joined by a character no secret holds),
 * else the copy `redactDeep` makes. One scan instead of one per string keeps a 100-record page cheap.
 *
 * @example
 * ```ts
 * const raw = scrubbed(ctx.redactor, envelope.data); // the same object when nothing needed scrubbing
 * ```
 */
export function scrubbed<T>(redactor: Pick<Redactor, 'redact' | 'redactDeep'>, record: T): T {
  const parts: string[] = [];
  const stack: [unknown, number][] = [[record, 0]];
  let values = 0;
  while (stack.length > 0) {
    if (++values > SCAN_VALUES) return redactor.redactDeep(record);
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') parts.push(value);
    else if (typeof value === 'object' && value !== null) {
      const proto = Object.getPrototypeOf(value) as unknown;
      if (depth >= SCAN_DEPTH || (!Array.isArray(value) && proto !== Object.prototype && proto !== null)) return redactor.redactDeep(record);
      if (Array.isArray(value)) for (const item of value) stack.push([item, depth + 1]);
      else
        for (const key in value) {
          parts.push(key);
          stack.push([(value as Record<string, unknown>)[key], depth + 1]);
        }
    }
  }
  const text = parts.join(SEPARATOR);
  return redactor.redact(text) === text ? record : redactor.redactDeep(record);
}

/**
 * An `InvalidResponseError` for a response the resources could not use: the status, body, request
 * id (`x-request-id`), method and path always come from the response itself, so no call site can
 * leave one out.
 *
 * @example
 * ```ts
 * if (!Array.isArray(envelope.data)) throw invalidResponse(response, { message: 'The listing cannot be read at data.' });
 * ```
 */
export function invalidResponse(
  response: TransportResponse,
  init: { message: string; hint?: string | undefined; cause?: unknown },
): InvalidResponseError {
  return new InvalidResponseError({
    ...init,
    status: response.status,
    body: response.body,
    requestId: requestIdOf(response.headers),
    method: response.method,
    path: response.path,
    redactor: response.redactor,
  });
}
