import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAPIConnectionError } from '../../src/core/errors.js';
import { isAPIUserAbortError } from '../../src/core/errors.js';
import { isBadRequestError } from '../../src/core/errors.js';
import { isInternalServerError } from '../../src/core/errors.js';
import { isRateLimitError } from '../../src/core/errors.js';
import { VERSION } from '../../src/version.js';
import {
  API,
  API_KEY,
  SESSION_TOKEN,
  VALID_INPUT,
  envelope,
  http,
  HttpResponse,
  invoiceRecord,
  recordingLogger,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

/** Runs `fn` with setTimeout faked, so backoff waits take no real time. */
async function withFakeTimers<T>(fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const run = fn();
  run.catch(() => undefined);
  for (let i = 0; i < 50; i += 1) await vi.advanceTimersByTimeAsync(10_000);
  return run;
}

describe('core/transport', () => {
  it('sends X-API-Key, and no Authorization, on service routes', async () => {
    const seen: Headers[] = [];
    const urls: string[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        seen.push(request.headers);
        urls.push(request.url);
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    await testClient().invoices.retrieve('inv_1');
    expect(seen[0]?.get('x-api-key')).toBe(API_KEY);
    expect(seen[0]?.get('authorization')).toBeNull();
    expect(urls[0]).not.toMatch(/apiKey|api_key/i);
    expect(urls[0]).not.toContain(API_KEY);
  });

  it('sends Authorization: Bearer, and no X-API-Key, on api-key routes', async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(`${API}/api-key`, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(envelope([]));
      }),
    );
    await testClient().apiKeys.list();
    expect(seen[0]?.get('authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
    expect(seen[0]?.get('x-api-key')).toBeNull();
  });

  it('names the SDK and its version in User-Agent', async () => {
    let agent: string | null = null;
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        agent = request.headers.get('user-agent');
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    await testClient().invoices.retrieve('inv_1');
    expect(agent).toContain(`invoicing-sdk/${VERSION}`);
  });

  it('refuses per-call headers that would replace authentication or the idempotency key, sending nothing', async () => {
    const seen: Headers[] = [];
    server.use(
      http.post(`${API}/invoices`, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
      }),
    );
    const client = testClient();
    const refused: Record<string, string>[] = [{ Authorization: 'ApiKey nope' }, { 'X-API-Key': 'other' }, { 'Idempotency-Key': 'x' }];
    for (const headers of refused) {
      const error = await client.invoices.create(VALID_INPUT, { idempotencyKey: 'key-1', headers }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'InvoicingError' });
      expect((error as Error).message).toContain(`cannot set "${Object.keys(headers)[0]}"`);
    }
    expect(seen).toHaveLength(0);
    await client.invoices.create(VALID_INPUT, { idempotencyKey: 'key-1', headers: { 'x-trace': 't1' } });
    expect(seen[0]?.get('authorization')).toBeNull();
    expect(seen[0]?.get('x-api-key')).toBe(API_KEY);
    expect(seen[0]?.get('idempotency-key')).toBe('key-1');
    expect(seen[0]?.get('x-trace')).toBe('t1');
  });

  it('always sends an idempotency-key on POST /api/v1/invoices, a UUID v7 by default', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${API}/invoices`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
      }),
    );
    const client = testClient();
    await client.invoices.create(VALID_INPUT);
    await client.invoices.create(VALID_INPUT);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('retries POST with the same idempotency-key', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${API}/invoices`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (keys.length < 3) return new HttpResponse('unavailable', { status: 503 });
        return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
      }),
    );
    const invoice = await withFakeTimers(() => testClient().invoices.create(VALID_INPUT));
    expect(invoice.id).toBe('inv_1');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
  });

  it('keeps the caller’s idempotency key on every retry', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${API}/invoices`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (keys.length === 1) return HttpResponse.error();
        return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
      }),
    );
    await withFakeTimers(() => testClient().invoices.create(VALID_INPUT, { idempotencyKey: 'mine-42' }));
    expect(keys).toEqual(['mine-42', 'mine-42']);
  });

  it('honours Retry-After: 1 on a 429', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        if (calls === 1) return new HttpResponse('slow down', { status: 429, headers: { 'Retry-After': '1' } });
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const logger = recordingLogger();
    const result = testClient({ logger, logLevel: 'info' }).invoices.retrieve('inv_1');
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ id: 'inv_1' });
    expect(calls).toBe(2);
    // ky computes the wait; the log line says what Retry-After asked for once the wait is over.
    expect(logger.lines.some((line) => line.includes('waited 1000 ms') && line.includes('HTTP 429'))).toBe(true);
  });

  it.each([
    ['503, Retry-After: 3600', 503, '3600', 3_600_000],
    ['429, Retry-After: 61', 429, '61', 61_000],
  ])('ends the retries at once on %s, beyond the 60 s cap, with retryAfter on the error (fake clock)', async (_label, status, after, ms) => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return new HttpResponse('later', { status, headers: { 'Retry-After': after } });
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const error = await testClient({ maxRetries: 5 }).invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect(error).toMatchObject({ status, retryAfter: ms });
    expect(calls).toBe(1);
  });

  it('still waits a Retry-After of exactly 60 s (fake clock)', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        if (calls === 1) return new HttpResponse('later', { status: 503, headers: { 'Retry-After': '60' } });
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const result = testClient().invoices.retrieve('inv_1');
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ id: 'inv_1' });
    expect(calls).toBe(2);
  });

  it('ends the retries at once on Retry-After: 3600 on real timers, and waits a short Retry-After for real', async () => {
    let calls = 0;
    const at: number[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        at.push(performance.now());
        return new HttpResponse('later', { status: 429, headers: { 'Retry-After': '3600' } });
      }),
      http.get(`${API}/invoices/inv_2`, () => {
        at.push(performance.now());
        if (at.length === 2) return new HttpResponse('later', { status: 429, headers: { 'Retry-After': '1' } });
        return HttpResponse.json(envelope(invoiceRecord({ id: 'inv_2' })));
      }),
    );
    const started = performance.now();
    const outcome = await Promise.race([
      testClient().invoices.retrieve('inv_1').catch((e: unknown) => e),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000)),
    ]);
    expect(isRateLimitError(outcome)).toBe(true);
    expect(outcome).toMatchObject({ retryAfter: 3_600_000 });
    expect(calls).toBe(1);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(testClient().invoices.retrieve('inv_2')).resolves.toMatchObject({ id: 'inv_2' });
    expect(at).toHaveLength(3);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(990);
  });

  it('gives up after maxRetries on a persistent 429 with a RateLimitError carrying retryAfter', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return HttpResponse.json({ statusCode: 429, message: 'Too many' }, { status: 429, headers: { 'Retry-After': '2' } });
      }),
    );
    const error = await withFakeTimers(() => testClient({ maxRetries: 3 }).invoices.retrieve('inv_1')).catch((e: unknown) => e);
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfter: 2000, message: 'Too many' });
    expect(calls).toBe(4);
  });

  it('retries an HTML 502 and then succeeds', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        if (calls === 1) {
          return new HttpResponse('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', {
            status: 502,
            headers: { 'content-type': 'text/html' },
          });
        }
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const invoice = await withFakeTimers(() => testClient().invoices.retrieve('inv_1'));
    expect(invoice.id).toBe('inv_1');
    expect(calls).toBe(2);
  });

  it('turns a persistent HTML 502 into an InternalServerError that quotes the page title', async () => {
    server.use(
      http.get(`${API}/invoices/inv_1`, () =>
        new HttpResponse('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>', { status: 502 }),
      ),
    );
    const error = await withFakeTimers(() => testClient().invoices.retrieve('inv_1')).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(error).toMatchObject({ status: 502, message: '502 Bad Gateway (HTML response)' });
  });

  it('sends a state transition once on a 503: its retry is the filing layer’s, which reads back first', async () => {
    let calls = 0;
    server.use(
      http.post(`${API}/invoices/inv_1/sign`, () => {
        calls += 1;
        return new HttpResponse('unavailable', { status: 503 });
      }),
    );
    const error = await withFakeTimers(() => testClient({ maxRetries: 3 }).invoices._transition('inv_1', 'sign')).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(calls).toBe(1);
  });

  it('does not retry a 400', async () => {
    let calls = 0;
    server.use(
      http.post(`${API}/invoices`, () => {
        calls += 1;
        return HttpResponse.json(
          { statusCode: 400, message: ['lines.0.isicCode has an invalid or missing classification code'], error: 'Bad Request' },
          { status: 400 },
        );
      }),
    );
    const error = await testClient().invoices.create(VALID_INPUT).catch((e: unknown) => e);
    expect(isBadRequestError(error)).toBe(true);
    expect(calls).toBe(1);
  });

  it('respects a per-call maxRetries over the client’s', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    const client = testClient({ maxRetries: 5 });
    await withFakeTimers(() => client.invoices.retrieve('inv_1', { maxRetries: 1 })).catch(() => undefined);
    expect(calls).toBe(2);
    calls = 0;
    await withFakeTimers(() => client.invoices.retrieve('inv_1', { maxRetries: 0 })).catch(() => undefined);
    expect(calls).toBe(1);
  });

  it('retries connection errors, then throws APIConnectionError', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return HttpResponse.error();
      }),
    );
    const error = await withFakeTimers(() => testClient().invoices.retrieve('inv_1')).catch((e: unknown) => e);
    expect(isAPIConnectionError(error)).toBe(true);
    expect(calls).toBe(3);
  });

  it('aborts during the backoff wait without another request', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return new HttpResponse(null, { status: 503, headers: { 'Retry-After': '30' } });
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const result = testClient().invoices.retrieve('inv_1', { signal: controller.signal });
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(1);
    controller.abort();
    const error = await result.catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
  });

  it('aborts an in-flight request', async () => {
    const controller = new AbortController();
    server.use(
      http.get(`${API}/invoices/inv_1`, async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const error = await testClient().invoices.retrieve('inv_1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
  });

  it('sends nothing when the signal has already aborted', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const error = await testClient()
      .invoices.retrieve('inv_1', { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(isAPIUserAbortError(error)).toBe(true);
    expect(calls).toBe(0);
  });

  it('uses a custom fetch', async () => {
    const calls: string[] = [];
    const client = testClient({
      fetch: async (input) => {
        calls.push(input instanceof Request ? input.url : String(input));
        return Response.json(envelope(invoiceRecord()));
      },
    });
    await client.invoices.retrieve('inv 1/x');
    expect(calls).toEqual([`${API}/invoices/inv%201%2Fx`]);
  });

  it('logs requests at debug with credentials redacted', async () => {
    server.use(http.get(`${API}/api-key`, () => HttpResponse.json(envelope([]))));
    server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(invoiceRecord()))));
    const logger = recordingLogger();
    const client = testClient({ logger, logLevel: 'debug' });
    await client.invoices.retrieve('inv_1');
    await client.apiKeys.list();
    const all = logger.lines.join('\n');
    expect(all).toContain('"x-api-key":"[REDACTED]"');
    expect(all).toContain('"authorization":"[REDACTED]"');
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(SESSION_TOKEN);
  });
});
