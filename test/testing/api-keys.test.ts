import { describe, expect, it } from 'vitest';
import { isAuthenticationError } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { type Call, useSandbox, withSandbox } from './helpers.js';

describe('testing/sandbox API keys', () => {
  let sandbox: Sandbox;
  let call: Call;
  let asUser: (method: string, path: string, body?: unknown) => ReturnType<Call>;

  useSandbox({}, (s, c) => {
    sandbox = s;
    call = c;
    asUser = (method, path, body) => call(method, path, { session: sandbox.sessionToken, ...(body === undefined ? {} : { body }) });
  });

  it('creates a key, returning its secret in `key`, with the wildcard scope when scopes are omitted', async () => {
    const res = await asUser('POST', '/api/v1/api-key', { name: 'ci', type: 'LIVE', keyableType: 'USER' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'ci', type: 'LIVE', keyableType: 'USER', scopes: ['*'], status: 'active' });
    expect(res.body.data.key).toMatch(/^sk_live_/);
    expect((await call('GET', '/api/v1/invoices', { apiKey: res.body.data.key })).status).toBe(200);
  });

  it('keeps an explicit scopes list, and an empty one grants nothing', async () => {
    const read = await asUser('POST', '/api/v1/api-key', { name: 'r', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read'] });
    expect(read.body.data.scopes).toEqual(['invoices:read']);
    const none = await asUser('POST', '/api/v1/api-key', { name: 'n', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId, scopes: [] });
    expect(none.status).toBe(201);
    expect((await call('GET', '/api/v1/invoices', { apiKey: none.body.data.key })).status).toBe(403);
  });

  it('lists, shows and reveals keys; only reveal carries the secret', async () => {
    const created = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId });
    const id = created.body.data.id;
    const list = await asUser('GET', '/api/v1/api-key');
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ total: 2, page: 1 });
    expect(list.text).not.toContain(created.body.data.key);
    expect(list.text).not.toContain(sandbox.apiKey);
    expect(list.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
    const detail = await asUser('GET', `/api/v1/api-key/${id}`);
    expect(detail.body.data).toMatchObject({ id, keyableType: 'BUSINESS', businessId: sandbox.businessId });
    expect(detail.body.data.key).toBeUndefined();
    const reveal = await asUser('GET', `/api/v1/api-key/${id}/reveal`);
    expect(reveal.body.data.key).toBe(created.body.data.key);
  });

  it('revokes immediately and permanently on DELETE', async () => {
    const created = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId });
    const res = await asUser('DELETE', `/api/v1/api-key/${created.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('revoked');
    expect((await call('GET', '/api/v1/invoices', { apiKey: created.body.data.key })).status).toBe(401);
    expect((await asUser('GET', `/api/v1/api-key/${created.body.data.id}`)).body.data.status).toBe('revoked');
  });

  it('revokes the existing key of the same type and keyableType when another is created', async () => {
    const created = await asUser('POST', '/api/v1/api-key', { name: 'rotated', type: 'LIVE', keyableType: 'USER' });
    expect(created.status).toBe(201);
    // sandbox.apiKey is the user's LIVE USER key: replaced, so 401 from now on.
    const old = await call('GET', '/api/v1/invoices');
    expect(old.status).toBe(401);
    expect(old.body.message).toMatch(/revoked/);
    expect((await call('GET', '/api/v1/invoices', { apiKey: created.body.data.key })).status).toBe(200);
  });

  it('keeps keys of the other keyableType, of other users, and BUSINESS keys of every business go together', async () => {
    const stranger = sandbox.createUser();
    const second = sandbox.createBusiness();
    const a = await asUser('POST', '/api/v1/api-key', { name: 'a', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId });
    const b = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'BUSINESS', businessId: second });
    expect((await call('GET', '/api/v1/invoices')).status).toBe(200); // USER key untouched
    expect((await call('GET', '/api/v1/invoices', { apiKey: stranger.apiKey })).status).toBe(200);
    expect((await call('GET', '/api/v1/invoices', { apiKey: a.body.data.key })).status).toBe(401);
    expect((await call('GET', '/api/v1/invoices', { apiKey: b.body.data.key })).status).toBe(200);
  });

  it('replaces per business with keyReplacement type+keyableType+business, and every LIVE key with type', async () => {
    for (const [rule, aSurvives, userKeySurvives] of [
      ['type+keyableType+business', true, true],
      ['type', false, false],
    ] as const) {
      await withSandbox({ keyReplacement: rule }, async (box, c) => {
        const second = box.createBusiness();
        const mk = (businessId: string) =>
          c('POST', '/api/v1/api-key', { session: box.sessionToken, body: { name: 'k', type: 'LIVE', keyableType: 'BUSINESS', businessId } });
        const a = await mk(box.businessId);
        await mk(second);
        expect((await c('GET', '/api/v1/invoices', { apiKey: a.body.data.key })).status).toBe(aSurvives ? 200 : 401);
        expect((await c('GET', '/api/v1/invoices')).status).toBe(userKeySurvives ? 200 : 401);
      });
    }
  });

  it('rejects bad bodies with 400 and a business the user does not own with 404', async () => {
    const noBusiness = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'BUSINESS' });
    expect(noBusiness.status).toBe(400);
    expect(noBusiness.body.message).toContain('businessId is required when keyableType is BUSINESS');
    const badType = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'TEST', keyableType: 'USER' });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toEqual(['type must be one of the following values: LIVE']);
    const badScope = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:delete'] });
    expect(badScope.status).toBe(400);
    const stranger = sandbox.createUser();
    const notOwned = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'BUSINESS', businessId: stranger.businessId });
    expect(notOwned.status).toBe(404);
    expect(notOwned.body.message).toBe('Business not found');
  });

  it('answers 404 for another user’s key', async () => {
    const stranger = sandbox.createUser();
    const theirs = await call('POST', '/api/v1/api-key', {
      session: stranger.sessionToken,
      body: { name: 'x', type: 'LIVE', keyableType: 'BUSINESS', businessId: stranger.businessId },
    });
    for (const path of [`/api/v1/api-key/${theirs.body.data.id}`, `/api/v1/api-key/${theirs.body.data.id}/reveal`]) {
      expect((await asUser('GET', path)).status).toBe(404);
    }
    expect((await asUser('DELETE', `/api/v1/api-key/${theirs.body.data.id}`)).status).toBe(404);
  });

  it('never writes a secret into the request log', async () => {
    const created = await asUser('POST', '/api/v1/api-key', { name: 'b', type: 'LIVE', keyableType: 'USER' });
    await asUser('GET', `/api/v1/api-key/${created.body.data.id}/reveal`);
    await call('GET', `/api/v1/invoices?apiKey=${sandbox.apiKey}`);
    const logged = JSON.stringify(sandbox.requests);
    expect(logged).not.toContain(created.body.data.key);
    expect(logged).not.toContain(sandbox.apiKey);
    expect(logged).not.toContain(sandbox.sessionToken);
    expect(sandbox.requests[0]?.headers.authorization).toBe('Bearer [REDACTED]');
  });
});

describe('testing/sandbox API keys through the SDK: creating a key revokes the other key of its type and keyableType', () => {
  it('answers 401 to a LIVE BUSINESS key once another LIVE BUSINESS key is created, and keeps the LIVE USER key', async () => {
    await withSandbox({ businessKeyDefect: false }, async (sandbox) => {
      const admin = sandbox.client({ logLevel: 'error', maxRetries: 0 });
      const input = { name: 'server', type: 'LIVE' as const, keyableType: 'BUSINESS' as const, businessId: sandbox.businessId, scopes: ['*' as const] };
      const first = await admin.apiKeys.create(input);
      const asFirst = sandbox.client({ apiKey: first.key!, logLevel: 'error', maxRetries: 0 });
      expect((await asFirst.invoices.list()).data).toEqual([]);

      const second = await admin.apiKeys.create({ ...input, name: 'server (new)' });
      const refused = await asFirst.invoices.list().catch((error: unknown) => error);
      expect(isAuthenticationError(refused) && refused.status).toBe(401);
      expect(String((refused as Error).message)).toMatch(/revoked/);
      expect(JSON.stringify(refused)).not.toContain(first.key!);

      // The new key works; the LIVE USER key (another keyableType) was not replaced.
      expect((await sandbox.client({ apiKey: second.key!, logLevel: 'error' }).invoices.list()).data).toEqual([]);
      expect((await admin.invoices.list()).data).toEqual([]);
      const statuses = Object.fromEntries((await admin.apiKeys.list()).map((k) => [k.name, k.raw.status]));
      expect(statuses).toEqual({ 'Sandbox default key': 'active', server: 'revoked', 'server (new)': 'active' });
    });
  });

  it('answers 401 to the LIVE USER key once the user creates another LIVE USER key', async () => {
    await withSandbox({}, async (sandbox) => {
      const admin = sandbox.client({ logLevel: 'error', maxRetries: 0 });
      const replacement = await admin.apiKeys.create({ name: 'replacement', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read'] });
      const refused = await admin.invoices.list().catch((error: unknown) => error);
      expect(isAuthenticationError(refused) && refused.status).toBe(401);
      expect((await sandbox.client({ apiKey: replacement.key!, logLevel: 'error' }).invoices.list()).data).toEqual([]);
    });
  });
});
