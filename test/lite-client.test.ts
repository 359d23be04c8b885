import { inspect } from 'node:util';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkInvoice } from '../src/check/index.js';
import { InvoicingClient } from '../src/client.js';
import { isInvoiceCheckError } from '../src/core/errors.js';
import { InvoicingLiteClient } from '../src/lite-client.js';
import * as lite from '../src/lite.js';
import type { InvoiceCreateParams } from '../src/model/invoice-input.js';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import { invoiceBody } from './testing/helpers.js';

const input = (businessId: string, overrides: Record<string, unknown> = {}) => invoiceBody(businessId, overrides) as unknown as InvoiceCreateParams;

describe('lite-client', () => {
  let sandbox: Sandbox;
  const server = setupServer();

  beforeAll(async () => {
    sandbox = await createSandbox({ listen: false, timeScale: 0 });
    server.use(...sandbox.handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  beforeEach(() => sandbox.reset());
  afterAll(async () => {
    server.close();
    await sandbox.close();
  });

  const liteClient = (options: ConstructorParameters<typeof InvoicingLiteClient>[0] = {}) =>
    new InvoicingLiteClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off', ...options });

  it('files an invoice through the service with create, validate, sign and submit', async () => {
    const client = liteClient();
    const draft = await client.invoices.create(input(sandbox.businessId));
    expect(draft.status).toBe('DRAFT');
    await client.invoices.validate(draft.id);
    await client.invoices.sign(draft.id);
    expect((await client.invoices.submit(draft.id)).status).toBe('SUBMITTED');
    expect((await client.invoices.retrieve(draft.id)).id).toBe(draft.id);
    const ids = [];
    for await (const invoice of client.invoices.list()) ids.push(invoice.id);
    expect(ids).toEqual([draft.id]);
    expect(sandbox.invoices.get(draft.id)?.submissions).toBe(1);
  });

  it('sends without local checks by default, so the service answers a bad line', async () => {
    const client = liteClient();
    const bad = input(sandbox.businessId, { lines: [{ description: 'Widget', quantity: 1, unitPrice: 10, taxRate: 7.5, hsnCode: '0000.00' }] });
    await expect(client.invoices.create(bad)).rejects.toMatchObject({ name: 'BadRequestError', status: 400 });
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('runs the checks given as the checkInvoice option and refuses before sending anything', async () => {
    const client = liteClient({ checkInvoice });
    const bad = input(sandbox.businessId, { lines: [] });
    const error = await client.invoices.create(bad).catch((e: unknown) => e);
    expect(isInvoiceCheckError(error)).toBe(true);
    expect(sandbox.requests).toEqual([]);
    // skipChecks still skips them.
    await expect(client.invoices.create(bad, { skipChecks: true })).rejects.toMatchObject({ status: 400 });
    expect(sandbox.requests).toHaveLength(1);
  });

  it('sends a transition once and reads the invoice back after a dropped answer', async () => {
    const client = liteClient();
    const draft = await client.invoices.create(input(sandbox.businessId));
    await client.invoices.validate(draft.id);
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-after' });
    expect((await client.invoices.sign(draft.id)).status).toBe('SIGNED');
    const signs = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/sign'));
    expect(signs).toHaveLength(1);
  });

  it('is the base of InvoicingClient, which always checks and adds apiKeys, codes and the filing workflow', async () => {
    const full = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off' });
    expect(full).toBeInstanceOf(InvoicingLiteClient);
    expect(typeof full.invoices.createAndFile).toBe('function');
    expect(full.apiKeys).toBeDefined();
    const client = liteClient();
    expect('createAndFile' in client.invoices).toBe(false);
    expect('waitFor' in client.invoices).toBe(false);
    expect('apiKeys' in client).toBe(false);
    // A JavaScript caller cannot turn the full client's checks off through the lite option.
    const unchecked = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off', ...{ checkInvoice: () => ({ ok: true, errors: [], warnings: [] }) } });
    await expect(unchecked.invoices.create(input(sandbox.businessId, { lines: [] }))).rejects.toMatchObject({ name: 'InvoiceCheckError' });
    expect(sandbox.requests).toEqual([]);
  });

  it('keeps its class and its checks through withOptions, and shows no secret', () => {
    const client = liteClient({ checkInvoice });
    const patient = client.withOptions({ timeout: 60_000 });
    expect(patient).toBeInstanceOf(InvoicingLiteClient);
    expect(patient.timeout).toBe(60_000);
    const full = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey }).withOptions({ maxRetries: 0 });
    expect(full).toBeInstanceOf(InvoicingClient);
    expect(full.maxRetries).toBe(0);
    const shown = [inspect(client), JSON.stringify(client), String(client)].join('\n');
    expect(shown).toContain('InvoicingLiteClient {');
    expect(inspect(full)).toContain('InvoicingClient {');
    expect(shown).not.toContain(sandbox.apiKey);
  });

  it('exports from invoicing-sdk/lite neither the checks, the filing workflow nor key derivation', () => {
    expect(lite.InvoicingLiteClient).toBe(InvoicingLiteClient);
    // deriveIdempotencyKey (UUID v5 and SHA-1) comes from 'invoicing-sdk', so a lite bundle without it stays small.
    for (const name of ['checkInvoice', 'InvoicingClient', 'Invoices', 'deriveIdempotencyKey']) expect(Object.keys(lite)).not.toContain(name);
    expect(Object.keys(lite)).toEqual(expect.arrayContaining(['normalizeStatus', 'isAPIError', 'NotFoundError', 'LiteInvoices']));
  });
});
