import { defineInspect } from './core/inspect.js';
import type { LogLevel } from './core/logger.js';
import { resolveOptions, type ClientOptions } from './core/options.js';
import { registerSecret } from './core/redact.js';
import type { ResourceContext } from './core/resource.js';
import { Transport } from './core/transport.js';
import { LiteInvoices, type InvoiceChecker } from './resources/lite-invoices.js';

/**
 * Options of {@link InvoicingLiteClient}: those of `InvoicingClient`, plus the local checks to run
 * in `invoices.create()`.
 *
 * @example
 * ```ts
 * import { InvoicingLiteClient } from 'invoicing-sdk/lite';
 * import { checkInvoice } from 'invoicing-sdk';
 * const client = new InvoicingLiteClient({ baseUrl: 'https://invoicing.example.com', checkInvoice });
 * ```
 */
export interface LiteClientOptions extends ClientOptions {
  /**
   * Run these checks in `invoices.create()` and refuse with `InvoiceCheckError`, sending nothing,
   * when they find errors: pass `checkInvoice` from `invoicing-sdk` (about 16 KB gzip in a bundle).
   * Without it, `create()` sends without local checks; the service still validates at `validate()`.
   */
  checkInvoice?: InvoiceChecker | undefined;
}

/**
 * The client for bundles where every kilobyte counts (edge functions, serverless, browser tools):
 * the same options, transport, retries, idempotency, errors, redaction, `fieldMap` and exactly-once
 * `validate` / `sign` / `submit` as `InvoicingClient`, with `client.invoices` only: no filing
 * workflow (`waitFor`, `createAndFile`, `resumeFiling`, `fileMany`), no `apiKeys` or `codes`, and no
 * local checks unless given (`checkInvoice` option). Constructing it and making one call bundles to
 * about a third of `InvoicingClient` (docs/performance.md).
 *
 * `InvoicingClient` extends this class, so code written against `InvoicingLiteClient` accepts
 * either.
 *
 * @example
 * ```ts
 * import { InvoicingLiteClient } from 'invoicing-sdk/lite';
 *
 * const client = new InvoicingLiteClient({ baseUrl: 'https://invoicing.example.com' }); // key from env
 * const invoice = await client.invoices.retrieve('inv_123');
 * console.log(invoice.status);
 * ```
 */
export class InvoicingLiteClient {
  /** Invoices: create, retrieve, list, validate, sign, submit. */
  readonly invoices: LiteInvoices;
  /** The service's origin as resolved (the SDK adds `/api/v1`). */
  readonly baseUrl: string;
  /** Milliseconds per attempt. */
  readonly timeout: number;
  /** Retries per call after retryable failures. */
  readonly maxRetries: number;
  /** The minimum level logged. */
  readonly logLevel: LogLevel;
  readonly #given: LiteClientOptions;
  readonly #hasApiKey: boolean;
  readonly #hasSessionToken: boolean;
  readonly #ctx: ResourceContext;

  /**
   * Resolves the options and checks them: a missing `baseUrl`, an invalid value, or a browser-like
   * runtime without `dangerouslyAllowBrowser` throws an `InvoicingError` here.
   */
  constructor(options: LiteClientOptions = {}) {
    defineInspect(InvoicingLiteClient.prototype, inspectClient);
    const resolved = resolveOptions(options);
    registerSecret(resolved.apiKey);
    registerSecret(resolved.sessionToken);
    this.#given = { ...options };
    this.#hasApiKey = resolved.apiKey !== undefined;
    this.#hasSessionToken = resolved.sessionToken !== undefined;
    this.baseUrl = resolved.baseUrl;
    this.timeout = resolved.timeout;
    this.maxRetries = resolved.maxRetries;
    this.logLevel = resolved.logLevel;

    const transport = new Transport({
      baseUrl: resolved.baseUrl,
      credentials: { apiKey: resolved.apiKey, sessionToken: resolved.sessionToken },
      timeout: resolved.timeout,
      maxRetries: resolved.maxRetries,
      fetch: resolved.fetch,
      logger: resolved.logger,
      logLevel: resolved.logLevel,
      browser: resolved.browser,
      hooks: resolved.hooks,
      fetchOptions: resolved.fetchOptions,
      defaultHeaders: resolved.defaultHeaders,
      defaultQuery: resolved.defaultQuery,
      maxResponseBytes: resolved.maxResponseBytes,
    });
    const ctx: ResourceContext = Object.freeze({
      transport,
      fieldMap: resolved.fieldMap,
      logger: resolved.logger,
      codesCacheTtl: resolved.codesCacheTtl,
      maxRetries: resolved.maxRetries,
      now: () => Date.now(),
      check: options.checkInvoice,
    });
    this.#ctx = ctx;
    this.invoices = this._createInvoices(ctx);
  }

  /**
   * What resources run on (no secret in it: the credentials stay inside the transport).
   *
   * @internal
   */
  protected _resourceContext(): ResourceContext {
    return this.#ctx;
  }

  /**
   * The `invoices` resource; `InvoicingClient` answers its own, with the filing workflow.
   *
   * @internal
   */
  protected _createInvoices(ctx: ResourceContext): LiteInvoices {
    return new LiteInvoices(ctx);
  }

  /**
   * The class name shown by `util.inspect` (kept by minifiers, unlike `constructor.name`).
   *
   * @internal
   */
  protected get _label(): string {
    return 'InvoicingLiteClient';
  }

  /**
   * True when the client has an API key (from the options or `INVOICING_API_KEY`).
   *
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
   *
   * @example
   * ```ts
   * if (client.hasSessionToken) console.log(await client.apiKeys.list());
   * ```
   */
  get hasSessionToken(): boolean {
    return this.#hasSessionToken;
  }

  /**
   * A new client of the same class with the same options except those given.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * ```
   */
  withOptions(overrides: ClientOptions): this {
    const Client = this.constructor as new (options: LiteClientOptions) => this;
    return new Client({ ...this.#given, ...overrides });
  }

  /**
   * A secret-free summary of the client's configuration.
   *
   * @example
   * ```ts
   * console.log(JSON.stringify(client)); // {"baseUrl":"https://…","timeout":30000,…,"hasApiKey":true}
   * ```
   */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      logLevel: this.logLevel,
      hasApiKey: this.#hasApiKey,
      hasSessionToken: this.#hasSessionToken,
    };
  }
}

/**
 * What `util.inspect` and `console.log` show for a client: the same secret-free summary as
 * `toJSON()`. On `InvoicingLiteClient.prototype` (src/core/inspect.ts).
 */
function inspectClient(this: InvoicingLiteClient): string {
  // `_label` is protected: read through the class's own view of it.
  return `${(this as unknown as { _label: string })._label} ${JSON.stringify(this.toJSON())}`;
}
