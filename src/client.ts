import { APIPromise, type ResponseRecorder } from './core/api-promise.js';
import { defineInspect } from './core/redact.js';
import type { LogLevel } from './core/logger.js';
import { resolveOptions, type ClientOptions, type InheritedRedactor } from './core/options.js';
import type { MutationRequestOptions, RequestOptions } from './core/request-options.js';
import { Transport } from './core/transport.js';
import type { DiagnoseOptions, Diagnosis } from './diagnose/types.js';
import { resolveFieldMap } from './model/field-map.js';
import { APIKeys } from './resources/api-keys.js';
import { Codes } from './resources/codes.js';
import { Invoices } from './resources/invoices.js';

// The redaction a withOptions() child may share with its parent, keyed by the options it was built from.
const inherited = new WeakMap<ClientOptions, InheritedRedactor>();

/**
 * The client of the invoicing service. Options come from the constructor, then the environment
 * (`INVOICING_API_KEY`, `INVOICING_SESSION_TOKEN`, `INVOICING_BASE_URL`, `INVOICING_LOG`).
 * @example
 * ```ts
 * const client = new InvoicingClient({ baseUrl: 'https://invoicing.example.com' });
 * ```
 */
export class InvoicingClient {
  /** Invoices: create (checked locally first), retrieve, list, validate, sign, submit, and filing. */ readonly invoices: Invoices;
  /** API keys, over the signed-in session (`sessionToken`). */ readonly apiKeys: APIKeys;
  /** Valid HS and ISIC codes from the service, cached in memory. */ readonly codes: Codes;
  /** The service's origin as resolved (the SDK adds `/api/v1`). */ readonly baseUrl: string;
  /** Milliseconds per attempt. */ readonly timeout: number;
  /** Retries per call after retryable failures. */ readonly maxRetries: number;
  /** The minimum level logged. */ readonly logLevel: LogLevel;
  #given: ClientOptions;
  #hasApiKey: boolean;
  readonly #transport: Transport;
  readonly #redaction: InheritedRedactor;

  /** Resolves and checks the options; throws an `InvoicingError` for an invalid one. */
  constructor(options: ClientOptions = {}) {
    inspectable();
    const resolved = resolveOptions(options, inherited.get(options));
    this.#redaction = { redactor: resolved.redactor, apiKey: resolved.apiKey, sessionToken: resolved.sessionToken };
    this.#given = { ...options };
    this.#hasApiKey = resolved.apiKey !== undefined;
    this.baseUrl = resolved.baseUrl;
    this.timeout = resolved.timeout;
    this.maxRetries = resolved.maxRetries;
    this.logLevel = resolved.logLevel;
    const transport = new Transport({
      ...resolved,
      // After apiKeys.rotate(), clients made by withOptions() from here on get the new key too.
      onApiKeyChange: (apiKey) => {
        this.#given = { ...this.#given, apiKey };
        this.#hasApiKey = true;
      },
    });
    this.#transport = transport;
    const { fieldMap, logger, codesCacheTtl, maxRetries, redactor, finalStatuses } = resolved;
    const ctx = Object.freeze({ transport, fieldMap, logger, codesCacheTtl, maxRetries, redactor, finalStatuses, now: () => Date.now() });
    this.invoices = new Invoices(ctx);
    this.apiKeys = new APIKeys(ctx);
    this.codes = new Codes(ctx);
  }

  /**
   * True when the client has an API key (from the options or `INVOICING_API_KEY`).
   * @example
   * ```ts
   * if (!client.hasApiKey) console.error('set INVOICING_API_KEY');
   * ```
   */
  get hasApiKey(): boolean {
    return this.#hasApiKey;
  }

  /**
   * True when the client has a session token, needed by `client.apiKeys`.
   * @example
   * ```ts
   * if (client.hasSessionToken) console.log(await client.apiKeys.list());
   * ```
   */
  get hasSessionToken(): boolean {
    return this.#redaction.sessionToken !== undefined;
  }

  /**
   * `GET` of a route the SDK does not wrap; resolves with the envelope's `data`, else the body.
   * @example
   * ```ts
   * const invoices = await client.get<unknown[]>('/api/v1/invoices', { query: { limit: 5 } });
   * ```
   */
  get<T = unknown>(path: string, opts: RequestOptions = {}): APIPromise<T> {
    return new APIPromise((record) => this.#raw<T>('GET', path, undefined, opts, record));
  }

  /**
   * `POST` of a JSON `body` to a route the SDK does not wrap, with an idempotency key per call.
   * @example
   * ```ts
   * const answer = await client.post('/api/v1/invoices/inv_123/notes', { body: { text: 'paid' } });
   * ```
   */
  post<T = unknown>(path: string, opts: MutationRequestOptions & { body?: unknown } = {}): APIPromise<T> {
    const { body, ...rest } = opts;
    return new APIPromise((record) => this.#raw<T>('POST', path, body, rest, record));
  }

  async #raw<T>(method: 'GET' | 'POST', path: string, body: unknown, opts: MutationRequestOptions, record: ResponseRecorder) {
    const response = await this.#transport.send({ method, path, body, options: opts, record });
    const envelope = this.#transport.tryUnwrap(response);
    return (envelope === undefined ? response.body : envelope.data) as T;
  }

  /**
   * Read-only checks of this setup against the service (see docs/doctor.md).
   * @example
   * ```ts
   * const { ok, checks } = await client.diagnose();
   * ```
   */
  diagnose(opts: DiagnoseOptions = {}): Promise<Diagnosis> {
    const key = (this.#given.apiKey ?? this.#redaction.apiKey)?.trim();
    const keyMatches = (fragment: string): boolean => key !== undefined && (key.startsWith(fragment) || key.endsWith(fragment));
    const internals = { fieldMap: resolveFieldMap(this.#given.fieldMap), allowInsecureHttp: this.#given.allowInsecureHttp === true, keyMatches };
    return import('./diagnose/index.js').then((m) => m.diagnose(this, internals, opts));
  }

  /**
   * A new client with the same options except those given, and this client's current API key.
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * ```
   */
  withOptions(overrides: ClientOptions): InvoicingClient {
    const options: ClientOptions = { ...this.#given, ...overrides };
    inherited.set(options, this.#redaction);
    return newClient(options);
  }

  /**
   * A secret-free summary of the client's configuration.
   * @example
   * ```ts
   * console.log(JSON.stringify(client));
   * ```
   */
  toJSON(): Record<string, unknown> {
    const { baseUrl, timeout, maxRetries, logLevel, hasApiKey, hasSessionToken } = this;
    return { baseUrl, timeout, maxRetries, logLevel, hasApiKey, hasSessionToken };
  }
}

// Outside the class: a class body that names its class gets renamed by the bundler (`_InvoicingClient`).
function inspectable(): void {
  defineInspect(InvoicingClient.prototype, function (this: InvoicingClient): string {
    return `InvoicingClient ${JSON.stringify(this.toJSON())}`;
  });
}

function newClient(options: ClientOptions): InvoicingClient {
  return new InvoicingClient(options);
}
