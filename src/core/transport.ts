/**
 * HTTP transport: the one place where retries, timeouts, idempotency keys, authentication headers
 * and request logging come together.
 *
 * Each attempt is one call of the platform's `fetch` (or the client's `fetch` option). The SDK owns
 * retries and timeouts itself, so that
 * - the timeout covers reading the body, not only the headers;
 * - a POST carries one idempotency key, minted once, on every retry;
 * - `signal` also aborts the wait between attempts, and both it and the timeout hold under a custom
 *   `fetch` that ignores `init.signal`;
 * - redirects are never followed: the credentials and the body go to `baseUrl` and nowhere else;
 * - the retry decision is one pure function, {@link Transport.shouldRetry}.
 *
 * Attempts used to go through ky with its retries, timeout and error throwing all turned off, so it
 * added nothing but its per-call cost: two `Request` objects and a combined `AbortSignal` per call,
 * which alone made a GET 1.37× slower than bare `fetch` on loopback (docs/performance.md). The
 * envelope is read by hand (`core/envelope.ts`).
 */
// Through the barrel on purpose: every client reaches the transport, so the barrel (which the
// public entries re-export with `export *`) lands in the transport's chunk instead of an empty ES
// module of its own that `import 'invoicing-sdk'` would load (docs/performance.md, Cold import).
import { redirectHint, requestIdOf } from './error-hints.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  generateAPIError,
} from './errors.js';
import { buildHeaders, checkIdempotencyKey, redactHeaders, type Credentials } from './headers.js';
import { mintIdempotencyKey } from './mint-idempotency-key.js';
import type { Logger, LogLevel } from './logger.js';
import { boundedInteger, type Fetch } from './options.js';
import type { MutationRequestOptions } from './request-options.js';
import { parseRetryAfter, retryDelay, sleep } from './retry-timing.js';
import { readEnvelope, unwrapEnvelope, type Envelope } from './envelope.js';

/** HTTP methods the service uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A query parameter value; `undefined` and `null` are left out, arrays repeat the key.
 *
 * @example
 * ```ts
 * import type { QueryValue } from 'invoicing-sdk';
 * const status: QueryValue = ['Submitted', 'Accepted']; // ?status=Submitted&status=Accepted
 * ```
 */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** One logical call, before retries. */
export interface TransportRequest {
  method: HttpMethod;
  /** Path from the origin, `/api/v1` included. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  options?: MutationRequestOptions | undefined;
  /**
   * Send once, never retry, whatever `maxRetries` says. For state transitions, whose retries are the
   * filing layer's business (it reads the invoice before it tries again).
   */
  noRetry?: boolean | undefined;
}

/** A 2xx response, body read. */
export interface TransportResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON; the text when it was not JSON; `undefined` when empty. */
  body: unknown;
  method: HttpMethod;
  path: string;
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
}

/** The failure of one attempt, as the retry decision sees it. */
export type AttemptFailure = { kind: 'connection' } | { kind: 'timeout' } | { kind: 'status'; status: number };

/** Everything {@link Transport.shouldRetry} decides on. */
export interface RetryDecisionInput {
  method: string;
  hasIdempotencyKey: boolean;
  /** Retries already made for this call. */
  retriesSoFar: number;
  maxRetries: number;
  failure: AttemptFailure;
}

type Outcome =
  | { kind: 'response'; response: Response; text: string }
  | { kind: 'connection'; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown };

const TIMED_OUT = Symbol('invoicing-sdk.timeout');

export class Transport {
  readonly #config: Omit<TransportConfig, 'credentials'>;
  readonly #credentials: Credentials;

  constructor(config: TransportConfig) {
    const { credentials, ...rest } = config;
    this.#config = rest;
    this.#credentials = { ...credentials };
  }

  /**
   * Whether to retry after a failed attempt. Pure: the same input always gives the same answer.
   */
  static shouldRetry(input: RetryDecisionInput): boolean {
    // The budget is spent: per call `maxRetries` wins over the client's, and both are hard limits.
    if (input.retriesSoFar >= input.maxRetries) return false;
    // A POST without an idempotency key may have been carried out before the failure; repeating it
    // could create (or file) twice. With a key the service returns the first result instead.
    if (input.method.toUpperCase() === 'POST' && !input.hasIdempotencyKey) return false;
    switch (input.failure.kind) {
      // No response: the request may not have reached the service; safe to repeat (see above).
      case 'connection':
        return true;
      // The attempt ran out of time; a slow moment rarely lasts.
      case 'timeout':
        return true;
      case 'status':
        break;
    }
    switch (input.failure.status) {
      // Request Timeout: the server gave up waiting for us.
      case 408:
        return true;
      // Too Many Requests: wait (honouring Retry-After) and try again.
      case 429:
        return true;
      // Internal error, bad gateway, unavailable, gateway timeout: transient on the service's side.
      case 500:
      case 502:
      case 503:
      case 504:
        return true;
      // Anything else (4xx, 501, …) gives the same answer when repeated.
      default:
        return false;
    }
  }

