// The sandbox's one behaviour: msw, `sandbox.fetch` and the loopback server all answer through `handle()`.
import type { RouteContext, RouteResult, SandboxState } from './context.js';
import { badRequest, nestErrorBody, notFound, reasonPhrase, SandboxHttpError } from './errors.js';
import type { FaultKind, FaultRegistry, FaultSpec, MalformedVariant } from './faults.js';
import { findRoute } from './routes.js';
import { newId } from './store.js';

const NULL_BODY = new Set([204, 205, 304]);

/** What became of a request: answered, dropped (no answer), or stalled mid-body. @example const dropped = sandbox.requests.filter((r) => r.outcome === 'dropped'); */
export type RequestOutcome = 'response' | 'dropped' | 'stalled';

/** One logged request. Secrets are redacted when it is written, so a log printed by a failing test never shows one. @example expect(sandbox.requests.filter((r) => r.path.endsWith('/sign'))).toHaveLength(1); */
export interface RequestLogEntry {
  /** The `x-request-id` the sandbox gave the request. */ id: string;
  /** Upper-case HTTP method. */ method: string;
  /** Path without the query. */ path: string;
  /** Query parameters (secret ones redacted). */ query: Record<string, string>;
  /** Request headers, lower-cased names, secrets redacted. */ headers: Record<string, string>;
  /** Parsed JSON body, the raw text when not JSON, `undefined` when empty. */ body: unknown;
  /** The `idempotency-key` header, if sent. */ idempotencyKey: string | undefined;
  /** Sandbox time the request arrived, ISO 8601. */ time: string;
  /** Status sent; `undefined` when the connection was dropped. */ status: number | undefined;
  /** Parsed JSON body of the answer as the server meant it (before any malformed fault). */ responseBody: unknown;
  /** Answered, dropped or stalled. */ outcome: RequestOutcome;
  /** The fault applied, if any. */ fault: FaultKind | undefined;
  /** True when the request changed state (created, transitioned, revoked…). */ committed: boolean;
}

const REDACTED = '[REDACTED]';
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'proxy-authorization']);
const SECRET_QUERY = new Set(['apikey', 'api_key', 'token', 'access_token']);
const JSON_TYPE = 'application/json; charset=utf-8';
const EXPOSED = 'x-request-id, retry-after, idempotent-replayed';
const CORS_HEADERS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };

type Answer = { status: number; headers: Record<string, string>; text: string };

export class SandboxHandler {
  /** Every request, oldest first. */ readonly log: RequestLogEntry[] = [];
  private readonly closing = new AbortController();

  constructor(private readonly state: SandboxState, private readonly faults: FaultRegistry) {}

  /** Calls `finish` once when the caller aborts or the sandbox closes; returns a stop without calling it. */
  private holdOpen(signal: AbortSignal | undefined, finish: (reason: unknown) => void): () => void {
    const either = signal === undefined ? this.closing.signal : AbortSignal.any([signal, this.closing.signal]);
    const onAbort = (): void => finish(either.reason);
    if (either.aborted) onAbort();
    else either.addEventListener('abort', onAbort, { once: true });
    return () => either.removeEventListener('abort', onAbort);
  }

  /** A dropped connection is `Response.error()`. */
  async handle(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    const { headers } = request;
    const url = new URL(request.url);
    if (method === 'OPTIONS') {
      const allow = headers.get('access-control-request-headers') ?? '*';
      const cors = { 'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS', 'access-control-allow-headers': allow, 'access-control-max-age': '600' };
      return new Response(null, { status: 204, headers: { ...CORS_HEADERS, ...cors } });
    }
    const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
    const id = newId('req', 10);
    const parsed = parseBody(text, headers.get('content-type'));
    const body = parsed.ok ? parsed.value : text;
    const { clock, progress, options } = this.state;
    const receivedAt = clock.now();
    progress.runDue(receivedAt);

    const idempotencyKey = headers.get('idempotency-key') ?? undefined;
    const fault = this.faults.take({ method, path: url.pathname, params: {}, headers, body, idempotencyKey });
    const entry: RequestLogEntry = {
      id, method, path: url.pathname,
      query: redact(url.searchParams, (name) => SECRET_QUERY.has(name.toLowerCase())),
      headers: redact(headers, (name) => SECRET_HEADERS.has(name)),
      body, idempotencyKey, time: new Date(receivedAt).toISOString(), status: undefined, responseBody: undefined,
      outcome: 'response', fault: fault?.kind, committed: false,
    };
    this.log.push(entry);
    if (this.log.length > options.requestLogLimit) this.log.splice(0, Math.max(1, Math.floor(options.requestLogLimit / 10)));

    try {
      const afterCommit = fault !== undefined && 'afterCommit' in fault && fault.afterCommit === true;
      if (fault?.kind === 'drop-before') return dropped(entry);
      if (fault?.kind === 'status' && !afterCommit) return this.finish(entry, statusAnswer(fault, id));
      if (fault?.kind === 'delay' && !afterCommit) await this.sleep(fault.ms);

      const result = await this.dispatch(method, url, headers, parsed);
      entry.committed = result.committed === true;
      // The log keeps answers, but never the `key` secret of a created key.
      const data = (result.body as { data?: unknown } | null)?.data;
      const keyed = data !== null && typeof data === 'object' && 'key' in data;
      entry.responseBody = keyed ? { ...(result.body as object), data: { ...data, key: REDACTED } } : result.body;

      if (fault?.kind === 'drop-after') return dropped(entry);
      if (fault?.kind === 'status') return this.finish(entry, statusAnswer(fault, id));
      if (fault?.kind === 'delay' && afterCommit) await this.sleep(fault.ms);
      const answer: Answer = {
        status: result.status,
        // `date` from the sandbox's clock, as a server's own clock would give it.
        headers: { 'content-type': JSON_TYPE, 'x-request-id': id, date: new Date(clock.now()).toUTCString(), ...result.headers },
        text: result.text ?? JSON.stringify(result.body),
      };
      if (fault?.kind === 'malformed') return this.finish(entry, malform(answer, fault));
      return this.finish(entry, answer, fault?.kind === 'stall-body' ? { bytes: fault.bytes, signal: request.signal } : undefined);
    } catch (error) {
      if (error === this.closing.signal.reason) return dropped(entry);
      throw error;
    }
  }

