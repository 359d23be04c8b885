import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computeTotals } from '../../src/model/money.js';
import {
  isAuthenticationError,
  isBusinessNotFoundError,
  isIdempotencyConflictError,
  isPermissionDeniedError,
} from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { invoiceBody } from './helpers.js';

const input = (businessId: string) => invoiceBody(businessId) as Parameters<ReturnType<Sandbox['client']>['invoices']['create']>[0];

describe('testing/sandbox.client()', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox({ timeScale: 0 });
  });
  beforeEach(() => {
    sandbox.reset();
    sandbox.clock.timeScale = 0;
  });
  afterAll(() => sandbox.close());

  it('files an invoice over loopback and reads the authority’s later status', async () => {
    const client = sandbox.client({ logLevel: 'error' });
    const draft = await client.invoices.create(input(sandbox.businessId));
    const totals = computeTotals(input(sandbox.businessId).lines);
    expect(draft).toMatchObject({ status: 'DRAFT', rawStatus: 'draft' });
    // JSON numbers: 1828.90 arrives as 1828.9; the amounts are equal as decimals.
    expect([draft.subtotal, draft.taxTotal, draft.total].map(Number)).toEqual([totals.subtotal, totals.taxTotal, totals.total].map(Number));
    await client.invoices.validate(draft.id);
    await client.invoices.sign(draft.id);
    expect((await client.invoices.submit(draft.id)).status).toBe('SUBMITTED');
    sandbox.clock.advance(2_000);
    const filed = await client.invoices.retrieve(draft.id);
    expect(filed).toMatchObject({ status: 'ACCEPTED', rawStatus: 'Accepted', attempts: 0 });
    expect(sandbox.invoices.get(draft.id)?.submissions).toBe(1);
  });

  it('files the same way whatever the spelling of the statuses (statusSpelling)', async () => {
    for (const statusSpelling of ['capitalized', 'upper', 'lower'] as const) {
      await using box = await createSandbox({ listen: false, msw: false, statusSpelling, timeScale: 0 });
      const client = box.client({ logLevel: 'error' });
      const draft = await client.invoices.create(input(box.businessId));
      expect(draft.status).toBe('DRAFT');
      await client.invoices.validate(draft.id);
      await client.invoices.sign(draft.id);
      expect((await client.invoices.submit(draft.id)).status).toBe('SUBMITTED');
      box.clock.advance(2_000);
      expect(await client.invoices.retrieve(draft.id)).toMatchObject({ status: 'ACCEPTED', rawStatus: 'Accepted' });
    }
  });

  it('reads the alternate field names, and reads back when transitions answer data: null', async () => {
    await using box = await createSandbox({ listen: false, msw: false, recordStyle: 'alternate', transitionResponse: 'null', scenario: 'offline', timeScale: 0 });
    const client = box.client({ logLevel: 'error' });
    const draft = await client.invoices.create(input(box.businessId));
    expect(draft.raw).toHaveProperty('_id');
    expect(Number(draft.total)).toBe(Number(computeTotals(input(box.businessId).lines).total));
    const validated = await client.invoices.validate(draft.id);
    expect(validated.status).toBe('VALIDATED');
    await client.invoices.sign(draft.id);
    await client.invoices.submit(draft.id);
    box.clock.advance(2_000);
    const failed = await client.invoices.retrieve(draft.id);
    expect(failed).toMatchObject({ id: draft.id, status: 'ERROR', errorMessage: 'Access points are offline', attempts: 0 });
    expect(failed.updatedAt).toBe(box.invoices.get(draft.id)?.updatedAt);
    // The GETs after each transition are the SDK's read-back.
    expect(box.requests.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(3);
  });

  it('iterates every page of the listing', async () => {
    const client = sandbox.client({ logLevel: 'error' });
    for (let i = 0; i < 12; i++) await client.invoices.create(input(sandbox.businessId));
    const seen = [];
    for await (const invoice of client.invoices.list({ limit: 5 })) seen.push(invoice.id);
    expect(seen).toEqual(sandbox.invoices.list().map((i) => i.id));
  });

  it('surfaces the service’s errors as the SDK’s typed errors', async () => {
    const business = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId });
    await expect(sandbox.client({ apiKey: business.key, logLevel: 'error' }).invoices.create(input(sandbox.businessId))).rejects.toSatisfy(
      isBusinessNotFoundError,
    );
    const readOnly = sandbox.createApiKey({ scopes: ['invoices:read'] });
    await expect(sandbox.client({ apiKey: readOnly.key, logLevel: 'error' }).invoices.create(input(sandbox.businessId))).rejects.toSatisfy(
      isPermissionDeniedError,
    );
    sandbox.revokeApiKey(readOnly.key);
    await expect(sandbox.client({ apiKey: readOnly.key, logLevel: 'error' }).invoices.retrieve('inv_x')).rejects.toSatisfy(isAuthenticationError);
    const client = sandbox.client({ logLevel: 'error' });
    await client.invoices.create(input(sandbox.businessId), { idempotencyKey: 'same' });
    const other = { ...input(sandbox.businessId), dueDate: '2027-02-01T00:00:00Z' };
    await expect(client.invoices.create(other, { idempotencyKey: 'same' })).rejects.toSatisfy(isIdempotencyConflictError);
  });

  it('retries a create whose answer was dropped with the same key: one invoice', async () => {
    sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-after' });
    const client = sandbox.client({ logLevel: 'error', maxRetries: 2 });
    const invoice = await client.invoices.create(input(sandbox.businessId));
    expect(sandbox.invoices.count).toBe(1);
    const creates = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/invoices');
    expect(creates).toHaveLength(2);
    expect(creates[0]?.idempotencyKey).toBe(creates[1]?.idempotencyKey);
    expect(invoice.id).toBe(sandbox.invoices.list()[0]?.id);
  });

  it('manages keys over the session and looks codes up', async () => {
    const client = sandbox.client({ logLevel: 'error' });
    const created = await client.apiKeys.create({ name: 'ci', type: 'LIVE', keyableType: 'BUSINESS', businessId: sandbox.businessId, scopes: ['taxauth:read'] });
    expect(created.key).toMatch(/^sk_live_/);
    const keys = await client.apiKeys.list();
    expect(keys.map((k) => k.key)).toEqual([undefined, undefined]);
    expect((await client.apiKeys.reveal(created.id!)).key).toBe(created.key);
    const codes = await sandbox.client({ apiKey: created.key!, logLevel: 'error' }).codes.serviceCodes();
    expect(codes).toHaveLength(419);
    await client.apiKeys.revoke(created.id!);
    expect(sandbox.requests.at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
  });

  it('talks in-process (sandbox.fetch) when the sandbox does not listen', async () => {
    await using box = await createSandbox({ listen: false, msw: false });
    const invoice = await box.client({ logLevel: 'error' }).invoices.create(input(box.businessId));
    expect(box.invoices.get(invoice.id)?.status).toBe('draft');
  });
});
