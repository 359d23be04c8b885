/**
 * The loopback adapter: a `node:http` server on 127.0.0.1 that turns each request into a fetch
 * `Request`, asks the sandbox's one handler, and writes the `Response` back. A `Response.error()`
 * (a dropped connection) destroys the socket without a byte of answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `handle` on 127.0.0.1 (never another interface: the sandbox accepts any well-formed key
 * of its own and must not be reachable from the network).
 *
 * @example
 * ```ts
 * const server = await listen((request) => handler.handle(request), 0);
 * console.log(server.origin);
 * await server.close();
 * ```
 */
export async function listen(handle: (request: Request) => Promise<Response>, port: number): Promise<LoopbackServer> {
  const server: Server = createServer((req, res) => {
    serve(handle, req, res, originOf(server)).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ statusCode: 500, message: String(error), error: 'Internal Server Error' }));
      } else {
        res.destroy();
      }
    });
  });
  // Bulk runs open many keep-alive connections at once; the defaults would queue them.
  server.maxConnections = Infinity;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Connections must not keep a test process alive after close().
  server.unref();
  return {
    origin: originOf(server),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function originOf(server: Server): string {
  const address = server.address() as AddressInfo | null;
  return `http://127.0.0.1:${address?.port ?? 0}`;
}

async function serve(
  handle: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const abort = new AbortController();
  // 'close' on the response before it finished means the caller went away.
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client closed the connection'));
  });

  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const method = req.method ?? 'GET';
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && chunks.length > 0;
  const request = new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : null,
    signal: abort.signal,
  });

  const response = await handle(request);
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, outHeaders);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = (): void => {
    reader.cancel().catch(() => {});
  };
  res.on('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    // A stalled body ended by close(), or the caller left: cut the connection mid-body.
    res.destroy();
  } finally {
    res.off('close', stop);
  }
}
