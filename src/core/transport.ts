// HTTP on ky, the only module importing it. One attempt reads the whole body inside its timeout, bounded; no redirects.
import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type AfterResponseHook,
  type BeforeErrorHook,
  type BeforeRequestHook,
  type BeforeRetryHook,
  type KyInstance,
  type Options,
} from 'ky';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  generateAPIError,
  InvoicingError,
  redactError,
  ResponseTooLargeError,
} from './errors.js';
import type { Redactor } from './redact.js';
import { redirectHint, requestIdOf } from './error-hints.js';
import { authHeader, type Credentials, checkExtraHeaders, checkHeader, checkIdempotencyKey, redactHeaders, USER_AGENT } from './headers.js';
import { mintIdempotencyKey } from './idempotency.js';
import { boundedInteger, type Fetch } from './bounds.js';
import { appendQuery, checkQuery, type Query } from './query.js';
import type { MutationRequestOptions } from './request-options.js';
import { failureOf, shouldRetry as classify, RETRYABLE_STATUSES, type AttemptFailure } from './retry.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS, parseRetryAfter } from './retry-timing.js';
import type { ResponseRecorder } from './api-promise.js';
import { readEnvelope, unwrapEnvelope, type Envelope } from './envelope.js';
import type { FieldMap, ResolvedFieldMap } from '../model/field-map.js';
import type { Logger, LogLevel } from './logger.js';
import { isSessionRoute } from './routes.js';
import { parseBodySafely } from './safe-json.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** ky hooks run on every request after the SDK's own (`beforeError` gets the SDK's redacted error). @example const hooks: ClientHooks = { afterResponse: [({ response }) => console.log(response.status)] }; */
export interface ClientHooks {
  /** Run once per call, after the SDK has added authentication and the idempotency key. */ beforeRequest?: BeforeRequestHook[] | undefined;
  /** Run before each retry, after the SDK's own retry log line. */ beforeRetry?: BeforeRetryHook[] | undefined;
  /** Run on every response, retried ones included. */ afterResponse?: AfterResponseHook[] | undefined;
  /** Run with the SDK's error (an `InvoicingError`), secrets already redacted. */ beforeError?: BeforeErrorHook[] | undefined;
}

/** Extra `RequestInit` fields for every request (an undici `dispatcher`, …). @example const fetchOptions: FetchOptions = { keepalive: true }; */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'> & Record<string, unknown>;

/**
 * Options of `new InvoicingClient(options)`; credentials, baseUrl and log level fall back to environment variables.
 * @example
 * ```ts
 * const client = new InvoicingClient({ apiKey: process.env.INVOICING_API_KEY, baseUrl: 'https://invoicing.example.com' });
 * ```
 */
export interface ClientOptions {
  /** Sent only as the `X-API-Key` header. Default: env `INVOICING_API_KEY`. */ apiKey?: string | undefined;
  /** Portal session, sent as `Bearer` to `/api/v1/api-key` only. Default: `INVOICING_SESSION_TOKEN`. */ sessionToken?: string | undefined;
  /** Service origin; the SDK adds `/api/v1`. Default: env `INVOICING_BASE_URL`; missing is an error. */ baseUrl?: string | undefined;
  /** Milliseconds per attempt, reading the body included. Default 30 000. */ timeout?: number | undefined;
  /** Retries after no answer, 408, 429, 500, 502-504 (POST only with an idempotency key). Default 2. */ maxRetries?: number | undefined;
  /** Custom `fetch` (proxies, tests). Default: the global `fetch`, looked up at call time. */ fetch?: Fetch | undefined;
  /** Where log lines go. Default: `console`. Every line has secrets redacted. */ logger?: Logger | undefined;
  /** Minimum level logged. Default: env `INVOICING_LOG`, else `warn`. */ logLevel?: LogLevel | undefined;
  /** How stored invoices are read (aliases per canonical field). Default: the built-in aliases. */ fieldMap?: FieldMap | undefined;
  /** How long `client.codes` keeps a lookup, in milliseconds. Default one hour. */ codesCacheTtl?: number | undefined;
  /** ky hooks run on every request, after the SDK's own. */ hooks?: ClientHooks | undefined;
  /** Extra `RequestInit` for every request, e.g. an undici `dispatcher` for a proxy or mTLS. */ fetchOptions?: FetchOptions | undefined;
  /** Headers for every request (not X-API-Key, Authorization, Idempotency-Key). */ defaultHeaders?: Record<string, string> | undefined;
  /** Query parameters added to every request. A parameter named like a credential is refused. */ defaultQuery?: Query | undefined;
  /** Largest body read, in bytes; a larger one is a `ResponseTooLargeError`. Default 32 MiB. */ maxResponseBytes?: number | undefined;
  /** No warning for plain `http://` to a non-loopback host (the key in clear). Default false. */ allowInsecureHttp?: boolean | undefined;
  /** Final statuses for `waitFor` and `watch`. Default `DEFAULT_FINAL_STATUSES`. */ finalStatuses?: readonly string[] | undefined;
  /** Allow a browser, where visitors see the API key. Default false: construction throws. */ dangerouslyAllowBrowser?: boolean | undefined;
}

type Given = 'apiKey' | 'sessionToken' | 'fetch' | 'hooks' | 'fetchOptions' | 'defaultQuery';
type Defaulted = 'timeout' | 'maxRetries' | 'logger' | 'logLevel' | 'codesCacheTtl' | 'maxResponseBytes' | 'finalStatuses';

/** Options after resolution: `baseUrl` is the origin plus any path prefix, without `/api/v1` or a trailing slash. */
export type ResolvedOptions = Pick<ClientOptions, Given> & Required<Pick<ClientOptions, Defaulted | 'baseUrl' | 'allowInsecureHttp'>> & {
  fieldMap: ResolvedFieldMap;
  browser: boolean;
  /** Checked and lower-cased. */ defaultHeaders: Record<string, string>;
  /** This client's secrets, for scrubbing errors, logs and records. */ redactor: Redactor;
  /** Told of the new key when {@link Transport.setApiKey} switches it. */ onApiKeyChange?: ((apiKey: string) => void) | undefined;
};

export interface TransportRequest {
  method: HttpMethod;
  /** Path from the origin, `/api/v1` included. */ path: string;
  query?: Query | undefined;
  /** Sent as JSON. */ body?: unknown;
  /** The JSON body already serialized, sent byte for byte instead of `body`. */ bodyText?: string | undefined;
  options?: (MutationRequestOptions & { query?: Query | undefined }) | undefined;
  /** Send once, never retry (transitions: the filing layer reads the invoice before it tries again). */ noRetry?: boolean | undefined;
  /** Told of the response (for `withResponse()`). */ record?: ResponseRecorder | undefined;
}

interface CallContext {
  method: HttpMethod;
  path: string;
  timeout: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  idempotencyKey: string | undefined;
  attempts: number;
}

const CONTEXT = 'invoicingSdk';
const IDEMPOTENCY_HEADER = 'idempotency-key';

class ConnectionFailure extends Error {
  override readonly name = 'ConnectionFailure';
}

// `bytes` kept only when the text would not give them back.
type ReadBody = { text: string; bytes: Uint8Array<ArrayBuffer> | undefined };

const BODIES = new WeakMap<Response, ReadBody>();

export class TransportResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON (no `__proto__` or `constructor` keys); the text when not JSON; `undefined` when empty. */ readonly body: unknown;
  #raw: Response | undefined;

  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    /** The client's redactor, for an error built from this response after it left the transport. */ readonly redactor: Redactor,
    private readonly received: Response,
    private readonly read: ReadBody | undefined,
    text: string,
  ) {
    this.status = received.status;
    this.headers = received.headers;
    this.body = parseBodySafely(text);
  }

  get requestId(): string | undefined {
    return requestIdOf(this.headers);
  }

  /** The response as received, its body unread: rebuilt from the read body on first use. */
  get raw(): Response {
    return (this.#raw ??= this.read === undefined ? this.received : rebuild(this.received, this.read));
  }
}

