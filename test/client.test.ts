import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvoicingClient } from '../src/client.js';
import { isInvoicingError } from '../src/core/errors/invoicing-error.js';
import { API, API_KEY, SESSION_TOKEN, envelope, http, HttpResponse, invoiceRecord, useMswServer } from './core/support.js';

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

  // zod is loaded: the exported schemas are the SDK's (the redesign's stack); this pins ky only.
  it('loads no HTTP library, at import or on a call, whatever the body', async () => {
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
      expect(loaded).toEqual([]);
    } finally {
      for (const name of ['ky']) vi.doUnmock(name);
    }
  });

});
