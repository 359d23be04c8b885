/**
 * Transport behaviour that only a real socket shows: a body that stalls half-way, and a connection
 * dropped after the server committed the request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import { isAPIConnectionError } from '../../src/core/errors/api-connection-error.js';
import { isAPIConnectionTimeoutError } from '../../src/core/errors/api-connection-timeout-error.js';
import { API_KEY, VALID_INPUT, envelope, invoiceRecord, recordingLogger } from './support.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];

async function loopback(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

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
    const baseUrl = await loopback(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    const error = await client(baseUrl, { maxRetries: 0 })
      .invoices.retrieve('inv_1')
      .catch((e: unknown) => e);
    expect(isAPIConnectionError(error)).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
  });
});