  shutdown(): void {
    this.closing.abort(new Error('sandbox closed'));
  }

  private async dispatch(method: string, url: URL, headers: Headers, parsed: ReturnType<typeof parseBody>): Promise<RouteResult> {
    try {
      // Express parses the body before routing: bad JSON is a 400 whatever the route.
      if (!parsed.ok) throw badRequest(parsed.message);
      const found = findRoute(method, url.pathname, this.state.options.routes);
      if (found === undefined) throw notFound(`Cannot ${method} ${url.pathname}`);
      // The clock is read again: a delay fault may have let sandbox time pass.
      const now = this.state.clock.now();
      this.state.progress.runDue(now);
      const ctx: RouteContext = { state: this.state, method, url, params: found.params, headers, body: parsed.value, now };
      return await found.handler(ctx);
    } catch (error) {
      if (error instanceof SandboxHttpError) return { status: error.status, body: error.body };
      const message = error instanceof Error ? error.message : String(error);
      return { status: 500, body: nestErrorBody(500, `Internal server error: ${message}`) };
    }
  }

  // A stalled body sends `stall.bytes` (default: half), then stays open until the caller or the sandbox gives up.
  private finish(entry: RequestLogEntry, answer: Answer, stall?: { bytes: number | undefined; signal: AbortSignal }): Response {
    entry.status = answer.status;
    // A 204, 205 or 304 carries no body: a fault may ask for one with a body, it goes without.
    const nullBody = NULL_BODY.has(answer.status);
    const bytes = new TextEncoder().encode(nullBody ? '' : answer.text) as Uint8Array<ArrayBuffer>;
    const init = { status: answer.status, headers: { ...answer.headers, ...CORS_HEADERS, 'content-length': String(bytes.byteLength) } };
    if (stall === undefined || nullBody) return new Response(bytes.byteLength === 0 ? null : bytes, init);
    entry.outcome = 'stalled';
    const head = bytes.subarray(0, Math.min(stall.bytes ?? Math.floor(bytes.byteLength / 2), Math.max(0, bytes.byteLength - 1)));
    let end: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (head.byteLength > 0) controller.enqueue(head);
        end = this.holdOpen(stall.signal, (reason) => controller.error(reason));
      },
      cancel: () => end?.(),
    });
    return new Response(body, init);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        resolve();
      }, ms);
      const stop = this.holdOpen(undefined, (reason) => {
        clearTimeout(timer);
        reject(reason as Error);
      });
    });
  }
}

/** Headers or query parameters as a plain object, secrets redacted (an auth scheme is kept: `Bearer [REDACTED]`). */
function redact(values: Headers | URLSearchParams, secret: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  values.forEach((value, name) => {
    if (!secret(name)) out[name] = value;
    else if (name === 'authorization' && /^\S+\s+\S/.test(value)) out[name] = `${value.split(/\s+/)[0]} ${REDACTED}`;
    else out[name] = REDACTED;
  });
  return out;
}

function dropped(entry: RequestLogEntry): Response {
  entry.outcome = 'dropped';
  return Response.error();
}

function parseBody(text: string, contentType: string | null): { ok: true; value: unknown } | { ok: false; message: string } {
  // Like Express's json parser: a body not sent as JSON is not read at all.
  if (text === '' || !/\bjson\b/i.test(contentType ?? '')) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: (error as SyntaxError).message };
  }
}

function statusAnswer(fault: Extract<FaultSpec, { kind: 'status' }>, requestId: string): Answer {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-request-id': requestId };
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  const message = fault.status === 429 ? 'ThrottlerException: Too Many Requests' : reasonPhrase(fault.status);
  const body = fault.body === undefined ? nestErrorBody(fault.status, message) : fault.body;
  return { status: fault.status, headers, text: typeof body === 'string' ? body : JSON.stringify(body) };
}

function malform(answer: Answer, fault: { variant: MalformedVariant; status?: number | undefined; bytes?: number | undefined }): Answer {
  const status = fault.status ?? answer.status;
  const { text } = answer;
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const { data, ...rest } = parsed;
  const title = `${status} ${reasonPhrase(status)}`;
  const spoiled: Record<MalformedVariant, () => string> = {
    html: () =>
      `<!DOCTYPE html>\n<html><head><title>${title}</title></head>` +
      `<body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`,
    'truncated-json': () => text.slice(0, Math.max(1, Math.floor(text.length / 2))),
    empty: () => '',
    'wrong-envelope': () => JSON.stringify('data' in parsed ? data : parsed),
    'success-false': () => JSON.stringify({ ...parsed, success: false }),
    'missing-data': () => JSON.stringify(rest),
    huge: () => JSON.stringify({ ...parsed, padding: 'x'.repeat(Math.max(0, (fault.bytes ?? 5 * 1024 * 1024) - text.length - 16)) }),
  };
  const headers = fault.variant === 'html' ? { ...answer.headers, 'content-type': 'text/html; charset=utf-8' } : answer.headers;
  return { status, headers, text: spoiled[fault.variant]() };
}
