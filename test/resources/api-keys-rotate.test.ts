/**
 * `client.apiKeys.rotate()` against the stateful sandbox over a loopback socket. The sandbox follows
 * the document: creating a key revokes the other key of the same type at once (401 from then on).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAPIUserAbortError, isAuthenticationError, isInternalServerError, isInvoicingError } from '../../src/core/errors.js';
import type { APIKeyCreateParams } from '../../src/model/api-key.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { recordingLogger } from '../core/support.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.reset());
afterAll(() => sandbox.close());

const USER_KEY: APIKeyCreateParams = { name: 'rotated', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'] };

/** The same client's quiet twin, for checking one key from outside. */
const probe = (apiKey: string) => sandbox.client({ apiKey, logLevel: 'error', maxRetries: 0 }).invoices.list();

describe('resources/api-keys rotate (sandbox)', () => {
  it('switches this client to the new key: its calls succeed, and the old key gets 401 from another client', async () => {
    const oldKey = sandbox.apiKey;
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    await expect(client.invoices.list()).resolves.toBeDefined();

    const created = await client.apiKeys.rotate(USER_KEY);
    expect(created.key).toMatch(/^sk_live_/);
    expect(created.key).not.toBe(oldKey);
    expect(created).toMatchObject({ keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'] });

    await expect(client.invoices.list()).resolves.toBeDefined();
    const listed = sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/invoices');
    expect(listed.map((r) => r.status)).toEqual([200, 200]);

    const refused = await probe(oldKey).catch((e: unknown) => e);
    expect(isAuthenticationError(refused)).toBe(true);
    await expect(probe(created.key!)).resolves.toBeDefined();
  });

  it('holds the calls made while the rotation runs, so none is sent with the key being revoked', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    // The service revokes the old key as soon as it creates the new one; its answer comes later.
    sandbox.faults.inject({ method: 'POST', path: '/api-key', kind: 'delay', ms: 300, afterCommit: true });
    const rotation = client.apiKeys.rotate(USER_KEY);
    await waitFor(() => sandbox.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/api-key' && r.committed));
    // Made after the old key was revoked, before the answer to create arrived (then() starts a listing).
    const during = client.invoices.list().then((page) => page.data);
    const created = await rotation;
    await expect(during).resolves.toBeDefined();
    await expect(client.invoices.list()).resolves.toBeDefined();
    await expect(probe(created.key!)).resolves.toBeDefined();
  });

  it('lets a held call end at its own abort, on real timers, while the rotation still runs', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    sandbox.faults.inject({ method: 'POST', path: '/api-key', kind: 'delay', ms: 400, afterCommit: true });
    const rotation = client.apiKeys.rotate(USER_KEY);
    await waitFor(() => sandbox.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/api-key' && r.committed));
    const started = performance.now();
    const held = await client.invoices.list({}, { signal: AbortSignal.timeout(50) }).then(() => undefined, (e: unknown) => e);
    const waited = performance.now() - started;
    expect(isAPIUserAbortError(held)).toBe(true);
    expect(waited).toBeLessThan(350);
    // Nothing was sent with the key being revoked.
    expect(sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/invoices')).toEqual([]);
    await rotation;
    await expect(client.invoices.list()).resolves.toBeDefined();
  });

  it('keeps the old key when the create fails at the service, and the client keeps working', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    sandbox.faults.inject({ method: 'POST', path: '/api-key', kind: 'status', status: 500 });
    const error = await client.apiKeys.rotate(USER_KEY).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    await expect(client.invoices.list()).resolves.toBeDefined();
    await expect(probe(sandbox.apiKey)).resolves.toBeDefined();
  });

  it('keeps the old key when the input is refused locally, sending nothing', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    const error = await client.apiKeys.rotate({ ...USER_KEY, keyableType: 'BUSINESS' }).catch((e: unknown) => e);
    expect(isInvoicingError(error)).toBe(true);
    expect((error as Error).message).toMatch(/businessId: a BUSINESS key requires businessId/);
    expect(sandbox.requests.filter((r) => r.path === '/api/v1/api-key')).toEqual([]);
    await expect(client.invoices.list()).resolves.toBeDefined();
  });

  it('leaves withOptions() children made before the rotation on the old key; children made after get the new one', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    const before = client.withOptions({ timeout: 5_000 });
    await client.apiKeys.rotate(USER_KEY);
    const after = client.withOptions({ timeout: 5_000 });
    await expect(before.invoices.list()).rejects.toSatisfy(isAuthenticationError);
    await expect(after.invoices.list()).resolves.toBeDefined();
  });

  it('gives a client made with a session token only the new key', async () => {
    // An empty apiKey is no key (and keeps INVOICING_API_KEY out).
    const keyless = sandbox.client({ apiKey: '', logger: recordingLogger(), maxRetries: 0 });
    expect(keyless.hasApiKey).toBe(false);
    await keyless.apiKeys.rotate(USER_KEY);
    expect(keyless.hasApiKey).toBe(true);
    await expect(keyless.invoices.list()).resolves.toBeDefined();
  });

  it('runs two rotations of one client one after the other and ends on the key the service kept', async () => {
    const client = sandbox.client({ logger: recordingLogger(), maxRetries: 0 });
    const [first, second] = await Promise.all([client.apiKeys.rotate(USER_KEY), client.apiKeys.rotate({ ...USER_KEY, name: 'second' })]);
    expect(second.name).toBe('second');
    await expect(probe(first.key!)).rejects.toSatisfy(isAuthenticationError);
    await expect(client.invoices.list()).resolves.toBeDefined();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not met');
}