export class Transport {
  readonly #config: ResolvedOptions;
  readonly #credentials: Credentials;
  readonly #ky: KyInstance;
  readonly #origin: string;
  /** Auth header of each call, built before sending, kept off the context that hooks see. */
  readonly #auth = new WeakMap<CallContext, [string, string]>();
  /** With a caller's afterResponse hook, every response carries its body (ky clones it, the hook may read it). */
  readonly #fullResponses: boolean;
  /** Settles when every key rotation in progress has; `X-API-Key` requests wait for it. */ #rotation: Promise<void> | undefined;

  constructor(config: ResolvedOptions) {
    this.#config = { ...config, apiKey: undefined, sessionToken: undefined };
    this.#credentials = { apiKey: config.apiKey, sessionToken: config.sessionToken };
    this.#origin = new URL(config.baseUrl).origin;
    const theirs = config.hooks ?? {};
    this.#fullResponses = (theirs.afterResponse?.length ?? 0) > 0;
    this.#ky = ky.create({
      ...requestInitOnly(config.fetchOptions),
      timeout: config.timeout,
      // Following a redirect would send the credentials and the body wherever Location points.
      redirect: 'manual',
      // Only error bodies reach ky's parser; one that is not JSON is kept as text.
      parseJson: (text: string) => parseBodySafely(text),
      retry: {
        limit: config.maxRetries,
        // POST too: whether it may be retried (only with an idempotency key) is core/retry.ts's call.
        methods: ['get', 'put', 'head', 'delete', 'options', 'post', 'patch'],
        afterStatusCodes: [...RETRYABLE_STATUSES],
        maxRetryAfter: MAX_RETRY_AFTER_MS,
        backoffLimit: MAX_RETRY_DELAY_MS,
        delay: (attempt) => INITIAL_RETRY_DELAY_MS * 2 ** (attempt - 1),
        jitter: true,
        shouldRetry: ({ error }) => this.#shouldRetry(error),
      },
      hooks: {
        beforeRequest: [this.#beforeRequest, ...(theirs.beforeRequest ?? [])],
        beforeRetry: [this.#beforeRetry, ...(theirs.beforeRetry ?? [])],
        afterResponse: theirs.afterResponse ?? [],
        beforeError: [this.#beforeError, ...(theirs.beforeError ?? [])],
      },
    });
  }

  /** Sends a request with retries; resolves with a 2xx response or throws an `InvoicingError`. */
  send(request: TransportRequest): Promise<TransportResponse> {
    return this.#send(request).catch((error: unknown) => {
      throw redactError(error, this.#config.redactor);
    });
  }

