/**
 * On Node, http:// requests go through node:http with a keep-alive agent while the global fetch is Node's
 * own; a fetch installed in its place, the `fetch` option and `fetchOptions` keep the global or given fetch.
 * Undici's fetch sends `sec-fetch-mode`, node:http does not: that header tells which one a request took.
 */
import { getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import { isAPIConnectionError, isAPIUserAbortError } from '../../src/core/errors.js';
import { API_KEY, VALID_INPUT, envelope, invoiceRecord, recordingLogger, useLoopbackServers } from './support.js';

const listen = useLoopbackServers();

interface Seen {
  socket: Socket;
  viaFetch: boolean;
  method: string | undefined;
}

/** A loopback server that records each request and answers it with `handler` (by default an invoice). */
async function server(handler?: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const baseUrl = await listen((req, res) => {
    seen.push({ socket: req.socket, viaFetch: req.headers['sec-fetch-mode'] !== undefined, method: req.method });
    req.resume();
    req.on('end', () => {
      if (handler !== undefined) return handler(req, res, seen.length);
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelope(invoiceRecord())));
    });
  });
  return { baseUrl, seen };
}

const client = (baseUrl: string, extra: ConstructorParameters<typeof InvoicingClient>[0] = {}) =>
  new InvoicingClient({ baseUrl, apiKey: API_KEY, logger: recordingLogger(), ...extra });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('core/transport over node:http', () => {
  it('keeps one connection alive across calls', async () => {
    const { baseUrl, seen } = await server();
    const sdk = client(baseUrl);
    for (let i = 0; i < 3; i += 1) expect((await sdk.invoices.retrieve('inv_1')).id).toBe('inv_1');
    expect(await sdk.invoices.create(VALID_INPUT)).toMatchObject({ id: 'inv_1' });
    expect(seen.map((s) => s.viaFetch)).toEqual([false, false, false, false]);
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
  });

  it('uses a global fetch installed in place of Node’s own, looked up at call time', async () => {
    const { baseUrl, seen } = await server();
    const sdk = client(baseUrl);
    await sdk.invoices.retrieve('inv_1');
    const native = globalThis.fetch;
    const calls: string[] = [];
    vi.stubGlobal('fetch', (input: Request, init?: RequestInit) => {
      calls.push(input.url);
      return native(input, init);
    });
    await sdk.invoices.retrieve('inv_1');
    vi.unstubAllGlobals();
    await sdk.invoices.retrieve('inv_1');
    expect(calls).toEqual([`${baseUrl}/api/v1/invoices/inv_1`]);
    expect(seen.map((s) => s.viaFetch)).toEqual([false, true, false]);
  });

  it('keeps the global fetch when the client has fetchOptions, and the given fetch when it has one', async () => {
    const { baseUrl, seen } = await server();
    await client(baseUrl, { fetchOptions: { keepalive: false } }).invoices.retrieve('inv_1');
    let given = 0;
    await client(baseUrl, { fetch: (input, init) => ((given += 1), fetch(input, init)) }).invoices.retrieve('inv_1');
    expect(seen.map((s) => s.viaFetch)).toEqual([true, true]);
    expect(given).toBe(1);
  });

  it('sends again on a new connection when the server closed the kept-alive one', async () => {
    const { baseUrl, seen } = await server((req, res, n) => {
      // The second request arrives on the socket kept from the first: drop it, as a server whose idle timeout ran out.
      if (n === 2) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelope(invoiceRecord())));
    });
    const sdk = client(baseUrl, { maxRetries: 0 });
    await sdk.invoices.retrieve('inv_1');
    expect((await sdk.invoices.retrieve('inv_1')).id).toBe('inv_1');
    expect(seen).toHaveLength(3);
    expect(seen[1]!.socket).toBe(seen[0]!.socket);
    expect(seen[2]!.socket).not.toBe(seen[0]!.socket);
  });

  it('reports a connection dropped mid-body as a connection error, after the retries', async () => {
    const { baseUrl, seen } = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":true,"data":{"id":"inv_1",', () => req.socket.destroy());
    });
    const error = await client(baseUrl, { maxRetries: 1 })
      .invoices.retrieve('inv_1')
      .catch((e: unknown) => e);
    expect(isAPIConnectionError(error)).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it('aborts mid-body on the caller’s signal and lets go of it', async () => {
    const controller = new AbortController();
    const { baseUrl } = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,', () => controller.abort(new Error('shutting down')));
    });
    const error = await client(baseUrl)
      .invoices.retrieve('inv_1', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: 'shutting down' });
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('hands back status, status text, headers and the body unread', async () => {
    const body = JSON.stringify(envelope(invoiceRecord()));
    const { baseUrl } = await server((_req, res) => {
      res.writeHead(200, 'Fine', { 'content-type': 'application/json', 'x-request-id': 'req_1' });
      res.end(body);
    });
    const { data, response, requestId } = await client(baseUrl).invoices.retrieve('inv_1').withResponse();
    expect(data.id).toBe('inv_1');
    expect(requestId).toBe('req_1');
    expect([response.status, response.statusText, response.headers.get('content-type')]).toEqual([200, 'Fine', 'application/json']);
    expect(await response.text()).toBe(body);
  });

  it('refuses a redirect without following it', async () => {
    const { baseUrl, seen } = await server((req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const error = await client(baseUrl).invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 302, message: expect.stringContaining('Redirect refused') });
    expect(seen.map((s) => s.viaFetch)).toEqual([false]);
  });
});
