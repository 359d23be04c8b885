/**
 * A scripted HTTP server on 127.0.0.1 for the reliability suites: each request is answered by a
 * function of the request, so a test can play a hostile or broken service (echoing the key back,
 * cutting bodies, dropping the socket, never answering) over a real socket.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the script sees it: method, path, query, headers and the body text. */
export interface ScriptedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers one request by writing to `res` (or destroying the socket, or never answering). */
export type Script = (req: ScriptedRequest, res: ServerResponse) => void | Promise<void>;

/** A running scripted server. */
export interface Loopback {
  origin: string;
  /** Requests received so far. */
  readonly received: ScriptedRequest[];
  /** Replaces the script for the requests that follow. */
  setScript(script: Script): void;
  close(): Promise<void>;
}

/** Starts a scripted server on a free loopback port; `record: false` keeps no request log (long runs). */
export async function startLoopback(script: Script, options: { record?: boolean } = {}): Promise<Loopback> {
  const record = options.record ?? true;
  let current = script;
  const received: ScriptedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: ScriptedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (record) received.push(request);
      Promise.resolve(current(request, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    setScript(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Writes a text answer with the given content type. */
export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** `{ success: true, data, timestamp }`, plus `extra` (e.g. `meta`). */
export function envelope(data: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { success: true, data, timestamp: new Date().toISOString(), ...extra };
}
