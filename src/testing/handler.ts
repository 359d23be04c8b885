// The sandbox's one behaviour: `process()` decides, transport-neutral; `handle()` is its fetch face
// (msw, `sandbox.fetch`) and the loopback server writes the same outcome to its socket.
import type { RouteContext, RouteResult, SandboxState } from './context.js';
import { nestErrorBody, reasonPhrase, SandboxHttpError } from './errors.js';
import type { FaultRegistry, FaultSpec, MalformedVariant } from './faults.js';
import { newRequestId } from './ids.js';
import { REDACTED_VALUE, redactHeaders, redactQuery, type RequestLog, type RequestLogEntry } from './request-log.js';
import { findRoute } from './routes/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const HUGE_DEFAULT_BYTES = 5 * 1024 * 1024;

class SandboxClosedError extends Error {
  override readonly name = 'SandboxClosedError';
}

export interface IncomingRequest {
  method: string;
  url: URL;
  headers: Headers;
  text: string;
  signal: AbortSignal;
}

/** Drop the connection, or answer (cut after `stallAfter` bytes and held open when set). */
export type Outcome =
  | { kind: 'drop' }
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: Uint8Array; stallAfter?: number };

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  stallAfter?: number;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after, idempotent-replayed',
};

const encoder = new TextEncoder();

export class SandboxHandler {
  private readonly sleeping = new Set<{ timer: ReturnType<typeof setTimeout>; reject: (e: Error) => void }>();
  private readonly stalls = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly state: SandboxState,
    private readonly faults: FaultRegistry,
    private readonly log: RequestLog,
  ) {}

  /** A dropped connection is `Response.error()`. */
  async handle(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
    const outcome = await this.process({ method, url: new URL(request.url), headers: request.headers, text, signal: request.signal });
    if (outcome.kind === 'drop') return Response.error();
    const init = { status: outcome.status, headers: outcome.headers };
    if (outcome.stallAfter === undefined) return new Response(outcome.body.byteLength === 0 ? null : (outcome.body as Uint8Array<ArrayBuffer>), init);
    const head = outcome.body.subarray(0, outcome.stallAfter);
    let end: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (head.byteLength > 0) controller.enqueue(head);
        end = this.holdOpen(request.signal, (reason) => {
          try {
            controller.error(reason);
          } catch {
            // the reader went away first
          }
        });
      },
      cancel: () => end?.(),
    });
    return new Response(body, init);
  }

  /** Calls `finish` once when the caller aborts or the sandbox closes; returns a stop without calling it. */
  holdOpen(signal: AbortSignal, finish: (reason: unknown) => void): () => void {
    let done = false;
    const stop = (): void => {
      done = true;
      this.stalls.delete(onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const settle = (reason: unknown): void => {
      if (done) return;
      stop();
      finish(reason);
    };
    const onAbort = (): void => settle(signal.reason);
    const onClose = (): void => settle(new SandboxClosedError('sandbox closed'));
    if (this.closed) onClose();
    else if (signal.aborted) onAbort();
    else {
      this.stalls.add(onClose);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    return stop;
  }

  async process(request: IncomingRequest): Promise<Outcome> {
    const { method, url, headers, text } = request;
    // Preflights are answered before the service's own routing.
    if (method === 'OPTIONS') {
      return {
        kind: 'answer',
        status: 204,
        headers: {
          ...CORS_HEADERS,
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          'access-control-allow-headers': headers.get('access-control-request-headers') ?? '*',
          'access-control-max-age': '600',
        },
        body: new Uint8Array(0),
      };
    }
    const id = newRequestId();
    const parsed = parseBody(text, headers.get('content-type'));
    const { clock, progress } = this.state;
    const receivedAt = clock.now();
    progress.runDue(receivedAt);

    const idempotencyKey = headers.get('idempotency-key') ?? undefined;
    const fault = this.faults.take({
      method,
      path: url.pathname,
      params: {},
      headers,
      body: parsed.ok ? parsed.value : text,
      idempotencyKey,
    });
    const entry: RequestLogEntry = {
      id,
      method,
      path: url.pathname,
      query: redactQuery(url.searchParams),
      headers: redactHeaders(headers),
      body: parsed.ok ? parsed.value : text,
      idempotencyKey,
      time: new Date(receivedAt).toISOString(),
      status: undefined,
      responseBody: undefined,
      outcome: 'response',
      fault: fault?.kind,
      committed: false,
    };
    this.log.add(entry);

    try {
      if (fault?.kind === 'drop-before') return dropped(entry);
      if (fault?.kind === 'status' && !fault.afterCommit) return finish(entry, statusAnswer(fault, id));
      if (fault?.kind === 'delay' && !fault.afterCommit) await this.sleep(fault.ms);

      const result = await this.dispatch(method, url, headers, parsed);
      entry.committed = result.committed === true;
      entry.responseBody = redactKeySecret(result.body);

      if (fault?.kind === 'drop-after') return dropped(entry);
      if (fault?.kind === 'status') return finish(entry, statusAnswer(fault, id));
      if (fault?.kind === 'delay') await this.sleep(fault.ms);
      const answer: Answer = {
        status: result.status,
        // `date` from the sandbox's clock, as a server's own clock would give it.
        headers: { 'content-type': JSON_TYPE, 'x-request-id': id, date: new Date(clock.now()).toUTCString(), ...result.headers },
        text: result.text ?? JSON.stringify(result.body),
      };
      if (fault?.kind === 'malformed') return finish(entry, malform(answer, fault));
      if (fault?.kind === 'stall-body') {
        const size = encoder.encode(answer.text).byteLength;
        answer.stallAfter = Math.min(fault.bytes ?? Math.floor(size / 2), Math.max(0, size - 1));
      }
      return finish(entry, answer);
    } catch (error) {
      if (error instanceof SandboxClosedError) return dropped(entry);
      throw error;
    }
  }

  shutdown(): void {
    this.closed = true;
    for (const s of this.sleeping) {
      clearTimeout(s.timer);
      s.reject(new SandboxClosedError('sandbox closed'));
    }
    this.sleeping.clear();
    for (const end of [...this.stalls]) end();
    this.stalls.clear();
  }

  private async dispatch(
    method: string,
    url: URL,
    headers: Headers,
    parsed: ReturnType<typeof parseBody>,
  ): Promise<RouteResult> {
    try {
      // Express parses the body before routing: bad JSON is a 400 whatever the route.
      if (!parsed.ok) throw new SandboxHttpError(400, parsed.message);
      const found = findRoute(method, url.pathname, this.state.options.routes);
      if (found === undefined) throw new SandboxHttpError(404, `Cannot ${method} ${url.pathname}`);
      // The clock is read again: a delay fault may have let sandbox time pass.
      const now = this.state.clock.now();
      this.state.progress.runDue(now);
      const ctx: RouteContext = {
        state: this.state,
        method,
        url,
        path: url.pathname,
        params: found.params,
        headers,
        body: parsed.value,
        now,
      };
      return await found.handler(ctx);
    } catch (error) {
      if (error instanceof SandboxHttpError) return { status: error.status, body: error.body, headers: error.headers };
      const message = error instanceof Error ? error.message : String(error);
      return { status: 500, body: nestErrorBody(500, `Internal server error: ${message}`) };
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.reject(new SandboxClosedError('sandbox closed'));
    return new Promise((resolve, reject) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleeping.delete(sleeper);
          resolve();
        }, ms),
        reject,
      };
      this.sleeping.add(sleeper);
    });
  }
}

