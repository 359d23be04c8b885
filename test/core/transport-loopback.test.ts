/**
 * Transport behaviour that only a real socket shows: a body that stalls half-way, a connection
 * dropped after the server committed the request, a redirect to another origin, and a server that
 * never answers a custom fetch that drops the signal.
 */
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import {
  type APIError,
  isAPIConnectionError,
  isAPIConnectionTimeoutError,
  isAPIError,
  isAPIUserAbortError,
} from '../../src/core/errors.js';
import type { Fetch } from '../../src/core/options.js';
import { API_KEY, SESSION_TOKEN, VALID_INPUT, envelope, invoiceRecord, recordingLogger, useLoopbackServers } from './support.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const listen = useLoopbackServers();

/** A loopback server whose handler gets the request body, read whole. */
function loopback(handler: Handler): Promise<string> {
  return listen((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
}

function client(baseUrl: string, extra: ConstructorParameters<typeof InvoicingClient>[0] = {}): InvoicingClient {
  return new InvoicingClient({ baseUrl, apiKey: API_KEY, logger: recordingLogger(), ...extra });
}

describe('core/transport over a loopback socket', () => {
  it('trips the timeout when the server stalls mid-body', async () => {
    let requests = 0;
    const baseUrl = await loopback((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      // Headers and half the body, then nothing: only a timeout that covers the body can end this.
      res.write('{"success":true,"data":{"id":"inv_1",');
    });
    const error = await client(baseUrl, { timeout: 300, maxRetries: 1 })
      .invoices.retrieve('inv_1')
      .catch((e: unknown) => e);
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect((error as Error).message).toContain('timed out after 300 ms');
    expect(requests).toBe(2);
  });

  it('retries a create whose connection dropped after the server committed it, with the same key', async () => {
    const created = new Map<string, Record<string, unknown>>();
    const keys: string[] = [];
    const baseUrl = await loopback((req, res) => {
      const key = String(req.headers['idempotency-key']);
      keys.push(key);
      const existing = created.get(key);
      if (existing !== undefined) {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify(envelope(existing)));
        return;
      }
      // Commit, then drop the connection before any response byte.
      created.set(key, invoiceRecord({ id: `inv_${created.size + 1}` }));
      req.socket.destroy();
    });
    const invoice = await client(baseUrl).invoices.create(VALID_INPUT);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(created.size).toBe(1);
    expect(invoice.id).toBe('inv_1');
  });

  it('reports a refused connection as APIConnectionError after the retries', async () => {
    // A port that was listening a moment ago and no longer is.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const error = await client(baseUrl, { maxRetries: 0 })
      .invoices.retrieve('inv_1')
      .catch((e: unknown) => e);
    expect(isAPIConnectionError(error)).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
  });
});

interface Seen {
  method: string | undefined;
  url: string | undefined;
  apiKey: string | undefined;
  authorization: string | undefined;
  body: string;
}

/** A loopback server that records what reached it and answers every request with an invoice. */
async function otherOrigin(): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const url = await loopback((req, res, body) => {
    seen.push({
      method: req.method,
      url: req.url,
      apiKey: req.headers['x-api-key'] as string | undefined,
      authorization: req.headers.authorization,
      body,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(envelope(invoiceRecord({ id: 'inv_evil' }))));
  });
  // Same host, another name and port: another origin.
  return { baseUrl: url.replace('127.0.0.1', 'localhost'), seen };
}

describe('core/transport redirects to another origin', () => {
  it.each([
    ['a read answered 301', 301, (c: InvoicingClient) => c.invoices.retrieve('inv_1')],
    ['a create answered 307', 307, (c: InvoicingClient) => c.invoices.create(VALID_INPUT)],
    ['a key listing answered 308', 308, (c: InvoicingClient) => c.apiKeys.list()],
  ])('sends neither credentials nor body there: %s', async (_name, status, call) => {
    const other = await otherOrigin();
    let requests = 0;
    const baseUrl = await loopback((req, res) => {
      requests += 1;
      res.writeHead(status, { location: `${other.baseUrl}${req.url ?? '/'}` });
      res.end();
    });
    const error = (await call(client(baseUrl, { sessionToken: SESSION_TOKEN })).catch((e: unknown) => e)) as APIError;
    expect(isAPIError(error)).toBe(true);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`to ${other.baseUrl}/api/v1/`);
    expect(other.seen).toEqual([]);
    expect(requests).toBe(1);
  });
});

describe('core/transport under a custom fetch that drops the signal', () => {
  // A wrapper that picks the fields it forwards, as tracing wrappers do, and so loses `signal`.
  const dropsSignal: Fetch = (input, init) =>
    fetch(input, { method: init?.method, headers: init?.headers, body: init?.body ?? null });

  it('still times out while the server never answers', async () => {
    let requests = 0;
    const baseUrl = await loopback(() => {
      requests += 1;
    });
    const error = await client(baseUrl, { fetch: dropsSignal, maxRetries: 1 })
      .invoices.retrieve('inv_1', { timeout: 200 })
      .catch((e: unknown) => e);
    expect(isAPIConnectionTimeoutError(error)).toBe(true);
    expect((error as Error).message).toContain('timed out after 200 ms');
    expect(requests).toBe(2);
  });

  it('still aborts on the caller’s signal while the server never answers, and lets go of the signal', async () => {
    const controller = new AbortController();
    const baseUrl = await loopback(() => controller.abort(new Error('shutting down')));
    const error = await client(baseUrl, { fetch: dropsSignal })
      .invoices.retrieve('inv_1', { signal: controller.signal, timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ message: 'shutting down' });
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('leaves no listener on a long-lived signal after calls that time out', async () => {
    const shutdown = new AbortController();
    const baseUrl = await loopback(() => undefined);
    const sdk = client(baseUrl, { fetch: dropsSignal, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) {
      const error = await sdk.invoices.retrieve('inv_1', { signal: shutdown.signal, timeout: 50 }).catch((e: unknown) => e);
      expect(isAPIConnectionTimeoutError(error)).toBe(true);
    }
    expect(getEventListeners(shutdown.signal, 'abort')).toEqual([]);
  });
});
