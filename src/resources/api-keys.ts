import { APIPromise, type ResponseRecorder } from '../core/api-promise.js';
import type { InvalidResponseError } from '../core/errors.js';
import { InvoicingError } from '../core/errors.js';
import { defineInspect } from '../core/inspect.js';
import { Page } from '../core/pagination.js';
import { REDACTED, registerSecret } from '../core/redact.js';
import type { MutationRequestOptions, RequestOptions } from '../core/request-options.js';
import { APIResource, invalidResponse } from '../core/resource.js';
import { assertResourceId } from '../core/resource-id.js';
import { ROUTES } from '../core/routes.js';
import type { TransportRequest, TransportResponse } from '../core/transport.js';
import type { Envelope } from '../core/envelope.js';
import { readAlias } from '../model/field-map.js';

/**
 * A scope an API key can hold. The service names these four; `*` is every permission.
 *
 * @example
 * ```ts
 * import type { APIKeyScope } from 'invoicing-sdk';
 * const scopes: APIKeyScope[] = ['invoices:read', 'invoices:write'];
 * ```
 */
export type APIKeyScope = 'invoices:read' | 'invoices:write' | 'taxauth:read' | '*' | (string & {});

/**
 * Parameters of `apiKeys.create()`.
 *
 * @example
 * ```ts
 * import type { APIKeyCreateParams } from 'invoicing-sdk';
 * const params: APIKeyCreateParams = {
 *   name: 'billing server', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'],
 * };
 * ```
 */
export interface APIKeyCreateParams {
  /** Label of the key. */
  name: string;
  /** `LIVE` (the only value the service shows). */
  type: 'LIVE' | (string & {});
  /**
   * `USER`: acts for the user across every business the user owns (the working path for creating
   * invoices). `BUSINESS`: acts for one business and needs `businessId`; note the service's known
   * defect, which makes a BUSINESS key fail on `POST /api/v1/invoices` with 404 "Business not found".
   */
  keyableType: 'USER' | 'BUSINESS';
  /** Required when `keyableType` is `BUSINESS`. */
  businessId?: string | undefined;
  /**
   * Required, and not empty. The service grants every permission (`*`) to a key created without
   * scopes, so the SDK makes the choice explicit: pass `['*']` to ask for everything.
   */
  scopes: readonly APIKeyScope[];
}

/**
 * An API key record. The service shows only the `key` field of its records; the others are read
 * where present, and the record is kept as `raw`.
 *
 * @example
 * ```ts
 * const keys = await client.apiKeys.list();
 * for (const k of keys) console.log(k.id, k.name, k.keyableType, k.scopes);
 * ```
 */
export interface APIKey {
  /** The key's id, for `retrieve`, `reveal` and `revoke`; `undefined` if the record shows none. */
  id: string | undefined;
  /** Label. */
  name: string | undefined;
  /** `LIVE`, … */
  type: string | undefined;
  /** `USER` or `BUSINESS`. */
  keyableType: string | undefined;
  /** The business of a BUSINESS key. */
  businessId: string | undefined;
  /** Scopes held. */
  scopes: string[] | undefined;
  /**
   * The secret: present after `create()` and `reveal()`, never in `list()`. Store it safely. Read it
   * as `created.key`: `JSON.stringify()` and `util.inspect()` (`console.log`) of the record show
   * `[REDACTED]` in its place, here and in `raw`.
   */
  key: string | undefined;
  /** When the key was created, as the service wrote it. */
  createdAt: string | undefined;
  /** The record exactly as the service returned it. */
  raw: Record<string, unknown>;
}

const ALIASES = {
  id: ['id', '_id', 'apiKeyId', 'keyId', 'uuid'],
  key: ['key', 'apiKey', 'secret', 'value'],
  createdAt: ['createdAt', 'created_at'],
} as const;

/**
 * `client.apiKeys`: key management over a signed-in session. Every call sends the session token as
 * `Authorization: Bearer` (never an API key) and fails locally, before any request, when the client
 * has no session token.
 *
 * @example
 * ```ts
 * import { InvoicingClient } from 'invoicing-sdk';
 * const admin = new InvoicingClient({ sessionToken: process.env.INVOICING_SESSION_TOKEN });
 * const created = await admin.apiKeys.create({ name: 'server', type: 'LIVE', keyableType: 'USER', scopes: ['*'] });
 * ```
 */
