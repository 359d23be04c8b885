/**
 * HTTP transport on ky: the only module that imports it. One ky instance per client, created from
 * the options resolved once at construction; ky fetches, retries (backoff with full jitter,
 * `Retry-After` capped), times out per attempt and runs the hooks. The SDK adds, in its own hooks
 * (which run before the caller's):
 * - `beforeRequest`: authentication by route (`X-API-Key`, or `Authorization: Bearer` on the
 *   `/api/v1/api-key` routes only), the idempotency key of a POST (run once per call, so every retry
 *   sends the same key), `User-Agent`, and the redacted debug line;
 * - `beforeRetry`: the retry log line;
 * - `beforeError`: {@link toSDKError}, the one factory from ky's errors to the SDK's.
 *
 * Each attempt is one call of {@link Transport}'s attempt function (ky's `fetch`): the platform's
 * fetch (or the client's), then the whole body read inside the same per-attempt timeout, counted
 * against `maxResponseBytes` while it is read, and redirects refused. ky's timeout therefore covers
 * the body, and a stall mid-body is retried like any timeout.
 */
import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type AfterResponseHook,
  type BeforeErrorHook,
  type BeforeRequestHook,
  type BeforeRetryHook,
  type KyInstance,
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
import { requestIdOf } from './error-hints.js';
import { redirectHint } from './error-hints.js';
import { authHeader, checkExtraHeaders, checkHeader, checkIdempotencyKey, redactHeaders, userAgent, type Credentials } from './headers.js';
import { mintIdempotencyKey } from './idempotency.js';
import type { Logger, LogLevel } from './logger.js';
import { boundedInteger, type Fetch } from './bounds.js';
import { appendQuery, checkQuery, type Query } from './query.js';
import type { MutationRequestOptions } from './request-options.js';
import { failureOf, shouldRetry as classify, RETRYABLE_STATUSES } from './retry.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS, parseRetryAfter } from './retry-timing.js';
import type { ResponseRecorder } from './api-promise.js';
import { readEnvelope, unwrapEnvelope, type Envelope } from './envelope.js';
import { isSessionRoute } from './routes.js';
import { parseBodySafely } from './safe-json.js';

export type { QueryValue } from './query.js';

/**
 * HTTP methods the service uses.
 *
 * @example
 * ```ts
 * type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; // what `HttpMethod` allows
 * const method: Method = 'POST';
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * ky hooks the client runs on every request, after the SDK's own: `beforeRequest` sees the
 * authenticated request, `beforeError` receives the SDK's error (an `InvoicingError`).
 *
 * @example
 * ```ts
 * import { InvoicingClient, type ClientHooks } from 'invoicing-sdk';
 * const hooks: ClientHooks = {
 *   beforeRequest: [({ request }) => { request.headers.set('x-trace-id', crypto.randomUUID()); }],
 *   afterResponse: [({ response }) => { console.log('status', response.status); }],
 * };
 * const client = new InvoicingClient({ hooks });
 * ```
 */
export interface ClientHooks {
  /** Run once per call, after the SDK has added authentication and the idempotency key. */
  beforeRequest?: BeforeRequestHook[] | undefined;
  /** Run before each retry, after the SDK's own retry log line. */
  beforeRetry?: BeforeRetryHook[] | undefined;
  /** Run on every response, retried ones included. */
  afterResponse?: AfterResponseHook[] | undefined;
  /** Run with the SDK's error (an `InvoicingError`), secrets already redacted. */
  beforeError?: BeforeErrorHook[] | undefined;
}

/**
 * Extra `RequestInit` fields for every request (an undici `dispatcher` for a proxy or mTLS, `cache`,
 * `priority`, …). `method`, `headers`, `body`, `signal` and `redirect` are the SDK's and cannot be
 * set here.
 *
 * @example
 * ```ts
 * import { InvoicingClient } from 'invoicing-sdk';
 * declare const proxyAgent: object; // e.g. new ProxyAgent('http://proxy:3128') from undici
 * const client = new InvoicingClient({ fetchOptions: { dispatcher: proxyAgent } });
 * ```
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'> & Record<string, unknown>;

/** One logical call, before retries. */
export interface TransportRequest {
  method: HttpMethod;
  /** Path from the origin, `/api/v1` included. */
  path: string;
  query?: Query | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /**
   * The JSON body already serialized: sent byte for byte instead of `body` (`invoices.create` checks
   * exactly these bytes before sending them).
   */
  bodyText?: string | undefined;
  options?: (MutationRequestOptions & { query?: Query | undefined }) | undefined;
  /**
   * Send once, never retry, whatever `maxRetries` says. For state transitions, whose retries are the
   * filing layer's business (it reads the invoice before it tries again).
   */
  noRetry?: boolean | undefined;
  /** Told of the response (for `withResponse()`). */
  record?: ResponseRecorder | undefined;
}

