import { APIPromise, type ResponseRecorder } from '../core/api-promise.js';
import { assertResourceId, InvoicingError, type InvalidResponseError } from '../core/errors.js';
import { Page } from '../core/pagination.js';
import { formatIssuePath } from '../check/issues.js';
import { defineInspect, REDACTED } from '../core/redact.js';
import type { MutationRequestOptions, RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { ROUTES } from '../core/routes.js';
import type { TransportRequest, TransportResponse } from '../core/transport.js';
import { invalidResponse, type Envelope } from '../core/envelope.js';
import { API_KEY_FIELD_ALIASES, ApiKeyCreateParamsSchema, readApiKeyRecord, type APIKey, type APIKeyCreateParams, isNamedScope } from '../model/api-key.js';

/**
 * What `apiKeys.rotate()` returns: the new key's record, with its secret.
 * @example
 * ```ts
 * import type { RotatedAPIKey } from 'invoicing-sdk';
 * declare const rotated: RotatedAPIKey;
 * console.log(rotated.id, rotated.key.length);
 * ```
 */
export type RotatedAPIKey = Omit<APIKey, 'key'> & {
  /** The new key's secret: the client already uses it; hand it to every other process that needs one. */ key: string;
};

/**
 * `client.apiKeys`: key management over a signed-in session.
 * @example
 * ```ts
 * import { InvoicingClient } from 'invoicing-sdk';
 * const admin = new InvoicingClient({ sessionToken: process.env.INVOICING_SESSION_TOKEN });
 * const created = await admin.apiKeys.create({ name: 'server', type: 'LIVE', keyableType: 'USER', scopes: ['*'] });
 * ```
 */
export class APIKeys extends APIResource {
  #rotating: Promise<unknown> = Promise.resolve();
  /** Creates a key (`POST /api/v1/api-key`) and returns it with its secret in `key`. */
  create(input: APIKeyCreateParams, opts: MutationRequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise((record) => this.#create(input, opts, record));
  }

  async #create(input: APIKeyCreateParams, opts: MutationRequestOptions, record: ResponseRecorder): Promise<APIKey> {
    const params = checkCreate(input, 'apiKeys.create');
    const unnamed = params.scopes.filter((s) => !isNamedScope(s));
    if (unnamed.length > 0) {
      this._ctx.logger.warn(
        `apiKeys.create: the service document does not name the scope ${unnamed.map((s) => JSON.stringify(s)).join(', ')} (it names invoices:read, invoices:write, taxauth:read and '*'); sent as given.`,
      );
    }
    const { name, type, keyableType, scopes, businessId } = params;
    const body = { name, type, keyableType, scopes: [...scopes], ...(businessId === undefined ? {} : { businessId }) };
    // Creating a key revokes the old one: only the caller's own idempotency key makes a retry safe.
    const noRetry = opts.idempotencyKey === undefined;
    const { envelope, response } = await this.#request({ method: 'POST', path: ROUTES.apiKeys, body, options: opts, noRetry, record });
    const created = this.#read(envelope.data, response, 'data');
    if (created.key === undefined) this._ctx.logger.warn('apiKeys.create answered without the key secret; use reveal(id) to read it.');
    return created;
  }

  /**
   * Rotates this client's API key: creates a new key (`POST /api/v1/api-key`, session token), switches this client to it
   * at once and returns its record, its secret in `key` (read with `reveal(id)` when the create answer lacks it).
   */
  rotate(input: APIKeyCreateParams, opts: MutationRequestOptions = {}): APIPromise<RotatedAPIKey> {
    return new APIPromise((record) => {
      // One after another: racing creates would leave the client on the last answer, not the key the service kept.
      const run = (): Promise<RotatedAPIKey> => this.#rotate(input, opts, record);
      const rotation = this.#rotating.then(run, run);
      this.#rotating = rotation.catch(() => undefined);
      this._ctx.transport.holdApiKeyRequests(rotation);
      return rotation;
    });
  }

  async #rotate(input: APIKeyCreateParams, opts: MutationRequestOptions, record: ResponseRecorder): Promise<RotatedAPIKey> {
    const created = await this.#create(input, opts, record);
    let rotated = created as RotatedAPIKey;
    if (created.key === undefined) {
      if (created.id === undefined) {
        throw new InvoicingError('apiKeys.rotate: the key was created, but the answer shows neither its secret nor its id.', {
          hint: 'This client keeps its old key, which the service has revoked. Find the new key with apiKeys.list(), read it with reveal(id) and pass it as apiKey.',
        });
      }
      try {
        rotated = await this.#reveal(created.id, { signal: opts.signal, timeout: opts.timeout, headers: opts.headers }, record);
      } catch (cause) {
        throw new InvoicingError(`apiKeys.rotate: key ${created.id} was created, but its secret could not be read.`, {
          hint: `This client keeps its old key, which the service has revoked. Read the new one with apiKeys.reveal('${created.id}') and pass it as apiKey.`,
          cause,
        });
      }
    }
    this._ctx.transport.setApiKey(rotated.key);
    if (input.keyableType === 'BUSINESS') {
      this._ctx.logger.warn('apiKeys.rotate: this client now uses a BUSINESS key, which the service refuses on POST /api/v1/invoices (known defect); a USER key is the working path.');
    }
    return rotated;
  }

  /** Lists the caller's keys (`GET /api/v1/api-key`), every page (followed by `meta.totalPages`, like the other listings). */
  list(opts: RequestOptions = {}): APIPromise<APIKey[]> {
    return new APIPromise(async (record) => {
      const load = async (page: number): Promise<Page<APIKey>> => {
        const query = page === 1 ? undefined : { page };
        const { envelope, response } = await this.#request({ method: 'GET', path: ROUTES.apiKeys, query, options: opts, record });
        if (!Array.isArray(envelope.data)) throw invalid('The key listing has no data array (data).', response);
        const data = envelope.data.map((item, i) => this.#read(item, response, `data[${i}]`));
        return new Page({ data, meta: envelope.meta, requestedPage: page, load, logger: this._ctx.logger });
      };
      const keys: APIKey[] = [];
      for await (const key of await load(1)) keys.push(key);
      return keys;
    });
  }

  /** One key's details (`GET /api/v1/api-key/{id}`). */
  retrieve(id: string, opts: RequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise(async (record) => {
      assertResourceId(id, 'An API key id');
      const { envelope, response } = await this.#request({ method: 'GET', path: ROUTES.apiKey(id), options: opts, record });
      return this.#read(envelope.data, response, 'data', id);
    });
  }

  /** Shows the full secret again (`GET /api/v1/api-key/{id}/reveal`): the service keeps it recoverable. */
  reveal(id: string, opts: RequestOptions = {}): APIPromise<APIKey> {
    return new APIPromise((record) => this.#reveal(id, opts, record));
  }

  async #reveal(id: string, opts: RequestOptions, record: ResponseRecorder): Promise<RotatedAPIKey> {
    assertResourceId(id, 'An API key id');
    const { envelope, response } = await this.#request({ method: 'GET', path: ROUTES.apiKeyReveal(id), options: opts, record });
    const data = typeof envelope.data === 'string' ? { key: envelope.data } : envelope.data;
    const revealed = this.#read(data, response, 'data', id);
    if (revealed.key === undefined) throw invalid('reveal answered without the key secret (data.key).', response);
    return revealed as RotatedAPIKey;
  }

  /** Revokes a key (`DELETE /api/v1/api-key/{id}`), immediately and permanently. */
  revoke(id: string, opts: MutationRequestOptions = {}): APIPromise<void> {
    return new APIPromise(async (record) => {
      assertResourceId(id, 'An API key id');
      // The body is not shown by the service (often empty); any 2xx means revoked.
      await this._ctx.transport.send({ method: 'DELETE', path: ROUTES.apiKey(id), options: opts, record });
    });
  }

  /** One key record, its secret added to the redactor and hidden when logged; `where` names it in the response (`data`, `data[3]`). */
  #read(data: unknown, response: TransportResponse, where: string, fallbackId?: string): APIKey {
    const result = readApiKeyRecord(data, { fallbackId });
    if (!result.ok) {
      const field = result.field === '' ? where : `${where}.${result.field}`;
      throw invalid(`The API key record at ${field} cannot be read: ${result.message}.`, response);
    }
    const { key, raw } = result.apiKey;
    if (key !== undefined) {
      this._ctx.redactor.add(key);
      const field = API_KEY_FIELD_ALIASES.key.find((a) => raw[a] === key || (typeof raw[a] === 'number' && String(raw[a]) === key));
      if (field !== undefined) hide(raw, field);
      hide(result.apiKey, 'key');
    }
    return result.apiKey;
  }

  async #request(request: TransportRequest): Promise<{ envelope: Envelope; response: TransportResponse }> {
    const response = await this._ctx.transport.send(request);
    const envelope = this._ctx.transport.tryUnwrap(response);
    if (envelope !== undefined) return { envelope, response };
    const hint = request.method === 'POST' ? 'The key may have been created: check apiKeys.list() before creating again.' : undefined;
    throw invalid('The answer is not the documented envelope.', response, hint);
  }
}