  /** Sends a request with retries; resolves with a 2xx response or throws an `APIError`. */
  async send(request: TransportRequest): Promise<TransportResponse> {
    const opts = request.options ?? {};
    const { method, path } = request;
    const timeout = boundedInteger('timeout', opts.timeout, this.#config.timeout, 1);
    const maxRetries = request.noRetry === true ? 0 : boundedInteger('maxRetries', opts.maxRetries, this.#config.maxRetries, 0);
    // Minted once per logical call: every retry below sends this same key. The caller's is checked
    // here, before anything is sent: the service refuses a blank one (400), and fetch a line break.
    const givenKey = opts.idempotencyKey;
    const idempotencyKey =
      givenKey === undefined || givenKey === null
        ? method === 'POST'
          ? mintIdempotencyKey()
          : undefined
        : checkIdempotencyKey(givenKey);
    const bodyText = request.body === undefined ? undefined : JSON.stringify(request.body);
    // Built before anything is sent: a missing credential fails here, locally.
    const headers = buildHeaders({
      path,
      credentials: this.#credentials,
      json: bodyText !== undefined,
      idempotencyKey,
      extra: opts.headers,
      browser: this.#config.browser,
    });
    const url = this.#url(path, request.query);
    const signal = opts.signal;
    if (signal?.aborted) throw new APIUserAbortError({ method, path, cause: signal.reason });
    const log = this.#config.logger;
    const debug = this.#config.logLevel === 'debug';

    for (let retriesSoFar = 0; ; retriesSoFar += 1) {
      if (debug) {
        log.debug(
          `→ ${method} ${path} (attempt ${retriesSoFar + 1} of ${maxRetries + 1}) headers ${JSON.stringify(redactHeaders(headers))}`,
        );
      }
      const started = debug ? Date.now() : 0;
      const outcome = await this.#attempt(url, { method, headers, body: bodyText }, timeout, signal);
      if (outcome.kind === 'aborted') throw new APIUserAbortError({ method, path, cause: outcome.reason });

      let error: APIError;
      let failure: AttemptFailure;
      let retryAfterMs: number | undefined;
      if (outcome.kind === 'response') {
        const { response, text } = outcome;
        if (debug) {
          const requestId = requestIdOf(response.headers);
          log.debug(
            `← ${response.status} ${method} ${path} in ${Date.now() - started} ms${requestId ? ` (request-id ${requestId})` : ''}`,
          );
        }
        const body = parseBody(text);
        if (response.status >= 200 && response.status < 300 && !response.redirected) {
          return { status: response.status, headers: response.headers, body, method, path };
        }
        // Never followed (`redirect: 'manual'`), never retried: the credentials and the body would go
        // wherever the Location says, and a 302 to another resource would pass for this call's answer.
        // A 3xx; a browser's opaque redirect (status 0); a custom fetch that followed one anyway.
        if (response.redirected || (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
          let to = response.redirected ? response.url : response.headers.get('location');
          try {
            // Absolute, without user info, query or fragment (they can hold tokens).
            if (to) to = ((u) => u.origin + u.pathname)(new URL(to, url));
          } catch {
            // Not a URL: shown as sent.
          }
          throw new APIError({
            message: `Redirect refused: ${response.status || 'opaque'}${to ? ` to ${to}` : ''} (${method} ${path}).`,
            status: response.status,
            requestId: requestIdOf(response.headers),
            method,
            path,
            hint: redirectHint(this.#config.baseUrl),
          });
        }
        error = generateAPIError({ status: response.status, headers: response.headers, body, method, path });
        failure = { kind: 'status', status: response.status };
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      } else if (outcome.kind === 'timeout') {
        error = new APIConnectionTimeoutError({
          message: `Request timed out after ${timeout} ms (${method} ${path}).`,
          method,
          path,
          hint: `No complete response within ${timeout} ms. Raise the timeout option (per client or per call) if the service is slow.`,
        });
        failure = { kind: 'timeout' };
      } else {
        error = new APIConnectionError({
          message: `Connection error (${method} ${path}): ${causeMessage(outcome.cause)}.`,
          method,
          path,
          cause: outcome.cause,
          hint: `Could not reach ${this.#config.baseUrl}. Check the network and baseUrl (or INVOICING_BASE_URL).`,
        });
        failure = { kind: 'connection' };
      }

      const retry = Transport.shouldRetry({
        method,
        hasIdempotencyKey: idempotencyKey !== undefined,
        retriesSoFar,
        maxRetries,
        failure,
      });
      if (!retry) throw error;
      const wait = retryDelay({ retriesSoFar, retryAfterMs });
      log.info(
        `Retrying ${method} ${path} in ${wait} ms (retry ${retriesSoFar + 1} of ${maxRetries}) after ${describeFailure(failure)}.`,
      );
      try {
        await sleep(wait, signal);
      } catch (reason) {
        throw new APIUserAbortError({ method, path, cause: reason });
      }
    }
  }

  /** Sends and unwraps the `{ success, data }` envelope; anything else is an `InvalidResponseError`. */
  async request(request: TransportRequest): Promise<{ envelope: Envelope; response: TransportResponse }> {
    const response = await this.send(request);
    return { envelope: unwrapEnvelope(response.body, response), response };
  }

  /** The envelope in a response, or `undefined` when it is not one (for routes with unshown bodies). */
  tryUnwrap(response: TransportResponse): Envelope | undefined {
    return readEnvelope(response.body);
  }

  async #attempt(
    url: string,
    init: { method: HttpMethod; headers: Record<string, string>; body: string | undefined },
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const controller = new AbortController();
    // Set while a custom fetch waits for the headers and while the body is read: an abort must end
    // both even under a custom fetch that drops the signal or does not tie the body to it (so the
    // timeout and the caller's signal hold whatever the fetch does).
    let stop: ((reason: unknown) => void) | undefined;
    const abort = (reason: unknown): void => {
      controller.abort(reason);
      stop?.(reason);
    };
    // Linked by hand rather than with AbortSignal.any, which keeps listeners on a long-lived caller
    // signal alive in Node 20.
    const onAbort = (): void => abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(abort, timeout, TIMED_OUT);
    let response: Response | undefined;
    try {
      const custom = this.#config.fetch;
      const requestInit: RequestInit = {
        method: init.method,
        headers: init.headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        // Redirects are refused (see send): following one would send the credentials and the body
        // wherever the Location points.
        redirect: 'manual',
        signal: controller.signal,
      };
      let reading: Promise<string>;
      if (custom === undefined) {
        // The global fetch is looked up per call, so that one installed later (msw, a polyfill) is
        // used. It honours the signal: only the body read is raced below (no extra promise).
        response = await globalThis.fetch(url, requestInit);
        reading = response.text();
      } else {
        // A custom fetch may drop the signal: the race below covers the wait for its headers too.
        // Headers that arrive after an abort have their body cancelled, not read.
        reading = custom(url, requestInit).then((late) =>
          controller.signal.aborted ? late.body?.cancel().then(() => '') ?? '' : (response = late).text(),
        );
      }
      const text = await new Promise<string>((resolve, reject) => {
        stop = reject;
        // Handled before anything else, so that its later rejection is never unhandled.
        reading.then(resolve, reject);
        if (controller.signal.aborted) reject(controller.signal.reason);
      });
      return { kind: 'response', response: response as Response, text };
    } catch (error) {
      if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
      if (controller.signal.aborted && controller.signal.reason === TIMED_OUT) return { kind: 'timeout' };
      // Kept as is: the error built from it keeps a scrubbed copy (redactCause), without the
      // Request, headers or config a fetch wrapper's error can carry.
      return { kind: 'connection', cause: error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (controller.signal.aborted) response?.body?.cancel().catch(() => undefined);
    }
  }

  #url(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = new URL(`${this.#config.baseUrl}${path}`);
    if (query === undefined) return url.href;
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Blank text never parses, so this is the only place it needs telling apart (no trimmed copy of
    // every body).
    return text.trim() === '' ? undefined : text;
  }
}

function causeMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = (inner as { code?: unknown } | undefined)?.code ?? (cause as { code?: unknown }).code;
  return [cause.message, typeof code === 'string' ? code : inner?.message].filter(Boolean).join(': ');
}

function describeFailure(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'connection':
      return 'a connection error';
    case 'timeout':
      return 'a timeout';
    case 'status':
      return `HTTP ${failure.status}`;
  }
}