function finish(entry: RequestLogEntry, answer: Answer): Outcome {
  entry.status = answer.status;
  if (answer.stallAfter !== undefined) entry.outcome = 'stalled';
  const body = encoder.encode(answer.text);
  const headers = { ...answer.headers, ...CORS_HEADERS, 'content-length': String(body.byteLength) };
  return {
    kind: 'answer',
    status: answer.status,
    headers,
    body,
    ...(answer.stallAfter === undefined ? {} : { stallAfter: answer.stallAfter }),
  };
}

// The log keeps answers, but never the `key` secret of a created key.
function redactKeySecret(body: unknown): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || !('key' in data)) return body;
  return { ...(body as object), data: { ...data, key: REDACTED_VALUE } };
}

function dropped(entry: RequestLogEntry): Outcome {
  entry.outcome = 'dropped';
  entry.status = undefined;
  return { kind: 'drop' };
}

function parseBody(text: string, contentType: string | null): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text === '') return { ok: true, value: undefined };
  // Like Express's json parser: a body not sent as JSON is not read at all.
  if (!/\bjson\b/i.test(contentType ?? '')) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'Invalid JSON body' };
  }
}

function statusAnswer(fault: Extract<FaultSpec, { kind: 'status' }>, requestId: string): Answer {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-request-id': requestId };
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  const message = fault.status === 429 ? 'ThrottlerException: Too Many Requests' : reasonPhrase(fault.status);
  const body = fault.body === undefined ? nestErrorBody(fault.status, message) : fault.body;
  return { status: fault.status, headers, text: typeof body === 'string' ? body : JSON.stringify(body) };
}

const HTML_PAGE = (status: number): string =>
  `<!DOCTYPE html>\n<html><head><title>${status} ${reasonPhrase(status)}</title></head>` +
  `<body><center><h1>${status} ${reasonPhrase(status)}</h1></center><hr><center>nginx</center></body></html>\n`;

function malform(answer: Answer, fault: { variant: MalformedVariant; status?: number; bytes?: number }): Answer {
  const status = fault.status ?? answer.status;
  const headers = { ...answer.headers };
  const parsed = JSON.parse(answer.text) as Record<string, unknown>;
  const json = (value: unknown): Answer => ({ status, headers, text: JSON.stringify(value) });
  switch (fault.variant) {
    case 'html':
      return { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, text: HTML_PAGE(status) };
    case 'truncated-json':
      return { status, headers, text: answer.text.slice(0, Math.max(1, Math.floor(answer.text.length / 2))) };
    case 'empty':
      return { status, headers, text: '' };
    case 'wrong-envelope':
      return json('data' in parsed ? parsed.data : parsed);
    case 'success-false':
      return json({ ...parsed, success: false });
    case 'missing-data': {
      const { data: _data, ...rest } = parsed;
      return json(rest);
    }
    case 'huge': {
      const target = fault.bytes ?? HUGE_DEFAULT_BYTES;
      const pad = Math.max(0, target - answer.text.length - 16);
      return json({ ...parsed, padding: 'x'.repeat(pad) });
    }
  }
}
