import { describe, expect, it } from 'vitest';
import { isAPIError } from '../../src/index.js';
import { fileInvoice, withSandbox } from './helpers.js';

describe('testing/routes: routes beyond the document’s table can be taken out', () => {
  it('serves GET /api/v1/invoices/{id} by default', async () => {
    await withSandbox({}, async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId, []);
      const res = await call('GET', `/api/v1/invoices/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(id);
    });
  });

  it('with routes.retrieve false, answers the single-invoice read as an unknown route, not as an unknown invoice', async () => {
    await withSandbox({ routes: { retrieve: false } }, async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId, []);
      const missingRoute = await call('GET', `/api/v1/invoices/${id}`);
      const unknownRoute = await call('GET', `/api/v1/nowhere/${id}`);
      expect(missingRoute.status).toBe(404);
      expect(missingRoute.body).toEqual({ statusCode: 404, message: `Cannot GET /api/v1/invoices/${id}`, error: 'Not Found' });
      expect(unknownRoute.body).toEqual({ ...missingRoute.body, message: `Cannot GET /api/v1/nowhere/${id}` });
      expect(missingRoute.text).not.toMatch(/Invoice .* not found/);
      // Not there at all: no key check either, as for any route the service does not have.
      expect((await call('GET', `/api/v1/invoices/${id}`, { apiKey: null })).status).toBe(404);
      // The list route still serves it, and the transitions on the same path prefix still work.
      const listed = await call('GET', '/api/v1/invoices');
      expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
      expect((await call('POST', `/api/v1/invoices/${id}/validate`)).status).toBe(200);
    });
  });

  it('sends the SDK’s retrieve through the list route, which still finds the invoice', async () => {
    await withSandbox({ routes: { retrieve: false } }, async (sandbox, call) => {
      const id = await fileInvoice(call, sandbox.businessId, []);
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
      const client = sandbox.client({ logLevel: 'warn', logger, maxRetries: 0 });
      // The route answers "Cannot GET": the client reads through the listing from then on.
      const invoice = await client.invoices.retrieve(id);
      expect(invoice.id).toBe(id);
      expect(warnings.filter((w) => /single-invoice read route/.test(w))).toHaveLength(1);
      const gets = sandbox.requests.filter((r) => r.method === 'GET').map((r) => `${r.status} ${r.path}`);
      expect(gets).toContain(`404 /api/v1/invoices/${id}`);
      expect(gets.some((g) => g.startsWith('200 /api/v1/invoices'))).toBe(true);
      // An id the service does not have is still a 404.
      const error = await client.invoices.retrieve('inv_missing').catch((e: unknown) => e);
      expect(isAPIError(error) && error.status).toBe(404);
    });
  });
});
