/**
 * The resources against the stateful sandbox (`invoicing-sdk/testing`) over a real loopback socket:
 * flows that span routes, and the service's documented quirks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isAPIConnectionTimeoutError,
  isAuthenticationError,
  isBadRequestError,
  isBusinessNotFoundError,
  isInvalidResponseError,
} from '../../src/core/errors.js';
import type { InvoiceCreateParams } from '../../src/model/invoice-input.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { recordingLogger } from '../core/support.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.reset());
afterAll(() => sandbox.close());

function input(overrides: Partial<InvoiceCreateParams> = {}): InvoiceCreateParams {
  return {
    businessId: sandbox.businessId,
    buyer: { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' },
      { description: 'Laptop', quantity: 1, unitPrice: 999.99, taxRate: 7.5, hsnCode: '8471.30' },
    ],
    ...overrides,
  };
}

const client = (options: Parameters<Sandbox['client']>[0] = {}) => sandbox.client({ logger: recordingLogger(), ...options });
const requestsTo = (method: string, suffix: string | RegExp) =>
  sandbox.requests.filter((r) => r.method === method && (typeof suffix === 'string' ? r.path.endsWith(suffix) : suffix.test(r.path)));

describe('resources against the sandbox', () => {
  it('creates, reads, lists and files an invoice', async () => {
    const c = client();
    const draft = await c.invoices.create(input());
    expect(draft.status).toBe('DRAFT');
    expect(draft.total).toBeDefined();
    expect(Number(draft.total)).toBeCloseTo(2687.49, 2);
    expect((await c.invoices.retrieve(draft.id)).id).toBe(draft.id);
    expect((await c.invoices.validate(draft.id)).status).toBe('VALIDATED');
    expect((await c.invoices.sign(draft.id)).status).toBe('SIGNED');
    expect((await c.invoices.submit(draft.id)).status).toBe('SUBMITTED');
    const listed: string[] = [];
    for await (const invoice of c.invoices.list()) listed.push(invoice.id);
    expect(listed).toEqual([draft.id]);
    expect(requestsTo('POST', '/submit')).toHaveLength(1);
  });

  it('replays a create with the same idempotency key instead of creating twice', async () => {
    const c = client();
    const first = await c.invoices.create(input(), { idempotencyKey: 'order-1' });
    const second = await c.invoices.create(input(), { idempotencyKey: 'order-1' });
    expect(second.id).toBe(first.id);
    expect(sandbox.invoices.list()).toHaveLength(1);
  });

  it('retries a create whose connection dropped after the commit, with the same key, creating once', async () => {
    sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-after' });
    const invoice = await client().invoices.create(input());
    const creates = requestsTo('POST', '/api/v1/invoices');
    expect(creates).toHaveLength(2);
    expect(creates[0]?.idempotencyKey).toBeDefined();
    expect(creates[1]?.idempotencyKey).toBe(creates[0]?.idempotencyKey);
    expect(sandbox.invoices.list().map((i) => i.id)).toEqual([invoice.id]);
  });

  it('sends a transition once, and reads the invoice back when the answer carries none', async () => {
    const quiet = await createSandbox({ transitionResponse: 'message' });
    try {
      const c = quiet.client({ logger: recordingLogger() });
      const draft = await c.invoices.create({ ...input(), businessId: quiet.businessId });
      const validated = await c.invoices.validate(draft.id);
      expect(validated.status).toBe('VALIDATED');
      const paths = quiet.requests.map((r) => `${r.method} ${r.path}`);
      expect(paths.filter((p) => p.endsWith('/validate'))).toHaveLength(1);
      expect(paths.at(-1)).toBe(`GET /api/v1/invoices/${draft.id}`);
    } finally {
      await quiet.close();
    }
  });

  it('reads the alternate record spelling through the default aliases', async () => {
    const alt = await createSandbox({ recordStyle: 'alternate', listen: false });
    try {
      const c = alt.client({ logger: recordingLogger() });
      const draft = await c.invoices.create({ ...input(), businessId: alt.businessId });
      expect(draft.id).toBeTruthy();
      expect(draft.status).toBe('DRAFT');
      expect(draft.total).toBeDefined();
      expect(draft.taxTotal).toBeDefined();
    } finally {
      await alt.close();
    }
  });

  it('iterates a listing of 3 pages with 3 requests', async () => {
    const c = client();
    for (let i = 0; i < 7; i += 1) await c.invoices.create(input());
    sandbox.clearRequests();
    const ids: string[] = [];
    for await (const invoice of c.invoices.list({ limit: 3 })) ids.push(invoice.id);
    expect(new Set(ids).size).toBe(7);
    expect(requestsTo('GET', '/api/v1/invoices')).toHaveLength(3);
  });

  it('turns a server-side classification rejection into a BadRequestError naming the lookups', async () => {
    const bad = input({ lines: [{ description: 'Thing', quantity: 1, unitPrice: 1, taxRate: 7.5 }] });
    const error = await client().invoices.create(bad, { skipChecks: true }).catch((e: unknown) => e);
    expect(isBadRequestError(error)).toBe(true);
    expect((error as Error).message).toMatch(/classification code/);
    expect((error as { hint: string }).hint).toMatch(/\/api\/v1\/taxauth\/hs-codes/);
  });

  it('turns the BUSINESS-key defect into a BusinessNotFoundError', async () => {
    const key = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId, replaceExisting: false });
    const error = await client({ apiKey: key.key }).invoices.create(input()).catch((e: unknown) => e);
    expect(isBusinessNotFoundError(error)).toBe(true);
    expect((error as { hint: string }).hint).toMatch(/USER key/);
  });

  it('manages keys over the session: a new key revokes the old one of the same type', async () => {
    const c = client();
    const before = await c.apiKeys.list();
    expect(before.length).toBeGreaterThan(0);
    const created = await c.apiKeys.create({ name: 'rotated', type: 'LIVE', keyableType: 'USER', scopes: ['*'] });
    expect(created.key).toMatch(/\S{8,}/);
    const old = await c.invoices.list().catch((e: unknown) => e);
    expect(isAuthenticationError(old)).toBe(true);
    expect((old as { hint: string }).hint).toMatch(/revokes the existing key of the same type/);

    const rotated = client({ apiKey: created.key });
    await expect(rotated.invoices.list()).resolves.toBeDefined();
    if (created.id === undefined) throw new Error('the sandbox returns the id of a created key');
    expect((await c.apiKeys.reveal(created.id)).key).toBe(created.key);
    expect((await c.apiKeys.retrieve(created.id)).id).toBe(created.id);
    await c.apiKeys.revoke(created.id);
    await expect(rotated.invoices.list()).rejects.toSatisfy(isAuthenticationError);
    expect(sandbox.requests.filter((r) => r.path.startsWith('/api/v1/api-key')).every((r) => r.headers['x-api-key'] === undefined)).toBe(true);
  });

  it('looks up codes once and serves them from the cache', async () => {
    const c = client();
    const services = await c.codes.serviceCodes();
    // Every page of the listing is followed: the service publishes 419 ISIC classes.
    expect(services).toHaveLength(419);
    expect(services.some((s) => s.code === '6202' && s.description !== undefined)).toBe(true);
    const goods = await c.codes.hsCodes();
    expect(goods.some((g) => /^\d{4}\.\d{2}$/.test(g.code))).toBe(true);
    const lookups = requestsTo('GET', '/service-codes').length;
    await c.codes.serviceCodes();
    expect(requestsTo('GET', '/service-codes')).toHaveLength(lookups);
  });

  it('retries an HTML 502 from the gateway, then succeeds', async () => {
    const c = client();
    const draft = await c.invoices.create(input());
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'malformed', variant: 'html', status: 502 });
    expect((await c.invoices.retrieve(draft.id)).id).toBe(draft.id);
    expect(requestsTo('GET', `/invoices/${draft.id}`)).toHaveLength(2);
  });

  it.each(['html', 'truncated-json', 'success-false', 'missing-data', 'empty'] as const)(
    'turns a 200 with a %s body into an InvalidResponseError',
    async (variant) => {
      const c = client();
      const draft = await c.invoices.create(input());
      sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'malformed', variant });
      const error = await c.invoices.retrieve(draft.id).catch((e: unknown) => e);
      expect(isInvalidResponseError(error)).toBe(true);
    },
  );

  it('times out on a body that stalls half-way', async () => {
    const c = client({ timeout: 300, maxRetries: 0 });
    const draft = await c.invoices.create(input());
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'stall-body' });
    await expect(c.invoices.retrieve(draft.id)).rejects.toSatisfy(isAPIConnectionTimeoutError);
  });
});
