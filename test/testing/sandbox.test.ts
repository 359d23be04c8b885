import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { caller, fileInvoice, invoiceBody } from './helpers.js';

describe('testing/createSandbox', () => {
  it('listens on 127.0.0.1 at a random port and stops on close()', async () => {
    const sandbox = await createSandbox();
    const { baseUrl } = sandbox;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': sandbox.apiKey } })).status).toBe(200);
    await sandbox.close();
    await sandbox.close(); // twice is fine
    await expect(fetch(`${baseUrl}/api/v1/invoices`)).rejects.toThrow();
  });

  it('supports `await using` through Symbol.asyncDispose', async () => {
    let url = '';
    {
      await using sandbox = await createSandbox();
      url = sandbox.baseUrl;
      expect((await fetch(`${url}/api/v1/invoices`)).status).toBe(401);
    }
    await expect(fetch(`${url}/api/v1/invoices`)).rejects.toThrow();
  });

  it('gives identities that work: a USER key with every scope, a session, an owned business', async () => {
    await using sandbox = await createSandbox({ listen: false, msw: false });
    const call = caller(sandbox, sandbox.fetch);
    expect(sandbox.apiKey).toMatch(/^sk_live_/);
    const keys = await call('GET', '/api/v1/api-key', { session: sandbox.sessionToken });
    expect(keys.body.data).toEqual([expect.objectContaining({ keyableType: 'USER', type: 'LIVE', scopes: ['*'], status: 'active' })]);
    expect((await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId) })).status).toBe(201);
  });

  it('takes fixed identities, and keeps them across reset()', async () => {
    await using sandbox = await createSandbox({
      listen: false,
      msw: false,
      apiKey: 'sk_live_fixed_for_examples',
      sessionToken: 'sess_fixed',
      businessId: 'biz_fixed',
    });
    const call = caller(sandbox, sandbox.fetch);
    expect([sandbox.apiKey, sandbox.sessionToken, sandbox.businessId]).toEqual(['sk_live_fixed_for_examples', 'sess_fixed', 'biz_fixed']);
    await fileInvoice(call, 'biz_fixed');
    sandbox.faults.inject({ kind: 'status', status: 500 });
    sandbox.createUser();
    sandbox.clock.advance(99 * 3600_000);
    sandbox.reset();
    expect(sandbox.invoices.count).toBe(0);
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.faults.list()).toEqual([]);
    expect(Math.abs(sandbox.clock.now() - Date.now())).toBeLessThan(60_000);
    expect((await call('GET', '/api/v1/api-key', { session: 'sess_fixed' })).body.meta.total).toBe(1);
    expect((await call('POST', '/api/v1/invoices', { body: invoiceBody('biz_fixed') })).status).toBe(201);
  });

  it('logs every request with its outcome, idempotency key and sandbox time', async () => {
    await using sandbox = await createSandbox({ listen: false, msw: false, now: '2026-05-01T08:00:00Z', timeScale: 0 });
    const call = caller(sandbox, sandbox.fetch);
    await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), idempotencyKey: 'log-1' });
    await call('GET', '/api/v1/invoices?page=1&apiKey=leak', { apiKey: null });
    const [create, list] = sandbox.requests;
    expect(create).toMatchObject({
      method: 'POST',
      path: '/api/v1/invoices',
      idempotencyKey: 'log-1',
      status: 201,
      outcome: 'response',
      committed: true,
      time: '2026-05-01T08:00:00.000Z',
      body: { businessId: sandbox.businessId },
    });
    expect(create?.id).toMatch(/^req_/);
    expect(create?.headers['x-api-key']).toBe('[REDACTED]');
    expect(list).toMatchObject({ status: 401, committed: false, query: { page: '1', apiKey: '[REDACTED]' } });
    sandbox.clearRequests();
    expect(sandbox.requests).toHaveLength(0);
  });

  it('drops the oldest log entries beyond requestLogLimit', async () => {
    await using sandbox = await createSandbox({ listen: false, msw: false, requestLogLimit: 10 });
    const call = caller(sandbox, sandbox.fetch);
    for (let i = 0; i < 25; i++) await call('GET', `/api/v1/invoices?page=${i + 1}`);
    expect(sandbox.requests.length).toBeLessThanOrEqual(10);
    expect(sandbox.requests.at(-1)?.query.page).toBe('25');
  });

  it('puts x-request-id on every answer, errors included, and answers CORS preflights', async () => {
    await using sandbox = await createSandbox();
    for (const path of ['/api/v1/invoices', '/api/v1/nowhere']) {
      const res = await fetch(`${sandbox.baseUrl}${path}`);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    const preflight = await fetch(`${sandbox.baseUrl}/api/v1/invoices`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-headers': 'x-api-key,idempotency-key,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key,idempotency-key,content-type');
  });

  describe('sandbox.fetch (in-process)', () => {
    it('rejects like fetch on a dropped connection and on an aborted signal', async () => {
      await using sandbox = await createSandbox({ listen: false, msw: false });
      sandbox.faults.inject({ kind: 'drop-before' });
      await expect(sandbox.fetch(`${sandbox.baseUrl}/api/v1/invoices`)).rejects.toThrow(new TypeError('fetch failed'));
      sandbox.faults.inject({ kind: 'delay', ms: 1_000 });
      await expect(sandbox.fetch(`${sandbox.baseUrl}/api/v1/invoices`, { signal: AbortSignal.timeout(10) })).rejects.toMatchObject({
        name: 'TimeoutError',
      });
      const aborted = new AbortController();
      aborted.abort();
      await expect(sandbox.fetch(`${sandbox.baseUrl}/api/v1/invoices`, { signal: aborted.signal })).rejects.toMatchObject({
        name: 'AbortError',
      });
    });

    it('ends pending delays and stalled bodies on close()', async () => {
      const sandbox = await createSandbox({ listen: false, msw: false });
      sandbox.faults.inject({ path: '/invoices', method: 'GET', kind: 'stall-body' });
      const stalled = await sandbox.fetch(`${sandbox.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': sandbox.apiKey } });
      const body = stalled.text();
      sandbox.faults.inject({ kind: 'delay', ms: 60_000 });
      const delayed = sandbox.fetch(`${sandbox.baseUrl}/api/v1/invoices`);
      await sandbox.close();
      await expect(body).rejects.toThrow();
      await expect(delayed).rejects.toThrow(TypeError);
    });
  });

  describe('msw handlers', () => {
    it('are built for the loopback origin when asked with { msw: true }', async () => {
      await using sandbox = await createSandbox({ msw: true });
      const server = setupServer(...sandbox.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      try {
        const res = await fetch(`${sandbox.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': sandbox.apiKey } });
        expect(res.status).toBe(200);
        expect(sandbox.requests).toHaveLength(1);
      } finally {
        server.close();
      }
    });

    it('are loaded on first read by a sandbox that listens without { msw: true }, and answer its origin', async () => {
      await using sandbox = await createSandbox();
      const handlers = sandbox.handlers;
      expect(handlers).toHaveLength(1);
      // Loaded once: later reads hand out copies of the same handlers.
      expect(sandbox.handlers).not.toBe(handlers);
      expect(sandbox.handlers[0]).toBe(handlers[0]);
      const server = setupServer(...handlers);
      const mocked: string[] = [];
      server.events.on('response:mocked', ({ request }) => mocked.push(`${request.method} ${new URL(request.url).pathname}`));
      server.listen({ onUnhandledRequest: 'error' });
      try {
        const call = caller(sandbox);
        const created = await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId) });
        expect(created.status).toBe(201);
        const read = await call('GET', `/api/v1/invoices/${created.body.data.id}`);
        expect(read.body.data).toEqual(created.body.data);
        expect(mocked).toEqual(['POST /api/v1/invoices', `GET /api/v1/invoices/${created.body.data.id}`]);
        expect(sandbox.requests).toHaveLength(2);
      } finally {
        server.close();
      }
    });

    it('answer a custom origin given as baseUrl', async () => {
      await using sandbox = await createSandbox({ listen: false, baseUrl: 'https://invoicing.example.com/ignored/path' });
      expect(sandbox.baseUrl).toBe('https://invoicing.example.com');
      const server = setupServer(...sandbox.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      try {
        const res = await fetch('https://invoicing.example.com/api/v1/taxauth/service-codes?q=6201', {
          headers: { 'x-api-key': sandbox.apiKey },
        });
        expect((await res.json()) as unknown).toMatchObject({ meta: { total: 1 } });
      } finally {
        server.close();
      }
    });
  });

  it('handles many concurrent requests over loopback', async () => {
    await using sandbox = await createSandbox({ timeScale: 0 });
    const call = caller(sandbox);
    const ids = await Promise.all(Array.from({ length: 50 }, () => fileInvoice(call, sandbox.businessId)));
    expect(new Set(ids).size).toBe(50);
    sandbox.clock.advance(2_000);
    expect(sandbox.invoices.list({ status: 'Accepted' })).toHaveLength(50);
  });
});