  async request(request: TransportRequest): Promise<{ envelope: Envelope; response: TransportResponse }> {
    const response = await this.send(request);
    return { envelope: unwrapEnvelope(response.body, response), response };
  }

  tryUnwrap(response: TransportResponse): Envelope | undefined {
    return readEnvelope(response.body);
  }

  setApiKey(apiKey: string): void {
    checkHeader('apiKey (X-API-Key)', apiKey);
    this.#credentials.apiKey = apiKey;
    this.#config.redactor.add(apiKey);
    this.#config.onApiKeyChange?.(apiKey);
  }

  /** Holds every `X-API-Key` request until `rotation` settles (session routes go on), so none is sent with a key the service is revoking: the held ones then go with whichever key is current. */
  holdApiKeyRequests(rotation: Promise<unknown>): void {
    const held: Promise<void> = Promise.allSettled([this.#rotation, rotation]).then(() => {
      if (this.#rotation === held) this.#rotation = undefined;
    });
    this.#rotation = held;
  }

  async #send(request: TransportRequest): Promise<TransportResponse> {
    const opts = request.options ?? {};
    const { method, path } = request;
    if (this.#rotation !== undefined && !isSessionRoute(path)) await untilSettledOrAborted(this.#rotation, opts.signal);
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
      throw new InvoicingError(`A path must start with one "/" and is taken from baseUrl; got ${JSON.stringify(path)}.`, {
        hint: 'Pass the path of the route, e.g. "/api/v1/invoices"; the client never sends its credentials to another origin.',
      });
    }
    const timeout = boundedInteger('timeout', opts.timeout, this.#config.timeout, 1);
    const maxRetries = request.noRetry === true ? 0 : boundedInteger('maxRetries', opts.maxRetries, this.#config.maxRetries, 0);
    const given = opts.idempotencyKey;
    const idempotencyKey = given === undefined || given === null ? undefined : checkIdempotencyKey(given);
    const ctx: CallContext = { method, path, timeout, maxRetries, signal: opts.signal, idempotencyKey, attempts: 0 };
    // Built before anything is sent: a missing credential fails here, locally.
    this.#auth.set(ctx, authHeader(path, this.#credentials));
    const url = this.#url(path, request.query, opts.query);
    const bodyText = request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    // Only headers that differ from none: ky copies every header it is given several times per call.
    let headers: Record<string, string> | undefined = this.#config.defaultHeaders;
    if (opts.headers !== undefined || bodyText !== undefined) {
      headers = { ...headers, ...(opts.headers === undefined ? {} : checkExtraHeaders(opts.headers, 'headers')) };
      if (bodyText !== undefined) headers['content-type'] = 'application/json';
    }
    if (ctx.signal?.aborted) throw new APIUserAbortError({ method, path, cause: ctx.signal.reason });
    let received: Response;
    try {
      // Only what differs from the instance's defaults: ky merges every option into them per call.
      const options: Options = { method, context: { [CONTEXT]: ctx }, fetch: (input, init) => this.#attempt(input as Request, init, ctx) };
      if (bodyText !== undefined) options.body = bodyText;
      if (!isEmpty(headers)) options.headers = headers;
      if (ctx.timeout !== this.#config.timeout) options.timeout = ctx.timeout;
      if (ctx.maxRetries !== this.#config.maxRetries) options.retry = { limit: ctx.maxRetries };
      if (ctx.signal !== undefined) options.signal = ctx.signal;
      received = await this.#ky(url, options);
    } catch (error) {
      throw this.#toSDKError(error, ctx);
    }
    // A response a caller's afterResponse hook substituted is read from a clone, and kept as raw.
    const read = BODIES.get(received);
    const text = read?.text ?? (await received.clone().text());
    const response = new TransportResponse(method, path, this.#config.redactor, received, read, text);
    request.record?.(response);
    return response;
  }

  #url(path: string, query: Query | undefined, callQuery: Query | undefined): string {
    checkQuery(query, 'The query');
    checkQuery(callQuery, 'The query option');
    const defaults = this.#config.defaultQuery;
    // Nothing to parse in a plain path without a query: it stays under baseUrl.
    if (PLAIN_PATH.test(path) && isEmpty(defaults) && isEmpty(query) && isEmpty(callQuery)) return `${this.#config.baseUrl}${path}`;
    const url = new URL(`${this.#config.baseUrl}${path}`);
    // The origin is the client's, whatever the path holds (`/..`, `/%2e%2e`, `@`).
    if (url.origin !== this.#origin) throw new InvoicingError(`The path ${JSON.stringify(path)} leaves the service's origin; nothing was sent.`);
    appendQuery(url, defaults);
    appendQuery(url, query);
    appendQuery(url, callQuery);
    return url.href;
  }

  readonly #beforeRequest: BeforeRequestHook = ({ request, options }) => {
    const ctx = contextOf(options.context)!;
    const [name, value] = this.#auth.get(ctx)!;
    request.headers.set(name, value);
    // Once per logical call: every retry sends this key, so the service acts once.
    const key = ctx.idempotencyKey ?? (ctx.method === 'POST' ? mintIdempotencyKey() : undefined);
    if (key !== undefined) request.headers.set(IDEMPOTENCY_HEADER, key);
    request.headers.set('accept', 'application/json');
    request.headers.set(this.#config.browser ? 'x-invoicing-sdk' : 'user-agent', USER_AGENT);
  };

  readonly #beforeRetry: BeforeRetryHook = ({ options, error, retryCount }) => {
    const ctx = contextOf(options.context)!;
    const retryAfter = isHTTPError(error) ? parseRetryAfter(error.response.headers.get('retry-after')) : undefined;
    this.#config.logger.info(
      `Retrying ${ctx.method} ${ctx.path} (retry ${retryCount} of ${ctx.maxRetries}) after ${describeFailure(error)}` +
        `${retryAfter === undefined ? '' : `, waited ${retryAfter} ms as Retry-After asked`}.`,
    );
  };

  // Scrubbed here already: the caller's beforeError hooks run next and may log what they get.
  readonly #beforeError: BeforeErrorHook = ({ error, options }) =>
    asError(redactError(this.#toSDKError(error, contextOf(options.context)), this.#config.redactor));

  #shouldRetry(error: Error): boolean | undefined {
    const request = (error as { request?: Request }).request;
    if (isHTTPError(error) && (parseRetryAfter(error.response.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_MS) return false;
    const retry = classify({
      method: request?.method ?? 'GET',
      hasIdempotencyKey: request?.headers.has(IDEMPOTENCY_HEADER) ?? false,
      failure: kyFailure(error),
    });
    // A status goes on to ky's own rules, for its Retry-After handling.
    return retry && (isHTTPError(error) ? undefined : true);
  }

  async #attempt(request: Request, init: RequestInit | undefined, ctx: CallContext): Promise<Response> {
    const signal = request.signal;
    const debug = this.#config.logLevel === 'debug' ? this.#config.logger : undefined;
    const started = Date.now();
    ctx.attempts += 1;
    if (debug !== undefined) {
      const headers = JSON.stringify(redactHeaders(Object.fromEntries(request.headers)));
      debug.debug(`→ ${ctx.method} ${ctx.path} (attempt ${ctx.attempts} of ${ctx.maxRetries + 1}) headers ${headers}`);
    }
    let response: Response;
    try {
      // Looked up per call, so that a fetch installed later (msw, a polyfill) is used.
      response = await (this.#config.fetch ?? globalThis.fetch)(request, init);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ConnectionFailure(causeMessage(error), { cause: error });
    }
    if (response.redirected || (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      throw refusedRedirect(response, request.url, this.#config.baseUrl, ctx);
    }
    const limit = this.#config.maxResponseBytes;
    const declared = Number(response.headers.get('content-length'));
    if (declared > limit && !response.headers.has('content-encoding')) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(response, limit, ctx);
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readBounded(response, limit, signal);
    } catch (error) {
      if (error === TOO_LARGE) throw tooLarge(response, limit, ctx);
      if (signal.aborted) throw signal.reason;
      throw new ConnectionFailure(causeMessage(error), { cause: error });
    }
    if (signal.aborted) throw signal.reason;
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    const exact = nullBody ? '' : decodeExactly(bytes);
    const read: ReadBody = { text: exact ?? UTF8.decode(bytes), bytes: exact === undefined || !response.headers.has('content-type') ? bytes : undefined };
    if (debug !== undefined) {
      const id = requestIdOf(response.headers);
      debug.debug(`← ${response.status} ${ctx.method} ${ctx.path} in ${Date.now() - started} ms${id ? ` (request-id ${id})` : ''}`);
    }
    // Nothing will retry it or read ky's HTTPError: the SDK's error now, without a second read of the body by ky.
    if (!response.ok && ctx.maxRetries === 0 && !this.#fullResponses) {
      const { status, headers } = response;
      throw generateAPIError({ status, headers, body: parseBodySafely(read.text), method: ctx.method, path: ctx.path });
    }
    // A 2xx goes back read (its text is in BODIES); an error's body is ky's to read, and a caller's hook may read any.
    const out = !response.ok || this.#fullResponses ? rebuild(response, read) : response;
    BODIES.set(out, read);
    return out;
  }

  #toSDKError(error: unknown, ctx: CallContext | undefined): unknown {
    if (error instanceof InvoicingError) return error;
    const { method, path } = ctx ?? {};
    if (ctx?.signal?.aborted) return new APIUserAbortError({ method, path, cause: ctx.signal.reason });
    if (isHTTPError(error)) {
      const body = typeof error.data === 'string' ? parseBodySafely(error.data) : error.data;
      return generateAPIError({ status: error.response.status, headers: error.response.headers, body, method: method ?? 'GET', path: path ?? '' });
    }
    if (isTimeoutError(error)) {
      const timeout = ctx?.timeout ?? this.#config.timeout;
      const hint = `No complete response within ${timeout} ms. Raise the timeout option (per client or per call) if the service is slow.`;
      return new APIConnectionTimeoutError({ message: `Request timed out after ${timeout} ms (${method} ${path}).`, method, path, hint });
    }
    if (isNetworkError(error) || error instanceof ConnectionFailure) {
      const cause = error.cause ?? error;
      const hint = `Could not reach ${this.#config.baseUrl}. Check the network and baseUrl (or INVOICING_BASE_URL).`;
      const message = `Connection error (${method} ${path}): ${causeMessage(cause)}.`;
      return new APIConnectionError({ message, method, path, cause, hint });
    }
    return error;
  }
}

function kyFailure(error: Error): AttemptFailure {
  if (isTimeoutError(error)) return { kind: 'timeout' };
  if (isNetworkError(error) || error instanceof ConnectionFailure) return { kind: 'connection' };
  return isHTTPError(error) ? { kind: 'status', status: error.response.status } : failureOf(error);
}

// Unreserved and sub-delimiter characters only: no `\\`, `?`, `#`, whitespace or `..` segment for a URL parser to act on.
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[\w\-.~%!$&'()*+,;=:@]*)+$/;

function isEmpty(object: object | undefined | null): boolean {
  if (object === undefined || object === null) return true;
  for (const _ in object) return false;
  return true;
}

const contextOf = (context: Record<string, unknown> | undefined): CallContext | undefined => context?.[CONTEXT] as CallContext | undefined;

function rebuild(response: Response, read: ReadBody | undefined): Response {
  const nullBody = read === undefined || response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(nullBody ? null : (read.bytes ?? read.text), { status: response.status, statusText: response.statusText, headers: response.headers });
}

const TOO_LARGE = Symbol('invoicing-sdk.too-large');
const UTF8 = new TextDecoder();
const UTF8_EXACT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes` when encoding it again gives the same bytes (valid UTF-8, no BOM). */
function decodeExactly(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return undefined;
  try {
    return UTF8_EXACT.decode(bytes);
  } catch {
    return undefined;
  }
}

async function readBounded(response: Response, limit: number, signal: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  // A custom fetch may not tie the body to the signal: cancel the read ourselves on abort.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw TOO_LARGE;
      }
      chunks.push(next.value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const first = chunks[0];
  if (chunks.length === 1 && first!.byteLength === first!.buffer.byteLength) return first as Uint8Array<ArrayBuffer>;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(response: Response, limit: number, { method, path }: CallContext): ResponseTooLargeError {
  return new ResponseTooLargeError({
    message: `The response body is larger than maxResponseBytes (${limit} bytes); reading stopped (${method} ${path}).`,
    status: response.status, requestId: requestIdOf(response.headers), method, path, limit,
    hint: 'Ask for smaller pages (limit), or raise the client option maxResponseBytes if such bodies are expected.',
  });
}

function refusedRedirect(response: Response, url: string, baseUrl: string, { method, path }: CallContext): APIError {
  let to = response.redirected ? response.url : response.headers.get('location');
  // Absolute, without user info, query or fragment (they can hold tokens); shown as sent when not a URL.
  if (to && URL.canParse(to, url)) to = ((u) => u.origin + u.pathname)(new URL(to, url));
  void response.body?.cancel().catch(() => undefined);
  return new APIError({
    message: `Redirect refused: ${response.status || 'opaque'}${to ? ` to ${to}` : ''} (${method} ${path}).`,
    status: response.status, requestId: requestIdOf(response.headers), method, path,
    hint: redirectHint(baseUrl),
  });
}

// The SDK's own request fields and every ky option (retries, hooks, timeouts are client options).
const NOT_FETCH_OPTIONS = new Set([
  'method', 'headers', 'body', 'signal', 'redirect', 'json', 'parseJson', 'stringifyJson', 'searchParams',
  'baseUrl', 'prefix', 'prefixUrl', 'retry', 'timeout', 'totalTimeout', 'hooks', 'throwHttpErrors',
  'onDownloadProgress', 'onUploadProgress', 'fetch', 'context',
]);

function requestInitOnly(options: FetchOptions | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !NOT_FETCH_OPTIONS.has(key)));
}

const asError = (value: unknown): Error => (value instanceof Error ? value : new Error(String(value)));

function causeMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = (inner as { code?: unknown } | undefined)?.code ?? (cause as { code?: unknown }).code;
  return [cause.message, typeof code === 'string' ? code : inner?.message].filter(Boolean).join(': ');
}

const describeFailure = (error: Error): string =>
  isHTTPError(error) ? `HTTP ${error.response.status}` : isTimeoutError(error) ? 'a timeout' : 'a connection error';

function untilSettledOrAborted(held: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return held;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void held.then(done);
  });
}
