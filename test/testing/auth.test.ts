import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { invoiceBody, type Call, useSandbox, withSandbox } from './helpers.js';

describe('testing/sandbox authentication', () => {
  let sandbox: Sandbox;
  let call: Call;

  useSandbox({}, (s, c) => {
    sandbox = s;
    call = c;
  });

  it('accepts the key in X-API-Key', async () => {
    const res = await call('GET', '/api/v1/invoices');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });

  it('answers 401 without any key, in a NestJS-style body outside the envelope', async () => {
    const res = await call('GET', '/api/v1/invoices', { apiKey: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: expect.stringContaining('X-API-Key'), error: 'Unauthorized' });
    expect(res.body.success).toBeUndefined();
  });

  it('answers 401 to a valid key sent as Authorization: ApiKey', async () => {
    const res = await call('GET', '/api/v1/invoices', { apiKey: null, headers: { authorization: `ApiKey ${sandbox.apiKey}` } });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/not supported/);
  });

  it('answers 401 to a valid key sent as the apiKey query parameter', async () => {
    const res = await call('GET', `/api/v1/invoices?apiKey=${sandbox.apiKey}`, { apiKey: null });
    expect(res.status).toBe(401);
  });

  it('answers 401 to an unknown key and to a session token on an invoice route', async () => {
    expect((await call('GET', '/api/v1/invoices', { apiKey: 'sk_live_nope' })).status).toBe(401);
    const bearer = await call('GET', '/api/v1/invoices', { session: sandbox.sessionToken });
    expect(bearer.status).toBe(401);
    expect(bearer.body.message).toMatch(/X-API-Key/);
  });

  it('answers 401 to a revoked key at once', async () => {
    const { key, id } = sandbox.createApiKey({ scopes: ['invoices:read'] });
    expect((await call('GET', '/api/v1/invoices', { apiKey: key })).status).toBe(200);
    const revoked = await call('DELETE', `/api/v1/api-key/${id}`, { session: sandbox.sessionToken });
    expect(revoked.status).toBe(200);
    const res = await call('GET', '/api/v1/invoices', { apiKey: key });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/revoked/);
  });

  it('requires a Bearer session on the api-key routes and refuses an API key there', async () => {
    const withKey = await call('GET', '/api/v1/api-key');
    expect(withKey.status).toBe(401);
    expect(withKey.body.message).toMatch(/API keys cannot manage API keys/);
    expect((await call('GET', '/api/v1/api-key', { session: 'sess_unknown' })).status).toBe(401);
    expect((await call('GET', '/api/v1/api-key', { session: sandbox.sessionToken })).status).toBe(200);
  });

  it('answers 401 once a session is signed out', async () => {
    const token = sandbox.createSession();
    expect((await call('GET', '/api/v1/api-key', { session: token })).status).toBe(200);
    sandbox.endSession(token);
    expect((await call('GET', '/api/v1/api-key', { session: token })).status).toBe(401);
  });

  describe('scopes', () => {
    const cases: [string, string, string, unknown?][] = [
      ['POST', '/api/v1/invoices', 'invoices:write', 'body'],
      ['GET', '/api/v1/invoices', 'invoices:read'],
      ['GET', '/api/v1/invoices/inv_x', 'invoices:read'],
      ['POST', '/api/v1/invoices/inv_x/validate', 'invoices:write'],
      ['POST', '/api/v1/invoices/inv_x/sign', 'invoices:write'],
      ['POST', '/api/v1/invoices/inv_x/submit', 'invoices:write'],
      ['GET', '/api/v1/taxauth/hs-codes', 'taxauth:read'],
      ['GET', '/api/v1/taxauth/service-codes', 'taxauth:read'],
    ];
    it.each(cases)('%s %s needs %s (403 naming it)', async (method, path, scope, withBody) => {
      const other = ['invoices:read', 'invoices:write', 'taxauth:read'].filter((s) => s !== scope);
      const { key } = sandbox.createApiKey({ scopes: other });
      const res = await call(method, path, {
        apiKey: key,
        ...(withBody ? { body: invoiceBody(sandbox.businessId) } : {}),
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      expect(res.body.message).toContain(scope);
    });

    it('lets the wildcard and the exact scope through', async () => {
      const exact = sandbox.createApiKey({ scopes: ['taxauth:read'] }).key;
      expect((await call('GET', '/api/v1/taxauth/hs-codes?limit=1', { apiKey: exact })).status).toBe(200);
      const wildcard = sandbox.createApiKey({ scopes: ['*'] }).key;
      expect((await call('GET', '/api/v1/taxauth/hs-codes?limit=1', { apiKey: wildcard })).status).toBe(200);
    });
  });

  describe('businesses', () => {
    it('answers 404 Business not found to a BUSINESS key on create (the known defect)', async () => {
      const { key } = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId });
      const res = await call('POST', '/api/v1/invoices', { apiKey: key, body: invoiceBody(sandbox.businessId) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'Business not found', error: 'Not Found' });
      expect(sandbox.invoices.count).toBe(0);
    });

    it('lets a BUSINESS key create for its own business only, with the defect switched off', async () => {
      await withSandbox({ businessKeyDefect: false }, async (fixed, call2) => {
        const { key } = fixed.createApiKey({ keyableType: 'BUSINESS', businessId: fixed.businessId });
        const own = await call2('POST', '/api/v1/invoices', { apiKey: key, body: invoiceBody(fixed.businessId) });
        expect(own.status).toBe(201);
        const second = fixed.createBusiness();
        const other = await call2('POST', '/api/v1/invoices', { apiKey: key, body: invoiceBody(second) });
        expect(other.status).toBe(404);
        expect(other.body.message).toBe('Business not found');
      });
    });

    it('answers 404 Business not found when a USER key creates for a business its user does not own', async () => {
      const stranger = sandbox.createUser();
      const res = await call('POST', '/api/v1/invoices', { body: invoiceBody(stranger.businessId) });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Business not found');
      const unknown = await call('POST', '/api/v1/invoices', { body: invoiceBody('biz_missing') });
      expect(unknown.status).toBe(404);
    });

    it('lets a USER key act across every business its user owns', async () => {
      const second = sandbox.createBusiness();
      expect((await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId) })).status).toBe(201);
      expect((await call('POST', '/api/v1/invoices', { body: invoiceBody(second) })).status).toBe(201);
      expect((await call('GET', '/api/v1/invoices')).body.meta.total).toBe(2);
    });

    it('hides another user’s invoices (404 on read, absent from the listing)', async () => {
      const stranger = sandbox.createUser();
      const theirs = await call('POST', '/api/v1/invoices', { apiKey: stranger.apiKey, body: invoiceBody(stranger.businessId) });
      expect(theirs.status).toBe(201);
      const read = await call('GET', `/api/v1/invoices/${theirs.body.data.id}`);
      expect(read.status).toBe(404);
      expect((await call('GET', '/api/v1/invoices')).body.meta.total).toBe(0);
    });

    it('lets a BUSINESS key read and file its business’s invoices', async () => {
      const created = await call('POST', '/api/v1/invoices', { body: invoiceBody(sandbox.businessId) });
      const { key } = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId });
      expect((await call('GET', `/api/v1/invoices/${created.body.data.id}`, { apiKey: key })).status).toBe(200);
      expect((await call('POST', `/api/v1/invoices/${created.body.data.id}/validate`, { apiKey: key })).status).toBe(200);
    });
  });
});