export class APIKeys extends APIResource {
  /**
   * Creates a key (`POST /api/v1/api-key`) and returns it with its secret in `key`.
   *
   * **Creating a key revokes the existing key of the same type at once**: requests with the old key
   * then fail with 401. Roll the new key out before anything else uses the old one. `scopes` is
   * required: pass `['*']` for every permission.
   *
   * **Sent once, never retried automatically**, unless you pass `idempotencyKey`: the service does
   * not promise idempotency on this route, so a retry after a create that went through (its answer
   * lost to a timeout or a 5xx) would create a second key and revoke the first. After a connection
   * error, timeout or 5xx, check `apiKeys.list()` before creating again. Pass `idempotencyKey` only if
   * you know the service honours it here; the call is then retried like any other POST.
   *
   * @example
   * ```ts
   * const created = await client.apiKeys.create({
   *   name: 'billing server',
   *   type: 'LIVE',
   *   keyableType: 'USER',
   *   scopes: ['invoices:read', 'invoices:write', 'taxauth:read'],
   * });
   * // The answer to create is one place the secret appears (create warns when it has none); reveal(id) is the other.
   * const secret = created.key ?? (created.id === undefined ? undefined : (await client.apiKeys.reveal(created.id)).key);
   * if (secret !== undefined) await saveSecret(secret);
   * ```
   */
  create(input: APIKeyCreateParams, opts: MutationRequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise((record) => this.#create(input, opts, record));
  }

  async #create(input: APIKeyCreateParams, opts: MutationRequestOptions, record: ResponseRecorder): Promise<APIKey> {
    validateCreate(input);
    const body: Record<string, unknown> = {
      name: input.name,
      type: input.type,
      keyableType: input.keyableType,
      scopes: [...input.scopes],
    };
    if (input.businessId !== undefined) body.businessId = input.businessId;
    const { envelope, response } = await this.#request({
      method: 'POST',
      path: ROUTES.apiKeys,
      body,
      options: opts,
      // The transport mints an idempotency key for every POST, which would make this look
      // retry-safe; it is not (see above), so only the caller's own key opts into retries.
      noRetry: opts.idempotencyKey === undefined,
      record,
    });
    const created = readKey(envelope.data, response);
    if (created.key === undefined) {
      this._ctx.logger.warn('apiKeys.create answered without the key secret; use reveal(id) to read it.');
    }
    return created;
  }

  /**
   * Lists the caller's keys (`GET /api/v1/api-key`), every page of the listing (followed by
   * `meta.totalPages`, like the other listings). The secrets are never included.
   *
   * @example
   * ```ts
   * const keys = await client.apiKeys.list();
   * console.log(keys.map((k) => k.name));
   * ```
   */
  list(opts: RequestOptions = {}): APIPromise<APIKey[]> {
    return new APIPromise((record) => this.#list(opts, record));
  }

  async #list(opts: RequestOptions, record: ResponseRecorder): Promise<APIKey[]> {
    // Walked as every listing is (core/pagination.ts), with the same guards against a server that
    // ignores ?page.
    const load = async (page: number): Promise<Page<APIKey>> => {
      const { envelope, response } = await this.#request({
        method: 'GET',
        path: ROUTES.apiKeys,
        query: page === 1 ? undefined : { page },
        options: opts,
        record,
      });
      const items = Array.isArray(envelope.data) ? envelope.data : undefined;
      if (items === undefined) throw invalid('The key listing has no data array.', response);
      const data = items.map((item) => readKey(item, response));
      return new Page({ data, meta: envelope.meta, requestedPage: page, load, logger: this._ctx.logger });
    };
    const keys: APIKey[] = [];
    for await (const key of await load(1)) keys.push(key);
    return keys;
  }

  /**
   * One key's details (`GET /api/v1/api-key/{id}`).
   *
   * @example
   * ```ts
   * const k = await client.apiKeys.retrieve('key_123');
   * console.log(k.scopes);
   * ```
   */
  retrieve(id: string, opts: RequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise((record) => this.#retrieve(id, opts, record));
  }

  async #retrieve(id: string, opts: RequestOptions, record: ResponseRecorder): Promise<APIKey> {
    assertKeyId(id);
    const { envelope, response } = await this.#request({ method: 'GET', path: ROUTES.apiKey(id), options: opts, record });
    return readKey(envelope.data, response, id);
  }

  /**
   * Shows the full secret again (`GET /api/v1/api-key/{id}/reveal`): the service keeps it
   * recoverable.
   *
   * @example
   * ```ts
   * const { key } = await client.apiKeys.reveal('key_123');
   * ```
   */
  reveal(id: string, opts: RequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise((record) => this.#reveal(id, opts, record));
  }

  async #reveal(id: string, opts: RequestOptions, record: ResponseRecorder): Promise<APIKey> {
    assertKeyId(id);
    const { envelope, response } = await this.#request({ method: 'GET', path: ROUTES.apiKeyReveal(id), options: opts, record });
    const data = typeof envelope.data === 'string' ? { key: envelope.data } : envelope.data;
    const revealed = readKey(data, response, id);
    if (revealed.key === undefined) throw invalid('reveal answered without the key secret.', response);
    return revealed;
  }

  /**
   * Revokes a key (`DELETE /api/v1/api-key/{id}`), immediately and permanently.
   *
   * @example
   * ```ts
   * await client.apiKeys.revoke('key_123');
   * ```
   */
  revoke(id: string, opts: MutationRequestOptions = {}): APIPromise<void> {
    return new APIPromise((record) => this.#revoke(id, opts, record));
  }

  async #revoke(id: string, opts: MutationRequestOptions, record: ResponseRecorder): Promise<void> {
    assertKeyId(id);
    // The body is not shown by the service (often empty); any 2xx means revoked.
    await this._ctx.transport.send({ method: 'DELETE', path: ROUTES.apiKey(id), options: opts, record });
  }

  /**
   * Sends and unwraps the envelope. An answer that is not the envelope is an `InvalidResponseError`
   * that neither quotes nor keeps the body's text: these answers carry key secrets, and one the SDK
   * cannot read (a bare secret, a field name it does not know) has registered none for redaction.
   */
  async #request(request: TransportRequest): Promise<{ envelope: Envelope; response: TransportResponse }> {
    const response = await this._ctx.transport.send(request);
    const envelope = this._ctx.transport.tryUnwrap(response);
    if (envelope !== undefined) return { envelope, response };
    throw invalid(
      'The answer is not the documented envelope.',
      response,
      request.method === 'POST'
        ? 'The key may have been created: check apiKeys.list() before creating again.'
        : undefined,
    );
  }
}

