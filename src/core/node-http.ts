// The default way out on Node for http:// origins: node:http over a keep-alive agent, cheaper per call than the global
// fetch. Used only while `globalThis.fetch` is still Node's own, so a fetch someone installed (msw, a polyfill,
// instrumentation) is what the SDK calls; looked up at run time, never imported, so browser bundles hold none of it.
import type * as Http from 'node:http';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';

/** A response whose body has not been read yet: `read` takes it whole, up to `limit` bytes; `discard` drops it. */
export interface Reply {
  response: Response;
  read(limit: number): Promise<Uint8Array<ArrayBuffer>>;
  discard(): void;
}

/** Thrown by {@link Reply.read} past its limit. */
export const TOO_LARGE = Symbol('invoicing-sdk.too-large');

type Builtin = <T>(id: string) => T | undefined;
const builtin: Builtin = (id) => (globalThis as { process?: { getBuiltinModule?: Builtin } }).process?.getBuiltinModule?.(id);

let seen: unknown;
let native = false;
let agent: Http.Agent | undefined;

/** node:http when `url` is http:// and the global fetch is Node's own (its source names undici), else `undefined`. */
export function nodeHttp(url: string): typeof Http | undefined {
  if (!url.startsWith('http:')) return undefined;
  const current = globalThis.fetch;
  if (current !== seen) {
    seen = current;
    native = typeof current === 'function' && Function.prototype.toString.call(current).includes('undici');
  }
  return native ? builtin<typeof Http>('node:http') : undefined;
}

// Idempotent unless it is a POST or PATCH without an idempotency key.
const mayResend = (method: string, headers: Record<string, string>): boolean =>
  (method !== 'POST' && method !== 'PATCH') || headers['idempotency-key'] !== undefined;

/** Sends `request` with `http`; resolves once the headers are in. Rejects with the signal's reason on abort. */
export async function httpFetch(http: typeof Http, request: Request): Promise<Reply> {
  const { method, signal } = request;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  // As the global fetch does: compressed bodies are inflated below.
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  agent ??= new http.Agent({ keepAlive: true, timeout: 5_000 });
  const send = (resend: boolean): Promise<Reply> =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const req = http.request(request.url, { method, headers, agent });
      // Until the headers are in, an abort rejects the request; then it fails the body read.
      let onAbort = (): void => {
        req.destroy();
        reject(signal.reason);
      };
      const abort = (): void => onAbort();
      signal.addEventListener('abort', abort, { once: true });
      const done = (): void => signal.removeEventListener('abort', abort);
      req.on('error', (error: Error & { code?: string }) => {
        done();
        // A kept-alive socket the server closed meanwhile: once more on a new one (Node's documented pattern).
        if (resend && req.reusedSocket && error.code === 'ECONNRESET' && mayResend(method, headers)) resolve(send(false));
        else reject(error);
      });
      req.on('response', (res) => {
        const discard = (): void => {
          done();
          res.destroy();
        };
        let response: Response;
        try {
          response = new Response(null, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: responseHeaders(res.rawHeaders) });
        } catch (error) {
          discard();
          return reject(error);
        }
        const read = (limit: number): Promise<Uint8Array<ArrayBuffer>> =>
          new Promise((resolveBody, rejectBody) => {
            const stream = inflated(res);
            const chunks: Buffer[] = [];
            let total = 0;
            let settled = false;
            const fail = (reason: unknown): void => {
              if (settled) return;
              settled = true;
              discard();
              stream.destroy();
              rejectBody(reason);
            };
            onAbort = () => fail(signal.reason);
            if (signal.aborted) return fail(signal.reason);
            stream.on('data', (chunk: Buffer) => {
              total += chunk.byteLength;
              if (total > limit) fail(TOO_LARGE);
              else chunks.push(chunk);
            });
            stream.on('error', fail);
            stream.on('close', () => fail(new Error('The connection closed before the body was complete.')));
            stream.on('end', () => {
              settled = true;
              done();
              resolveBody((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)) as Uint8Array<ArrayBuffer>);
            });
          });
        resolve({ response, discard, read });
      });
      req.end(body);
    });
  return send(true);
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

function inflated(res: Http.IncomingMessage): Readable {
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === 'identity') return res;
  const zlib = builtin<typeof Zlib>('node:zlib')!;
  const inflate = encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate' ? zlib.createUnzip() : undefined;
  if (inflate === undefined) return res;
  res.on('error', (error) => inflate.destroy(error));
  res.on('close', () => res.complete || inflate.destroy(new Error('The connection closed before the body was complete.')));
  return res.pipe(inflate);
}
