/**
 * `client.apiKeys` against the stateful sandbox (`invoicing-sdk/testing`) over a loopback socket:
 * the listing's pages and what a key replacement does to a client's own key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAuthenticationError } from '../../src/core/errors.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { recordingLogger } from '../core/support.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.reset());
afterAll(() => sandbox.close());

describe('resources/api-keys (sandbox)', () => {
  it('lists every key, also beyond the first page of the listing', async () => {
    const client = sandbox.client({ logger: recordingLogger() });
    // BUSINESS keys: each revokes the one before, and the listing keeps revoked keys too.
    const created: (string | undefined)[] = [];
    for (let i = 0; i < 12; i += 1) {
      const key = await client.apiKeys.create({ name: `k${i}`, type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId, scopes: ['invoices:read'] });
      created.push(key.id);
    }
    const ids = (await client.apiKeys.list()).map((k) => k.id);
    expect(ids.length).toBeGreaterThan(12);
    expect(ids).toEqual(expect.arrayContaining(created));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves a client on its own, replaced key; withOptions({ apiKey: created.key }) carries on', async () => {
    const client = sandbox.client({ logger: recordingLogger() });
    const created = await client.apiKeys.create({ name: 'next', type: 'LIVE', keyableType: 'USER', scopes: ['*'] });
    await expect(client.invoices.list()).rejects.toSatisfy(isAuthenticationError);
    await expect(client.withOptions({ apiKey: created.key }).invoices.list()).resolves.toBeDefined();
  });
});
