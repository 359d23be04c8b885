import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { caller, invoiceBody, type Call } from './helpers.js';

/** The same script of requests, covering every route and the main error paths. */
async function script(sandbox: Sandbox, call: Call): Promise<unknown[]> {
  const out: unknown[] = [];
  const record = async (p: ReturnType<Call>) => {
    const res = await p;
    out.push({ status: res.status, requestId: res.headers.get('x-request-id') !== null, body: res.body });
    return res;
  };
  const session = sandbox.sessionToken;
  await record(call('GET', '/api/v1/invoices', { apiKey: null, headers: { authorization: `ApiKey ${sandbox.apiKey}` } }));
  await record(call('GET', '/api/v1/invoices', { apiKey: null }));
  await record(call('GET', '/api/v1/api-key'));
  await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), idempotencyKey: null }));
  await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId, { lines: [] }) }));
  await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId, { lines: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 5 }] }) }));
  const created = await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), idempotencyKey: 'same' }));
  await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), idempotencyKey: 'same' }));
  await record(call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId, { dueDate: '2027-01-01T00:00:00Z' }), idempotencyKey: 'same' }));
  const id = created.body.data.id as string;
  await record(call('POST', `/api/v1/invoices/${id}/sign`));
  for (const step of ['validate', 'sign', 'submit']) await record(call('POST', `/api/v1/invoices/${id}/${step}`));
  sandbox.clock.advance(2_000);
  await record(call('GET', `/api/v1/invoices/${id}`));
  await record(call('GET', '/api/v1/invoices?limit=5&status=accepted'));
  await record(call('GET', '/api/v1/invoices?limit=500'));
  await record(call('GET', '/api/v1/taxauth/service-codes?q=software'));
  const key = await record(call('POST', '/api/v1/api-key', { session, body: { name: 'k', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId, scopes: ['invoices:read'] } }));
  await record(call('POST', '/api/v1/invoices', { apiKey: key.body.data.key, body: invoiceBody(sandbox.businessId) }));
  await record(call('GET', `/api/v1/api-key/${key.body.data.id}/reveal`, { session }));
  await record(call('DELETE', `/api/v1/api-key/${key.body.data.id}`, { session }));
  await record(call('GET', '/api/v1/invoices', { apiKey: key.body.data.key }));
  await record(call('GET', '/api/v1/api-key', { session }));
  return out;
}

/** Replaces what differs by nature between two sandboxes: ids, secrets, times, the origin. */
function normalize(value: unknown, sandbox: Sandbox): unknown {
  const text = JSON.stringify(value)
    .replaceAll(sandbox.businessId, '<business>')
    .replace(/"(inv|key|req)_[0-9a-f]+"/g, '"<$1>"')
    .replace(/(Invoice |API key )(inv|key)_[0-9a-f]+/g, '$1<$2>')
    .replace(/sk_live_[0-9a-f]+/g, '<secret>')
    .replace(/"sk_live_[0-9a-f]{4}"/g, '"<prefix>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>');
  return JSON.parse(text);
}

describe('testing/sandbox one behaviour over loopback and msw', () => {
  let loopback: Sandbox;
  let mocked: Sandbox;
  let server: ReturnType<typeof setupServer>;

  beforeAll(async () => {
    loopback = await createSandbox({ timeScale: 0 });
    mocked = await createSandbox({ listen: false, timeScale: 0 });
    server = setupServer(...mocked.handlers);
    server.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(async () => {
    server.close();
    await Promise.all([loopback.close(), mocked.close()]);
  });

  it('answers the same script identically (ids, secrets and times aside)', async () => {
    const overSocket = normalize(await script(loopback, caller(loopback)), loopback);
    const overMsw = normalize(await script(mocked, caller(mocked)), mocked);
    expect(overMsw).toEqual(overSocket);
    // The script really exercised errors and successes alike.
    const statuses = (overSocket as { status: number }[]).map((r) => r.status);
    expect(statuses).toEqual([401, 401, 401, 400, 400, 400, 201, 201, 409, 409, 200, 200, 200, 200, 200, 400, 200, 201, 403, 200, 200, 401, 200]);
  });

  it('answers through the handlers of a listening sandbox (msw loaded on first read) the same way', async () => {
    const listening = await createSandbox({ timeScale: 0 });
    let mocked = 0;
    const count = ({ request }: { request: Request }) => {
      if (request.url.startsWith(`${listening.baseUrl}/`)) mocked += 1;
    };
    server.use(...listening.handlers);
    server.events.on('response:mocked', count);
    try {
      const overMsw = normalize(await script(listening, caller(listening)), listening);
      // msw answered every request: none reached the socket.
      expect(mocked).toBe(listening.requests.length);
      expect(mocked).toBeGreaterThan(20);
      loopback.reset();
      loopback.clock.timeScale = 0;
      expect(overMsw).toEqual(normalize(await script(loopback, caller(loopback)), loopback));
    } finally {
      server.events.removeListener('response:mocked', count);
      server.resetHandlers();
      await listening.close();
    }
  });

  it('answers through sandbox.fetch (in-process, no socket, no msw) the same way', async () => {
    const plain = await createSandbox({ listen: false, msw: false, timeScale: 0 });
    try {
      const inProcess = normalize(await script(plain, caller(plain, plain.fetch)), plain);
      loopback.reset();
      loopback.clock.timeScale = 0;
      expect(inProcess).toEqual(normalize(await script(loopback, caller(loopback)), loopback));
    } finally {
      await plain.close();
    }
  });
});