function checkCreate(input: unknown, call: string): APIKeyCreateParams {
  const parsed = ApiKeyCreateParamsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? 'pass { name, type, keyableType, scopes }' : `${formatIssuePath(issue.path as (string | number)[])}: ${issue.message}`,
  );
  throw new InvoicingError(`${call}: ${problems.join('; ')}. Nothing was sent.`, {
    hint: "scopes: 'invoices:read', 'invoices:write', 'taxauth:read' or '*'; keyableType 'USER' (the working path for filing) or 'BUSINESS' with businessId.",
  });
}

/** Shows `[REDACTED]` for `target[field]` when logged; reading it still gives the secret. */
function hide(target: object, field: string): void {
  const shown = (): Record<string, unknown> => ({ ...target, [field]: REDACTED });
  Object.defineProperty(target, 'toJSON', { value: shown });
  defineInspect(target, (_depth: number, options: object, inspect: (value: unknown, options: object) => string) => inspect(shown(), options));
}

/** An `InvalidResponseError` for a key route's answer, every string in its body redacted. */
function invalid(message: string, response: TransportResponse, hint?: string): InvalidResponseError {
  let body: unknown = response.body;
  try {
    const withheld = JSON.stringify(body, (_name, value: unknown) => (typeof value === 'string' ? REDACTED : value));
    if (body !== undefined) body = JSON.parse(withheld);
  } catch {
    body = REDACTED;
  }
  return invalidResponse({ ...response, body }, { message, hint });
}