/** A 2xx response, body read. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON (no `__proto__` or `constructor` keys); the text when it was not JSON; `undefined` when empty. */
  body: unknown;
  method: HttpMethod;
  path: string;
  /** The `x-request-id` (or `request-id`) header. */
  requestId: string | undefined;
  /** The response as received, its body unread (for `asResponse()` / `withResponse()`). */
  raw: Response;
  /**
   * The client's redactor: an error built from this response after it left the transport (an
   * `InvalidResponseError` for a record the resource cannot use) is scrubbed with it.
   */
  redactor?: Redactor | undefined;
}

/** What the transport runs on (no secrets outside `credentials`, which it keeps private). */
export interface TransportConfig {
  baseUrl: string;
  credentials: Credentials;
  timeout: number;
  maxRetries: number;
  fetch: Fetch | undefined;
  logger: Logger;
  /** The client's level: request lines are not even built below `debug`. */
  logLevel: LogLevel;
  browser: boolean;
  hooks?: ClientHooks | undefined;
  fetchOptions?: FetchOptions | undefined;
  /** Checked (`checkExtraHeaders`) and lower-cased at construction. */
  defaultHeaders?: Record<string, string> | undefined;
  defaultQuery?: Query | undefined;
  maxResponseBytes: number;
  /** This client's secrets: every error leaving the transport is scrubbed with it. */
  redactor: Redactor;
  /** Told of the new key when {@link Transport.setApiKey} switches it (the client's `withOptions()` base). */
  onApiKeyChange?: ((apiKey: string) => void) | undefined;
}

/** What the SDK's hooks and error factory know of one call (ky's `context`). */
interface CallContext {
  method: HttpMethod;
  path: string;
  timeout: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** Per-call idempotency key, checked; minted in `beforeRequest` when a POST has none. */
  idempotencyKey: string | undefined;
  started: number;
}

const CONTEXT = 'invoicingSdk';

/** A fetch rejection that is not an abort: no response arrived. Retried as a connection error. */
class ConnectionFailure extends Error {
  override readonly name = 'ConnectionFailure';
}

/** The idempotency key header, read by the retry decision from the request itself. */
const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The client's transport: one ky instance, created from the resolved options. Resources call
 * `send` (or `request`, which also unwraps the envelope); nothing else sends.
 *
 * @example
 * ```ts
 * // Internal: resources hold it; users reach routes through client.get() / client.post().
 * declare const transport: { request(r: { method: 'GET'; path: string; query?: Record<string, number> }): Promise<{ envelope: unknown }> };
 * const { envelope } = await transport.request({ method: 'GET', path: '/api/v1/invoices', query: { limit: 5 } });
 * ```
 */
export class Transport {
  readonly #config: Omit<TransportConfig, 'credentials'>;
  readonly #credentials: Credentials;
  readonly #ky: KyInstance;
  /** Settles when every key rotation in progress has; `X-API-Key` requests wait for it. */
  #rotation: Promise<void> | undefined;
  #baseUrl: URL | undefined;

