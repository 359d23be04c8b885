/**
 * Shared fixtures for the core and resource tests: credentials that must never leak, a client wired
 * to an msw server, and a logger that keeps every line for scanning.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/options.js';
import type { Logger } from '../../src/core/logger.js';

export const API_KEY = 'sk_live_SECRETKEY_0123456789abcdef';
export const SESSION_TOKEN = 'sess_SECRETTOKEN_fedcba9876543210';
export const BASE_URL = 'https://invoicing.test';
export const API = `${BASE_URL}/api/v1`;

/** An msw server for one test file: listens before all, resets handlers after each, closes after all. */
export function useMswServer(): ReturnType<typeof setupServer> {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A logger that records every line and argument. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string, ...args: unknown[]): void => {
      lines.push(`${level} ${message} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`);
    };
  return { lines, debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

/** A client on the msw base URL with both credentials and no real backoff waits by default. */
export function testClient(options: ClientOptions = {}): InvoicingClient {
  return new InvoicingClient({
    apiKey: API_KEY,
    sessionToken: SESSION_TOKEN,
    baseUrl: BASE_URL,
    logger: recordingLogger(),
    ...options,
  });
}

/** `{ success: true, data, timestamp }`. */
export function envelope(data: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { success: true, data, timestamp: '2026-11-21T10:00:00.000Z', ...extra };
}

/** A stored invoice as the service might send it. */
export function invoiceRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'inv_1', status: 'draft', subtotal: 100, taxTotal: 7.5, total: 107.5, ...overrides };
}

/** A valid create body (passes the local checks). */
export const VALID_INPUT = {
  businessId: 'biz_1',
  buyer: { type: 'B2B' as const, tin: '12345678-0001', name: 'Acme Ltd' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Consulting', quantity: 10, unitPrice: 10, taxRate: 7.5, isicCode: '6202' }],
};

export { http, HttpResponse };

/**
 * Real loopback servers for tests where a socket matters: each call of the returned function starts
 * one on a free port of 127.0.0.1 and gives its origin; every server is closed after each test.
 */
export function useLoopbackServers(): (handler: RequestListener) => Promise<string> {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async (handler) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}
