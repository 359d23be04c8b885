import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { caller, fileInvoice, invoiceBody, type Call } from './helpers.js';

type Mode = 'loopback' | 'msw';

// The same suite runs against the loopback server (real sockets) and through msw handlers (no
// socket): the two ways of running have one behaviour.
describe.each<Mode>(['loopback', 'msw'])('testing/sandbox faults (%s)', (mode) => {
  let sandbox: Sandbox;
  let call: Call;
  let server: ReturnType<typeof setupServer> | undefined;
  const status = (id: string) => sandbox.invoices.get(id)?.status;

  beforeAll(async () => {
    sandbox = await createSandbox(mode === 'msw' ? { listen: false } : {});
    if (mode === 'msw') {
      server = setupServer(...sandbox.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      expect(sandbox.baseUrl).toBe('http://sandbox.invoicing.test');
    } else {
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    }
    call = caller(sandbox);
  });
  beforeEach(() => sandbox.reset());
  afterAll(async () => {
    server?.close();
    await sandbox.close();
  });

  it('drop-before: the connection drops and nothing is done', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    const fault = sandbox.faults.inject({ method: 'POST', path: '/invoices/:id/sign', kind: 'drop-before' });
    await expect(call('POST', `/api/v1/invoices/${id}/sign`)).rejects.toThrow(TypeError);
    expect(status(id)).toBe('Validated');
    expect(fault.hits).toBe(1);
    expect(fault.remaining).toBe(0);
    const last = sandbox.requests.at(-1)!;
    expect(last).toMatchObject({ outcome: 'dropped', fault: 'drop-before', committed: false, status: undefined });
    // Used up: the next sign goes through.
    expect((await call('POST', `/api/v1/invoices/${id}/sign`)).status).toBe(200);
  });

  it('drop-after: the server acts, then the connection drops without an answer', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-after' });
    await expect(call('POST', `/api/v1/invoices/${id}/sign`)).rejects.toThrow(TypeError);
    expect(status(id)).toBe('Signed');
    expect(sandbox.requests.at(-1)).toMatchObject({ outcome: 'dropped', fault: 'drop-after', committed: true });
  });

  it('drop-after on create: a replay with the same idempotency-key returns the invoice that was stored', async () => {
    sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-after' });
    const body = invoiceBody(sandbox.businessId);
    await expect(call('POST', '/api/v1/invoices', { body, idempotencyKey: 'drop-1' })).rejects.toThrow(TypeError);
    expect(sandbox.invoices.count).toBe(1);
    const replay = await call('POST', '/api/v1/invoices', { body, idempotencyKey: 'drop-1' });
    expect(replay.status).toBe(201);
    expect(replay.body.data.id).toBe(sandbox.invoices.list()[0]?.id);
    expect(sandbox.invoices.count).toBe(1);
  });

  it('status: answers 503 with Retry-After and a NestJS body, without acting', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'status', status: 503, retryAfter: 2 });
    const res = await call('POST', `/api/v1/invoices/${id}/sign`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body).toEqual({ statusCode: 503, message: 'Service Unavailable', error: 'Service Unavailable' });
    expect(status(id)).toBe('Validated');
  });

  it('status afterCommit: acts, then answers the error (a 500 after the write)', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'status', status: 500, afterCommit: true });
    expect((await call('POST', `/api/v1/invoices/${id}/sign`)).status).toBe(500);
    expect(status(id)).toBe('Signed');
  });

  it('status 429 `times` requests after `skip`, then lets requests through', async () => {
    sandbox.faults.inject({ method: 'GET', path: '/invoices', kind: 'status', status: 429, retryAfter: 1, skip: 1, times: 2 });
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await call('GET', '/api/v1/invoices')).status);
    expect(got).toEqual([200, 429, 429, 200]);
    const throttled = sandbox.requests.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(2);
    expect(throttled[0]?.fault).toBe('status');
  });

  it('delay: the caller times out, and the server still acts once the delay is over', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'delay', ms: 150 });
    await expect(call('POST', `/api/v1/invoices/${id}/sign`, { signal: AbortSignal.timeout(20) })).rejects.toThrow();
    expect(status(id)).toBe('Validated');
    await vi.waitFor(() => expect(status(id)).toBe('Signed'), { timeout: 2_000, interval: 20 });
  });

  it('delay afterCommit: acts at once and answers late', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'delay', ms: 100, afterCommit: true });
    const pending = call('POST', `/api/v1/invoices/${id}/sign`);
    await vi.waitFor(() => expect(status(id)).toBe('Signed'), { timeout: 2_000, interval: 5 });
    expect((await pending).status).toBe(200);
  });

  it('stall-body: sends the headers and part of the body, then stalls until the caller gives up', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'stall-body', bytes: 10 });
    const controller = new AbortController();
    const res = await fetch(`${sandbox.baseUrl}/api/v1/invoices/${id}/sign`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"success"');
    const rest = reader.read();
    controller.abort();
    await expect(rest).rejects.toThrow();
    expect(status(id)).toBe('Signed');
    expect(sandbox.requests.at(-1)).toMatchObject({ outcome: 'stalled', fault: 'stall-body', committed: true });
  });

  it('stall-body with bytes 0: the status and headers still arrive, then nothing', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'stall-body', bytes: 0 });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2_000);
    const res = await fetch(`${sandbox.baseUrl}/api/v1/invoices/${id}/sign`, {
      method: 'POST',
      headers: { 'x-api-key': sandbox.apiKey },
      signal: controller.signal,
    });
    clearTimeout(timer);
    expect(res.status).toBe(200);
    const rest = res.body!.getReader().read();
    controller.abort();
    await expect(rest).rejects.toThrow();
  });

  it.each([204, 205, 304])('status %i: answered with that status and no body', async (code) => {
    sandbox.faults.inject({ method: 'GET', path: '/invoices', kind: 'status', status: code });
    const res = await call('GET', '/api/v1/invoices');
    expect(res.status).toBe(code);
    expect(res.text).toBe('');
  });

  describe('malformed (the server has acted)', () => {
    async function signWith(variant: string, extra: Record<string, unknown> = {}) {
      const id = await fileInvoice(call, sandbox.businessId, ['validate']);
      sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'malformed', variant: variant as never, ...extra });
      const res = await call('POST', `/api/v1/invoices/${id}/sign`);
      expect(status(id)).toBe('Signed');
      return { id, res };
    }

    it('html: an HTML error page with the status given', async () => {
      const { res } = await signWith('html', { status: 502 });
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.text).toMatch(/^<!DOCTYPE html>/);
    });

    it('truncated-json: half a JSON document', async () => {
      const { res } = await signWith('truncated-json');
      expect(res.status).toBe(200);
      expect(() => JSON.parse(res.text)).toThrow(SyntaxError);
      expect(res.text.startsWith('{"success":true')).toBe(true);
    });

    it('empty: no body at all', async () => {
      const { res } = await signWith('empty');
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
    });

    it('wrong-envelope: the resource without the envelope', async () => {
      const { id, res } = await signWith('wrong-envelope');
      expect(res.body).toMatchObject({ id, status: 'Signed' });
      expect(res.body.success).toBeUndefined();
    });

    it('success-false and missing-data: a broken envelope', async () => {
      const a = await signWith('success-false');
      expect(a.res.body).toMatchObject({ success: false, data: { id: a.id } });
      const b = await signWith('missing-data');
      expect(b.res.body).toEqual({ success: true, timestamp: expect.any(String) });
    });

    it('huge: the real answer padded to `bytes`', async () => {
      const { id, res } = await signWith('huge', { bytes: 200_000 });
      expect(res.text.length).toBeGreaterThanOrEqual(199_000);
      expect(res.body.data.id).toBe(id);
    });
  });

  describe('matching', () => {
    it('applies the first matching fault only to requests that pass `match`', async () => {
      const a = await fileInvoice(call, sandbox.businessId, ['validate']);
      const b = await fileInvoice(call, sandbox.businessId, ['validate']);
      const fault = sandbox.faults.inject({
        path: /\/sign$/,
        kind: 'status',
        status: 500,
        times: Infinity,
        match: (req) => req.path.includes(b),
      });
      expect((await call('POST', `/api/v1/invoices/${a}/sign`)).status).toBe(200);
      expect((await call('POST', `/api/v1/invoices/${b}/sign`)).status).toBe(500);
      expect((await call('POST', `/api/v1/invoices/${b}/sign`)).status).toBe(500);
      expect(fault.hits).toBe(2);
      expect(fault.remaining).toBe(Infinity);
      fault.remove();
      expect((await call('POST', `/api/v1/invoices/${b}/sign`)).status).toBe(200);
    });

    it('passes path parameters, the body and the idempotency key to `match`', async () => {
      const seen: unknown[] = [];
      sandbox.faults.inject({
        method: 'post',
        path: '/invoices',
        kind: 'drop-before',
        match: (req) => {
          seen.push({ key: req.idempotencyKey, businessId: (req.body as { businessId: string }).businessId });
          return false;
        },
      });
      await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId), idempotencyKey: 'm-1' });
      expect(seen).toEqual([{ key: 'm-1', businessId: sandbox.businessId }]);
      const params: unknown[] = [];
      sandbox.faults.inject({ path: '/invoices/:id', kind: 'status', status: 404, match: (req) => (params.push(req.params), true) });
      await call('GET', '/api/v1/invoices/inv_abc');
      expect(params).toEqual([{ id: 'inv_abc' }]);
    });

    it('matches every route with `*` and is emptied by clear()', async () => {
      sandbox.faults.inject({ path: '*', kind: 'status', status: 503, times: Infinity });
      expect((await call('GET', '/api/v1/taxauth/service-codes')).status).toBe(503);
      expect(sandbox.faults.list()).toHaveLength(1);
      sandbox.faults.clear();
      expect((await call('GET', '/api/v1/invoices')).status).toBe(200);
    });

    it('refuses a fault it could not apply', () => {
      expect(() => sandbox.faults.inject({ kind: 'explode' } as never)).toThrow(/Unknown fault kind/);
      expect(() => sandbox.faults.inject({ kind: 'status', status: 99 })).toThrow(RangeError);
      expect(() => sandbox.faults.inject({ kind: 'malformed', variant: 'weird' as never })).toThrow(/variant/);
      expect(() => sandbox.faults.inject({ kind: 'drop-before', times: 0 })).toThrow(RangeError);
    });
  });
});