  constructor(config: TransportConfig) {
    const { credentials, ...rest } = config;
    this.#config = rest;
    this.#credentials = { ...credentials };
    const own = this.#ownHooks();
    const theirs = config.hooks ?? {};
    this.#ky = ky.create({
      ...requestInitOnly(config.fetchOptions),
      // Redirects are refused (see #attempt): following one would send the credentials and the body
      // wherever the Location points.
      redirect: 'manual',
      throwHttpErrors: true,
      fetch: (input, init) => this.#attempt(input as Request, init),
      // Only error bodies reach ky's parser (2xx text is read and parsed below). One that is not
      // valid JSON whatever its content-type (a proxy's page, a body cut short) is kept as text,
      // so the error shows what the service said (scrubbed, as every error is).
      parseJson: (text: string) => parseBodySafely(text),
      retry: {
        limit: config.maxRetries,
        // POST too: whether a POST may be retried (only with an idempotency key) is decided by
        // core/retry.ts, through shouldRetry below.
        methods: ['get', 'put', 'head', 'delete', 'options', 'post', 'patch'],
        statusCodes: [...RETRYABLE_STATUSES],
        afterStatusCodes: [...RETRYABLE_STATUSES],
        maxRetryAfter: MAX_RETRY_AFTER_MS,
        backoffLimit: MAX_RETRY_DELAY_MS,
        delay: (attempt) => INITIAL_RETRY_DELAY_MS * 2 ** (attempt - 1),
        jitter: true,
        retryOnTimeout: true,
        shouldRetry: ({ error, retryCount }) => this.#shouldRetry(error, retryCount),
      },
      hooks: {
        beforeRequest: [...own.beforeRequest, ...(theirs.beforeRequest ?? [])],
        beforeRetry: [...own.beforeRetry, ...(theirs.beforeRetry ?? [])],
        afterResponse: [...own.afterResponse, ...(theirs.afterResponse ?? [])],
        beforeError: [...own.beforeError, ...(theirs.beforeError ?? [])],
      },
    });
  }

  /** Sends a request with retries; resolves with a 2xx response or throws an `InvoicingError`. */
  async send(request: TransportRequest): Promise<TransportResponse> {
    try {
      return await this.#send(request);
    } catch (error) {
      throw redactError(error, this.#config.redactor);
    }
  }

  /**
   * Key rotation: sends `X-API-Key` from now on with `apiKey`, and redacts it like the client's own
   * secrets. The previous key stays in the redactor.
   */
  setApiKey(apiKey: string): void {
    checkHeader('apiKey (X-API-Key)', apiKey);
    this.#credentials.apiKey = apiKey;
    this.#config.redactor.add(apiKey);
    this.#config.onApiKeyChange?.(apiKey);
  }

  /**
   * Holds every `X-API-Key` request until `rotation` settles (session routes go on), so that none is
   * sent with a key the service is revoking: the held ones then go with whichever key is current.
   */
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
    const ctx = this.#prepare(request);
    const url = this.#url(path, request.query, opts.query);
    const headers = { ...this.#config.defaultHeaders, ...checkExtraHeaders(opts.headers, 'headers') };
    const bodyText = request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    if (bodyText !== undefined) headers['content-type'] = 'application/json';
    if (ctx.signal?.aborted) throw new APIUserAbortError({ method, path, cause: ctx.signal.reason });
    try {
      const raw = await this.#ky(url, {
        method,
        headers,
        ...(bodyText === undefined ? {} : { body: bodyText }),
        timeout: ctx.timeout,
        retry: { limit: ctx.maxRetries },
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
        context: { [CONTEXT]: ctx },
      });
      // The text #attempt decoded while reading the body; a response a caller's afterResponse hook
      // substituted is read from a clone. Either way `raw` stays unread for asResponse().
      const text = BODY_TEXT.get(raw) ?? (await raw.clone().text());
      const requestId = requestIdOf(raw.headers);
      request.record?.({ raw, requestId });
      return {
        status: raw.status,
        headers: raw.headers,
        body: parseBodySafely(text),
        method,
        path,
        requestId,
        raw,
        redactor: this.#config.redactor,
      };
    } catch (error) {
      throw this.#toSDKError(error, ctx);
    }
  }

  /** Sends and unwraps the `{ success, data }` envelope; anything else is an `InvalidResponseError`. */
  async request(request: TransportRequest): Promise<{ envelope: Envelope; response: TransportResponse }> {
    const response = await this.send(request);
    try {
      return { envelope: unwrapEnvelope(response.body, response), response };
    } catch (error) {
      throw redactError(error, this.#config.redactor);
    }
  }

  /** The envelope in a response, or `undefined` when it is not one (for routes with unshown bodies). */
  tryUnwrap(response: TransportResponse): Envelope | undefined {
    return readEnvelope(response.body);
  }

  /** Per-call options checked and resolved; throws (before anything is sent) on a bad one. */
  #prepare(request: TransportRequest): CallContext {
    const opts = request.options ?? {};
    const { method, path } = request;
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
      throw new InvoicingError(`A path must start with one "/" and is taken from baseUrl; got ${JSON.stringify(path)}.`, {
        hint: 'Pass the path of the route, e.g. "/api/v1/invoices"; the client never sends its credentials to another origin.',
      });
    }
    const timeout = boundedInteger('timeout', opts.timeout, this.#config.timeout, 1);
    const maxRetries = request.noRetry === true ? 0 : boundedInteger('maxRetries', opts.maxRetries, this.#config.maxRetries, 0);
    // The caller's key is checked here, before anything is sent: the service refuses a blank one
    // (400), and fetch a line break.
    const given = opts.idempotencyKey;
    const idempotencyKey = given === undefined || given === null ? undefined : checkIdempotencyKey(given);
    // Built before anything is sent: a missing credential fails here, locally.
    authHeader(path, this.#credentials);
    return { method, path, timeout, maxRetries, signal: opts.signal, idempotencyKey, started: 0 };
  }

  #url(path: string, query: Query | undefined, callQuery: Query | undefined): string {
    checkQuery(query, 'The query');
    checkQuery(callQuery, 'The query option');
    const url = new URL(`${this.#config.baseUrl}${path}`);
    // The origin is the client's, whatever the path holds (`/..`, `/%2e%2e`, `@`).
    if (url.origin !== this.#base().origin) {
      throw new InvoicingError(`The path ${JSON.stringify(path)} leaves the service's origin; nothing was sent.`);
    }
    appendQuery(url, this.#config.defaultQuery);
    appendQuery(url, query);
    appendQuery(url, callQuery);
    return url.href;
  }

  /** The SDK's own hooks; the caller's run after them. */
  #ownHooks(): Required<{ [K in keyof ClientHooks]-?: NonNullable<ClientHooks[K]> }> {
    const log = this.#config.logger;
    const debug = this.#config.logLevel === 'debug';
    return {
      beforeRequest: [
        ({ request, options }) => {
          const ctx = contextOf(options.context);
          if (ctx === undefined) return;
          const [name, value] = authHeader(ctx.path, this.#credentials);
          request.headers.set(name, value);
          // Once per logical call (ky runs beforeRequest once, before any retry): every retry sends
          // this same key, so the service returns the first result instead of acting twice.
          const key = ctx.idempotencyKey ?? (ctx.method === 'POST' ? mintIdempotencyKey() : undefined);
          if (key !== undefined) request.headers.set(IDEMPOTENCY_HEADER, key);
          request.headers.set('accept', 'application/json');
          if (this.#config.browser) request.headers.set('x-invoicing-sdk', userAgent());
          else request.headers.set('user-agent', userAgent());
          ctx.started = Date.now();
          if (debug) {
            log.debug(
              `→ ${ctx.method} ${ctx.path} (attempt 1 of ${ctx.maxRetries + 1}) headers ${JSON.stringify(redactHeaders(Object.fromEntries(request.headers)))}`,
            );
          }
        },
      ],
      beforeRetry: [
        ({ request, options, error, retryCount }) => {
          const ctx = contextOf(options.context);
          if (ctx === undefined) return;
          ctx.started = Date.now();
          if (debug) {
            log.debug(
              `→ ${ctx.method} ${ctx.path} (attempt ${retryCount + 1} of ${ctx.maxRetries + 1}) headers ${JSON.stringify(redactHeaders(Object.fromEntries(request.headers)))}`,
            );
          }
          const retryAfter = isHTTPError(error) ? parseRetryAfter(error.response.headers.get('retry-after')) : undefined;
          log.info(
            `Retrying ${ctx.method} ${ctx.path} (retry ${retryCount} of ${ctx.maxRetries}) after ${describeFailure(error)}` +
              `${retryAfter === undefined ? '' : `, waited ${Math.min(retryAfter, MAX_RETRY_AFTER_MS)} ms as Retry-After asked`}.`,
          );
        },
      ],
      // Only at debug: ky clones the response (a body tee) for every afterResponse hook.
      afterResponse: debug
        ? [
            ({ options, response }) => {
              const ctx = contextOf(options.context);
              if (ctx === undefined) return;
              const requestId = requestIdOf(response.headers);
              log.debug(
                `← ${response.status} ${ctx.method} ${ctx.path} in ${Date.now() - ctx.started} ms${requestId ? ` (request-id ${requestId})` : ''}`,
              );
            },
          ]
        : [],
      // Scrubbed here already: the caller's beforeError hooks run next and may log what they get.
      beforeError: [({ error, options }) => asError(redactError(this.#toSDKError(error, contextOf(options.context)), this.#config.redactor))],
    };
  }

  /** ky's `retry.shouldRetry`: `false` where core/retry.ts says no; otherwise ky's own timing. */
  #shouldRetry(error: Error, retryCount: number): boolean | undefined {
    const request = (error as { request?: Request }).request;
    const failure = isTimeoutError(error)
      ? { kind: 'timeout' as const }
      : isNetworkError(error) || error instanceof ConnectionFailure
        ? { kind: 'connection' as const }
        : isHTTPError(error)
          ? { kind: 'status' as const, status: error.response.status }
          : failureOf(error);
    const retry = classify({
      method: request?.method ?? 'GET',
      hasIdempotencyKey: request?.headers.has(IDEMPOTENCY_HEADER) ?? false,
      // ky has checked the budget already (retry.limit is the call's maxRetries).
      retriesSoFar: retryCount - 1,
      maxRetries: Number.MAX_SAFE_INTEGER,
      failure,
    });
    if (!retry) return false;
    // ky retries neither an unknown error nor our wrapped fetch rejection on its own.
    return error instanceof ConnectionFailure ? true : undefined;
  }

  /**
   * One attempt: fetch, then the whole body, both inside ky's per-attempt timeout. Returns a
   * response whose body is the bytes read (so ky and the SDK read it without another wait).
   */
  async #attempt(request: Request, init: RequestInit | undefined): Promise<Response> {
    const signal = request.signal;
    const custom = this.#config.fetch;
    let response: Response;
    try {
      // The global fetch is looked up per call, so that one installed later (msw, a polyfill) is used.
      response = await (custom ?? globalThis.fetch)(request, init);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ConnectionFailure(causeMessage(error), { cause: error });
    }
    const where = { method: request.method, path: this.#pathOf(request.url) };
    refuseRedirect(response, request.url, this.#config.baseUrl, where);
    const limit = this.#config.maxResponseBytes;
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limit && response.headers.get('content-encoding') === null) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(response, limit, where);
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readBounded(response, limit, signal);
    } catch (error) {
      if (error === TOO_LARGE) throw tooLarge(response, limit, where);
      if (signal.aborted) throw signal.reason;
      throw new ConnectionFailure(causeMessage(error), { cause: error });
    }
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    const text = nullBody ? '' : decodeExactly(bytes);
    // Built from the text when that gives back the same bytes and headers (undici copies a byte
    // body through a much slower path than it encodes a string); from the bytes otherwise.
    const sameFromText = text !== undefined && response.headers.has('content-type');
    const read = new Response(nullBody ? null : sameFromText ? text : bytes, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    BODY_TEXT.set(read, text ?? UTF8.decode(bytes));
    return read;
  }

  /** `baseUrl` parsed, once (on first use: a bad one fails the call, as it always has). */
  #base(): URL {
    return (this.#baseUrl ??= new URL(this.#config.baseUrl));
  }

  /** The path of `url` from the origin (`/api/v1` included), as the SDK's calls name it. */
  #pathOf(url: string): string {
    const prefix = this.#base().pathname.replace(/\/$/, '');
    const path = new URL(url).pathname;
    return path.startsWith(prefix) ? path.slice(prefix.length) : path;
  }

  /** The one factory from whatever a call threw to the SDK's error classes. */
  #toSDKError(error: unknown, ctx: CallContext | undefined): unknown {
    if (error instanceof InvoicingError) return error;
    const method = ctx?.method;
    const path = ctx?.path;
    if (ctx?.signal?.aborted) return new APIUserAbortError({ method, path, cause: ctx.signal.reason });
    if (isHTTPError(error)) {
      const response = error.response;
      const body = typeof error.data === 'string' ? parseBodySafely(error.data) : error.data;
      return generateAPIError({ status: response.status, headers: response.headers, body, method: method ?? 'GET', path: path ?? '' });
    }
    if (isTimeoutError(error)) {
      const timeout = ctx?.timeout ?? this.#config.timeout;
      return new APIConnectionTimeoutError({
        message: `Request timed out after ${timeout} ms (${method} ${path}).`,
        method,
        path,
        hint: `No complete response within ${timeout} ms. Raise the timeout option (per client or per call) if the service is slow.`,
      });
    }
    if (isNetworkError(error) || error instanceof ConnectionFailure) {
      const cause = error.cause ?? error;
      return new APIConnectionError({
        message: `Connection error (${method} ${path}): ${causeMessage(cause)}.`,
        method,
        path,
        cause,
        hint: `Could not reach ${this.#config.baseUrl}. Check the network and baseUrl (or INVOICING_BASE_URL).`,
      });
    }
    // A caller's hook threw, or something the SDK did not foresee: passed on as it is.
    return error;
  }
}

function contextOf(context: Record<string, unknown> | undefined): CallContext | undefined {
  return context?.[CONTEXT] as CallContext | undefined;
}

/** Where a request went, for messages built inside an attempt (ky's fetch gets no context). */
interface Where {
  method: string;
  path: string;
}

const TOO_LARGE = Symbol('invoicing-sdk.too-large');

/**
 * The body text of each response {@link Transport}'s attempt built, decoded once from the bytes it
 * read (as `Response.text()` decodes: UTF-8, BOM dropped), so the SDK never tees the body again.
 */
const BODY_TEXT = new WeakMap<Response, string>();
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

/** Reads the (decoded) body, rejecting with {@link TOO_LARGE} past `limit` bytes. */
async function readBounded(response: Response, limit: number, signal: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  // A custom fetch may not tie the body to the signal: cancel the read ourselves on abort.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw TOO_LARGE;
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw signal.reason;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(response: Response, limit: number, { method, path }: Where): ResponseTooLargeError {
  return new ResponseTooLargeError({
    message: `The response body is larger than maxResponseBytes (${limit} bytes); reading stopped (${method} ${path}).`,
    status: response.status,
    requestId: requestIdOf(response.headers),
    method,
    path,
    limit,
    hint: 'Ask for smaller pages (limit), or raise the client option maxResponseBytes if such bodies are expected.',
  });
}

/**
 * Never followed (`redirect: 'manual'`), never retried: the credentials and the body would go
 * wherever the Location says, and a 302 to another resource would pass for this call's answer. A
 * 3xx; a browser's opaque redirect (status 0); a custom fetch that followed one anyway.
 */
function refuseRedirect(response: Response, url: string, baseUrl: string, { method, path }: Where): void {
  if (!(response.redirected || (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect')) return;
  let to = response.redirected ? response.url : response.headers.get('location');
  try {
    // Absolute, without user info, query or fragment (they can hold tokens).
    if (to) to = ((u) => u.origin + u.pathname)(new URL(to, url));
  } catch {
    // Not a URL: shown as sent.
  }
  void response.body?.cancel().catch(() => undefined);
  throw new APIError({
    message: `Redirect refused: ${response.status || 'opaque'}${to ? ` to ${to}` : ''} (${method} ${path}).`,
    status: response.status,
    requestId: requestIdOf(response.headers),
    method,
    path,
    hint: redirectHint(baseUrl),
  });
}

// What fetchOptions may not set: the SDK's own request fields and every ky option (retries, hooks,
// timeouts, parsing are the client's options, resolved once).
const NOT_FETCH_OPTIONS = new Set([
  'method', 'headers', 'body', 'signal', 'redirect', 'json', 'parseJson', 'stringifyJson', 'searchParams',
  'baseUrl', 'prefix', 'prefixUrl', 'retry', 'timeout', 'totalTimeout', 'hooks', 'throwHttpErrors',
  'onDownloadProgress', 'onUploadProgress', 'fetch', 'context',
]);

/** `fetchOptions` without the fields the SDK owns. */
function requestInitOnly(options: FetchOptions | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !NOT_FETCH_OPTIONS.has(key)));
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function causeMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = (inner as { code?: unknown } | undefined)?.code ?? (cause as { code?: unknown }).code;
  return [cause.message, typeof code === 'string' ? code : inner?.message].filter(Boolean).join(': ');
}

function describeFailure(error: Error): string {
  if (isHTTPError(error)) return `HTTP ${error.response.status}`;
  if (isTimeoutError(error)) return 'a timeout';
  return 'a connection error';
}

/** Waits for `held`, or less when `signal` aborts first (the caller's abort is then thrown as usual). */
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