function validateCreate(input: APIKeyCreateParams): void {
  const fail = (message: string): never => {
    throw new InvoicingError(`apiKeys.create: ${message}`);
  };
  if (typeof input !== 'object' || input === null) fail('pass { name, type, keyableType, scopes }.');
  if (typeof input.name !== 'string' || input.name.trim() === '') fail('name is required.');
  if (typeof input.type !== 'string' || input.type.trim() === '') fail("type is required (for example 'LIVE').");
  if (input.keyableType !== 'USER' && input.keyableType !== 'BUSINESS') fail("keyableType must be 'USER' or 'BUSINESS'.");
  if (input.keyableType === 'BUSINESS' && (typeof input.businessId !== 'string' || input.businessId.trim() === '')) {
    fail('a BUSINESS key requires businessId.');
  }
  if (!Array.isArray(input.scopes) || input.scopes.length === 0) {
    fail(
      "scopes is required and must not be empty: the service grants every permission ('*') to a key " +
        "created without scopes. List the scopes the key needs, or pass ['*'] to ask for everything.",
    );
  }
  if (input.scopes.some((scope) => typeof scope !== 'string' || scope.trim() === '')) {
    fail('every scope must be a non-empty string.');
  }
}

function readKey(data: unknown, response: TransportResponse, fallbackId?: string): APIKey {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw invalid('The response data is not an API key record.', response);
  }
  const raw = data as Record<string, unknown>;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
  const key = text(readAlias(raw, ALIASES.key));
  registerSecret(key);
  const scopes = Array.isArray(raw.scopes) ? raw.scopes.filter((s): s is string => typeof s === 'string') : undefined;
  const record: APIKey = {
    id: text(readAlias(raw, ALIASES.id)) ?? fallbackId,
    name: text(raw.name),
    type: text(raw.type),
    keyableType: text(raw.keyableType),
    businessId: text(raw.businessId),
    scopes,
    key,
    createdAt: text(readAlias(raw, ALIASES.createdAt)),
    raw,
  };
  if (key !== undefined) {
    const field = ALIASES.key.find((alias) => text(raw[alias]) === key);
    if (field !== undefined) conceal(raw, field);
    conceal(record, 'key');
  }
  return record;
}

/**
 * Shows `[REDACTED]` for `target[field]` in `JSON.stringify()` and `util.inspect()`, so that logging
 * a created or revealed key does not print its secret; reading the field still gives the secret.
 */
function conceal(target: object, field: string): void {
  const shown = (): Record<string, unknown> => ({ ...target, [field]: REDACTED });
  Object.defineProperty(target, 'toJSON', { value: shown });
  defineInspect(target, (_depth: number, options: object, inspect: (value: unknown, options: object) => string) => inspect(shown(), options));
}

/**
 * An `InvalidResponseError` for a key route's answer, with the body's shape but none of its text:
 * every string in it is `[REDACTED]`, since any of them may be a secret the SDK did not recognise.
 */
function invalid(message: string, response: TransportResponse, hint?: string): InvalidResponseError {
  return invalidResponse({ ...response, body: withholdText(response.body) }, { message, hint });
}

/**
 * `body` with every string in it as `[REDACTED]`; all of it, when it cannot be copied (nested
 * deeper than JSON.stringify goes).
 */
function withholdText(body: unknown): unknown {
  try {
    return body === undefined ? body : JSON.parse(JSON.stringify(body, (_name, value: unknown) => (typeof value === 'string' ? REDACTED : value)));
  } catch {
    return REDACTED;
  }
}

function assertKeyId(id: unknown): asserts id is string {
  assertResourceId(id, 'An API key id');
}
