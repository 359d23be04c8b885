import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';
import { nestErrorBody } from './errors.js';
import type { SandboxHandler } from './handler.js';

export type LoopbackServer = { origin: string; close(): Promise<void> };

// 127.0.0.1 only: the sandbox hands out working keys and must not be reachable from the network.
export async function listen(handler: SandboxHandler, port: number): Promise<LoopbackServer> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    serve(handler, req, res, origin).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else answerError(res, 500, String(error));
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // An open sandbox must not keep a test process alive.
  server.unref();
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(handler: SandboxHandler, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const abort = new AbortController();
  // 'close' before the answer finished means the caller went away.
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client closed the connection'));
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  const method = req.method ?? 'GET';
  // Bytes, not text: a text body would make `Request` add a content-type the caller never sent.
  const body = method === 'GET' || method === 'HEAD' ? undefined : await buffer(req);
  let request: Request;
  try {
    request = new Request(new URL(req.url ?? '/', origin), { method, headers, body, signal: abort.signal });
  } catch {
    // A method fetch refuses (TRACE, TRACK, CONNECT): the service has no such route either.
    return answerError(res, 404, `Cannot ${method} ${req.url ?? '/'}`);
  }
  const response = await handler.handle(request);
  if (response.type === 'error') return void req.socket.destroy();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // Headers go out now, even when a stalled body has nothing to send yet.
  res.flushHeaders();
  for await (const chunk of response.body ?? []) res.write(chunk);
  res.end();
}

function answerError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(nestErrorBody(status, message)));
}
