import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvoicingClient } from '../src/client.js';
import { isInvoicingError } from '../src/core/errors.js';
import * as sdk from '../src/index.js';
import type { InvoiceCreateParams } from '../src/model/invoice-input.js';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import { API, API_KEY, SESSION_TOKEN, envelope, http, HttpResponse, invoiceRecord, testClient, useMswServer } from './core/support.js';
import { invoiceBody } from './testing/helpers.js';

const server = useMswServer();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('client', () => {
  it('resolves its options once, at construction', () => {
    const client = new InvoicingClient({ baseUrl: 'https://x.test/', apiKey: API_KEY, timeout: 5_000 });
    expect(client).toMatchObject({ baseUrl: 'https://x.test', timeout: 5_000, maxRetries: 2, logLevel: 'warn' });
    expect(client.hasApiKey).toBe(true);
  });

  it('throws an InvoicingError at construction without a baseUrl, saying how to set it', () => {
    vi.stubEnv('INVOICING_BASE_URL', '');
    const make = () => new InvoicingClient({ apiKey: API_KEY });
    expect(make).toThrow(/INVOICING_BASE_URL/);
    try {
      make();
    } catch (error) {
      expect(isInvoicingError(error)).toBe(true);
    }
  });

  it('takes its credentials and origin from the environment', async () => {
    vi.stubEnv('INVOICING_API_KEY', API_KEY);
    vi.stubEnv('INVOICING_SESSION_TOKEN', SESSION_TOKEN);
    vi.stubEnv('INVOICING_BASE_URL', 'https://invoicing.test');
    let key: string | null = null;
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const client = new InvoicingClient({ logLevel: 'off' });
    expect(client.hasSessionToken).toBe(true);
    await client.invoices.retrieve('inv_1');
    expect(key).toBe(API_KEY);
  });

  it('refuses a browser-like runtime unless dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new InvoicingClient({ baseUrl: 'https://x.test', apiKey: API_KEY })).toThrow(/browser/);
    expect(() => new InvoicingClient({ baseUrl: 'https://x.test', apiKey: API_KEY, dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('sends X-Invoicing-SDK instead of User-Agent in a browser', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        headers = request.headers;
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    const client = new InvoicingClient({ baseUrl: 'https://invoicing.test', apiKey: API_KEY, dangerouslyAllowBrowser: true });
    vi.unstubAllGlobals();
    await client.invoices.retrieve('inv_1');
    expect(headers?.get('x-invoicing-sdk')).toMatch(/^invoicing-sdk\//);
  });

  it('shows no credentials in JSON or inspect output', () => {
    const client = new InvoicingClient({ baseUrl: 'https://x.test', apiKey: API_KEY, sessionToken: SESSION_TOKEN });
    const shown = `${JSON.stringify(client)}\n${inspect(client, { depth: Infinity, showHidden: true })}`;
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain(SESSION_TOKEN);
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({ hasApiKey: true, hasSessionToken: true, baseUrl: 'https://x.test' });
  });

  it('derives a client with other options, keeping the credentials', async () => {
    let key: string | null = null;
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const client = new InvoicingClient({ baseUrl: 'https://invoicing.test', apiKey: API_KEY, logLevel: 'off' });
    const patient = client.withOptions({ timeout: 120_000 });
    expect(patient.timeout).toBe(120_000);
    expect(client.timeout).toBe(30_000);
    await patient.invoices.retrieve('inv_1');
    expect(key).toBe(API_KEY);
  });

  it('sends through ky, whatever the body', async () => {
    const loaded: string[] = [];
    vi.resetModules();
    for (const name of ['ky']) {
      vi.doMock(name, async (importOriginal) => {
        loaded.push(name);
        return importOriginal();
      });
    }
    try {
      const sdk = await import('../src/index.js');
      const client = new sdk.InvoicingClient({ baseUrl: 'https://invoicing.test', apiKey: API_KEY, logLevel: 'off' });
      server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(invoiceRecord()))));
      await client.invoices.retrieve('inv_1');
      // A count sent as a string is valid and read as a number.
      const meta = { total: '1', page: 1, limit: 10, totalPages: 1 };
      server.use(http.get(`${API}/invoices`, () => HttpResponse.json({ ...envelope([invoiceRecord()]), meta })));
      const page = await client.invoices.list();
      expect(page.meta?.total).toBe(1);
      server.use(http.get(`${API}/invoices/inv_2`, () => HttpResponse.text('<html>gateway</html>')));
      await expect(client.invoices.retrieve('inv_2')).rejects.toMatchObject({ name: 'InvalidResponseError' });
      // The transport is ky (the design card's stack); the envelope is still read without zod here.
      expect(loaded).toContain('ky');
    } finally {
      for (const name of ['ky']) vi.doUnmock(name);
    }
  });

});

describe('client against the sandbox', () => {
  let sandbox: Sandbox;
  const input = (overrides: Record<string, unknown> = {}) => invoiceBody(sandbox.businessId, overrides) as unknown as InvoiceCreateParams;
  const client = () => new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off' });

  beforeAll(async () => {
    sandbox = await createSandbox({ listen: false, timeScale: 0 });
  });
  beforeEach(() => {
    sandbox.reset();
    server.use(...sandbox.handlers);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('files an invoice with create, validate, sign and submit', async () => {
    const invoices = client().invoices;
    const draft = await invoices.create(input());
    expect(draft.status).toBe('DRAFT');
    await invoices.validate(draft.id);
    await invoices.sign(draft.id);
    expect((await invoices.submit(draft.id)).status).toBe('SUBMITTED');
    const ids = [];
    for await (const invoice of invoices.list()) ids.push(invoice.id);
    expect(ids).toEqual([draft.id]);
    expect(sandbox.invoices.get(draft.id)?.submissions).toBe(1);
  });

  it('runs checkInvoice in create and sends nothing on errors, unless skipChecks', async () => {
    const invoices = client().invoices;
    const bad = input({ lines: [] });
    await expect(invoices.create(bad)).rejects.toMatchObject({ name: 'InvoiceCheckError' });
    expect(sandbox.requests).toEqual([]);
    // A JavaScript caller cannot turn the checks off through the removed checkInvoice option.
    const unchecked = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off', ...{ checkInvoice: () => ({ ok: true }) } });
    await expect(unchecked.invoices.create(bad)).rejects.toMatchObject({ name: 'InvoiceCheckError' });
    expect(sandbox.requests).toEqual([]);
    await expect(invoices.create(bad, { skipChecks: true })).rejects.toMatchObject({ name: 'BadRequestError', status: 400 });
    expect(sandbox.requests).toHaveLength(1);
  });

  it('sends a transition once and reads the invoice back after a dropped answer', async () => {
    const invoices = client().invoices;
    const draft = await invoices.create(input());
    await invoices.validate(draft.id);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-after' });
    expect((await invoices.sign(draft.id)).status).toBe('SIGNED');
    expect(sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/sign'))).toHaveLength(1);
  });

  it('is the one client: no lite client is exported, and withOptions keeps the class', () => {
    expect(Object.keys(sdk)).not.toContain('InvoicingLiteClient');
    expect(Object.keys(sdk)).not.toContain('LiteInvoices');
    const patient = client().withOptions({ timeout: 60_000 });
    expect(patient).toBeInstanceOf(InvoicingClient);
    expect(patient.timeout).toBe(60_000);
    expect(inspect(patient)).toContain('InvoicingClient {');
    expect(inspect(patient)).not.toContain(sandbox.apiKey);
  });
});

describe('client options and raw routes', () => {
  it('runs the caller’s hooks after its own: beforeRequest sees the authenticated request, beforeError the SDK error', async () => {
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) =>
        request.headers.get('x-from-hook') === '1'
          ? HttpResponse.json(envelope(invoiceRecord()))
          : HttpResponse.json({ message: 'no' }, { status: 400 }),
      ),
      http.get(`${API}/invoices/bad`, () => HttpResponse.json({ message: 'nope' }, { status: 404 })),
    );
    const seen: { apiKey: string | null; errorName?: string; status?: number }[] = [];
    const client = testClient({
      hooks: {
        beforeRequest: [
          ({ request }) => {
            seen.push({ apiKey: request.headers.get('x-api-key') });
            request.headers.set('x-from-hook', '1');
          },
        ],
        afterResponse: [({ response }) => void seen.push({ apiKey: null, status: response.status })],
        beforeError: [
          ({ error }) => {
            seen.push({ apiKey: null, errorName: error.name });
            return error;
          },
        ],
      },
    });
    await client.invoices.retrieve('inv_1');
    expect(seen[0]?.apiKey).toBe(API_KEY);
    expect(seen[1]?.status).toBe(200);
    await expect(client.invoices.retrieve('bad')).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(seen.at(-1)?.errorName).toBe('NotFoundError');
  });

  it('passes fetchOptions to fetch with every request', async () => {
    const inits: unknown[] = [];
    const dispatcher = { name: 'proxy-agent' };
    const client = testClient({
      fetchOptions: { dispatcher },
      fetch: async (_input, init) => {
        inits.push((init as { dispatcher?: unknown } | undefined)?.dispatcher);
        return Response.json(envelope(invoiceRecord()));
      },
    });
    await client.invoices.retrieve('inv_1');
    await client.get('/api/v1/invoices/inv_1');
    expect(inits).toEqual([dispatcher, dispatcher]);
  });

  it('keeps its own request fields and ky options out of reach of fetchOptions', async () => {
    const modes: string[] = [];
    const client = testClient({
      fetchOptions: { redirect: 'follow', timeout: 1, retry: 10, hooks: {} } as never,
      fetch: async (input) => {
        modes.push((input as Request).redirect);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return Response.json(envelope(invoiceRecord()));
      },
    });
    // A 1 ms timeout from fetchOptions would fail this call; the client's 30 s applies.
    expect((await client.invoices.retrieve('inv_1')).id).toBe('inv_1');
    expect(modes).toEqual(['manual']);
  });

  it('adds defaultHeaders and defaultQuery to every request, and per-call headers and query to one', async () => {
    const urls: string[] = [];
    const traces: (string | null)[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        urls.push(request.url);
        traces.push(`${request.headers.get('x-tenant')}|${request.headers.get('x-trace')}`);
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const client = testClient({ defaultHeaders: { 'X-Tenant': 't1' }, defaultQuery: { region: 'eu' } });
    await client.invoices.retrieve('inv_1');
    await client.invoices.retrieve('inv_1', { headers: { 'x-trace': 'abc' }, query: { expand: 'lines' } });
    expect(urls).toEqual([`${API}/invoices/inv_1?region=eu`, `${API}/invoices/inv_1?region=eu&expand=lines`]);
    expect(traces).toEqual(['t1|null', 't1|abc']);
  });

  it('refuses at construction a default header that would replace X-API-Key or Authorization', () => {
    for (const name of ['X-API-Key', 'authorization', 'Idempotency-Key']) {
      const error = (() => {
        try {
          testClient({ defaultHeaders: { [name]: 'x' } });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(isInvoicingError(error)).toBe(true);
      expect((error as Error).message).toContain(`defaultHeaders cannot set ${JSON.stringify(name)}`);
    }
  });

  it('reaches routes it does not wrap with get and post, with auth, idempotency key, retries and errors', async () => {
    const keys: (string | null)[] = [];
    let posts = 0;
    server.use(
      http.get(`${API}/reports/daily`, ({ request }) =>
        HttpResponse.json(envelope({ day: '2026-11-25', key: request.headers.get('x-api-key') === API_KEY })),
      ),
      http.post(`${API}/reports`, async ({ request }) => {
        posts += 1;
        keys.push(request.headers.get('idempotency-key'));
        if (posts === 1) return new HttpResponse(null, { status: 503 });
        return HttpResponse.json(envelope({ echoed: await request.json() }), { status: 201 });
      }),
      http.get(`${API}/reports/missing`, () => HttpResponse.json({ message: 'gone' }, { status: 404 })),
    );
    const client = testClient({ maxRetries: 1 });
    expect(await client.get('/api/v1/reports/daily')).toEqual({ day: '2026-11-25', key: true });
    const created = await client.post('/api/v1/reports', { body: { kind: 'daily' } }).withResponse();
    expect(created.data).toEqual({ echoed: { kind: 'daily' } });
    expect(created.response.status).toBe(201);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    await expect(client.get('/api/v1/reports/missing')).rejects.toMatchObject({ name: 'NotFoundError', status: 404 });
    await expect(client.get('https://elsewhere.test/api/v1/x')).rejects.toMatchObject({ name: 'InvoicingError' });
  });

  it('keeps hooks and defaults through withOptions', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        urls.push(request.url);
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const client = testClient({ defaultQuery: { region: 'eu' } }).withOptions({ timeout: 5_000 });
    await client.invoices.retrieve('inv_1');
    expect(client.timeout).toBe(5_000);
    expect(urls).toEqual([`${API}/invoices/inv_1?region=eu`]);
  });
});

describe('client baseUrl over plain http', () => {
  const warnings = (baseUrl: string, extra: Record<string, unknown> = {}) => {
    const lines: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void lines.push(m), error() {} };
    new InvoicingClient({ baseUrl, apiKey: API_KEY, logger, ...extra });
    return lines.filter((line) => line.includes('plain http://'));
  };

  it('warns once per client for http:// to a host other than loopback, without the key', () => {
    const lines = warnings('http://invoicing.example.com');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('allowInsecureHttp');
    expect(lines[0]).not.toContain(API_KEY);
  });

  it('stays quiet for https, loopback hosts, and allowInsecureHttp: true', () => {
    expect(warnings('https://invoicing.example.com')).toEqual([]);
    expect(warnings('http://127.0.0.1:8080')).toEqual([]);
    expect(warnings('http://localhost:3000')).toEqual([]);
    expect(warnings('http://[::1]:3000')).toEqual([]);
    expect(warnings('http://invoicing.internal', { allowInsecureHttp: true })).toEqual([]);
  });
});
