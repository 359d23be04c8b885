/**
 * The sandbox's one behaviour: a fetch-style `handle(request) => Response`. The loopback server and
 * the msw handlers both call it, so the two ways of running answer alike. A dropped connection is
 * `Response.error()`: msw turns it into a network error, the loopback server destroys the socket.
 */
import type { RouteContext, RouteResult, SandboxState } from './context.js';
import { nestErrorBody, reasonPhrase, SandboxHttpError } from './errors.js';
import type { FaultRegistry, FaultSpec, MalformedVariant } from './faults.js';
import { newRequestId } from './ids.js';
import { REDACTED_VALUE, redactHeaders, redactQuery, type RequestLog, type RequestLogEntry } from './request-log.js';
import { findRoute } from './routes/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const HUGE_DEFAULT_BYTES = 5 * 1024 * 1024;

/** Thrown into pending delays when the sandbox closes. */
class SandboxClosedError extends Error {
  override readonly name = 'SandboxClosedError';
}

/** A finished answer before it becomes a `Response`: status, headers and body text. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Send only this many bytes of `text`, then stall. */
  stallAfter?: number;
}

/** Runs requests against the sandbox state, applying faults and writing the request log. */
export class SandboxHandler {
  private readonly sleeping = new Set<{ timer: ReturnType<typeof setTimeout>; reject: (e: Error) => void }>();
  private readonly stalled = new Set<ReadableStreamDefaultController<Uint8Array>>();
  private closed = false;

  constructor(
    private readonly state: SandboxState,
    private readonly faults: FaultRegistry,
    private readonly log: RequestLog,
  ) {}

  /**
   * Answers one request as the service would, with any injected fault applied.
   *
   * @example
   * ```ts
   * const response = await handler.handle(new Request(`${origin}/api/v1/invoices`, { headers }));
   * ```
   */
  async handle(request: Request): Promise<Response> {
    const id = newRequestId();
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
    const parsed = parseBody(text, request.headers.get('content-type'));
    const { clock, progress } = this.state;
    const receivedAt = clock.now();
    progress.runDue(receivedAt);

    const idempotencyKey = request.headers.get('idempotency-key') ?? undefined;
    const fault = this.faults.take({
      method,
      path: url.pathname,
      params: {},
      headers: request.headers,
      body: parsed.ok ? parsed.value : text,
      idempotencyKey,
    });
    const entry: RequestLogEntry = {
      id,
      method,
      path: url.pathname,
      query: redactQuery(url.searchParams),
      headers: redactHeaders(request.headers),
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
      if (fault?.kind === 'status' && !fault.afterCommit) return this.respond(entry, request, statusAnswer(fault, id));
      if (fault?.kind === 'delay' && !fault.afterCommit) await this.sleep(fault.ms);

      const result = await this.dispatch(method, url, request.headers, parsed);
      entry.committed = result.committed === true;
      entry.responseBody = redactKeySecret(result.body);

      if (fault?.kind === 'drop-after') return dropped(entry);
      if (fault?.kind === 'status') return this.respond(entry, request, statusAnswer(fault, id));
      if (fault?.kind === 'delay') await this.sleep(fault.ms);
      const answer: Answer = {
        status: result.status,
        headers: { 'content-type': JSON_TYPE, 'x-request-id': id, ...result.headers },
        text: JSON.stringify(result.body),
      };
      if (fault?.kind === 'malformed') return this.respond(entry, request, malform(answer, fault));
      if (fault?.kind === 'stall-body') {
        answer.stallAfter = Math.min(fault.bytes ?? Math.floor(answer.text.length / 2), Math.max(0, answer.text.length - 1));
      }
      return this.respond(entry, request, answer);
    } catch (error) {
      if (error instanceof SandboxClosedError) return dropped(entry);
      throw error;
    }
  }

  /** Ends pending delays and stalled bodies: the sandbox is closing. */
  shutdown(): void {
    this.closed = true;
    for (const s of this.sleeping) {
      clearTimeout(s.timer);
      s.reject(new SandboxClosedError('sandbox closed'));
    }
    this.sleeping.clear();
    for (const controller of this.stalled) {
      try {
        controller.error(new SandboxClosedError('sandbox closed'));
      } catch {
        // already errored or closed by the reader
      }
    }
    this.stalled.clear();
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
      const found = findRoute(method, url.pathname);
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

  private respond(entry: RequestLogEntry, request: Request, answer: Answer): Response {
    entry.status = answer.status;
    const bytes = new TextEncoder().encode(answer.text);
    const init = { status: answer.status, headers: answer.headers };
    if (answer.stallAfter === undefined) return new Response(bytes.byteLength === 0 ? null : bytes, init);

    entry.outcome = 'stalled';
    const head = bytes.subarray(0, answer.stallAfter);
    const stalled = this.stalled;
    const closed = this.closed;
    let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;
    const onAbort = (): void => {
      stalled.delete(ctrl!);
      try {
        ctrl?.error(request.signal.reason);
      } catch {
        // the reader went away first
      }
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        ctrl = controller;
        if (head.byteLength > 0) controller.enqueue(head);
        if (closed) controller.error(new SandboxClosedError('sandbox closed'));
        else stalled.add(controller);
        request.signal.addEventListener('abort', onAbort, { once: true });
      },
      cancel() {
        stalled.delete(ctrl!);
        request.signal.removeEventListener('abort', onAbort);
      },
    });
    return new Response(body, { ...init, headers: { ...answer.headers, 'content-length': String(bytes.byteLength) } });
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

/** The log keeps answers for assertions, but never the `key` secret of a created or revealed key. */
function redactKeySecret(body: unknown): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || !('key' in data)) return body;
  return { ...(body as object), data: { ...data, key: REDACTED_VALUE } };
}

function dropped(entry: RequestLogEntry): Response {
  entry.outcome = 'dropped';
  entry.status = undefined;
  return Response.error();
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

/** Spoils a finished answer the way `variant` says; the server has already acted. */
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
