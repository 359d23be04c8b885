/**
 * Where a client is at hand, the service's own code lists decide (classification rule 7): a code the
 * bundled tables lack is sent when the service lists it and refused when it does not; lists that
 * cannot be read leave the offline warning. And what create() puts on the wire: decimal strings as
 * the JSON numbers of the same digits, and no totals (the service does not read them).
 */
import { describe, expect, it } from 'vitest';
import { isInvoiceCheckError, type InvoiceCheckError } from '../../src/core/errors.js';
import type { InvoiceCreateParams } from '../../src/model/invoice-input.js';
import { API, envelope, http, HttpResponse, invoiceRecord, testClient, useMswServer, VALID_INPUT } from '../core/support.js';

const server = useMswServer();

/** Serves the code lists and answers every create, keeping each body's text and counting lookups. */
function service(lists: { hs?: string[] | 'fail'; isic?: string[] | 'fail' }) {
  const bodies: string[] = [];
  const lookups = { hs: 0, isic: 0 };
  const answer = (list: string[] | 'fail' | undefined) =>
    list === 'fail' ? HttpResponse.json({ message: 'down' }, { status: 400 }) : HttpResponse.json(envelope((list ?? []).map((code) => ({ code, description: code }))));
  server.use(
    http.get(`${API}/taxauth/hs-codes`, () => (lookups.hs++, answer(lists.hs))),
    http.get(`${API}/taxauth/service-codes`, () => (lookups.isic++, answer(lists.isic))),
    http.post(`${API}/invoices`, async ({ request }) => {
      bodies.push(await request.text());
      return HttpResponse.json(envelope(invoiceRecord({ id: 'inv_9' })), { status: 201 });
    }),
  );
  return { bodies, lookups };
}

const withLine = (patch: Record<string, unknown>): InvoiceCreateParams => ({ ...VALID_INPUT, lines: [{ ...VALID_INPUT.lines[0], ...patch }] }) as InvoiceCreateParams;
const good = (hsnCode: string) => withLine({ isicCode: undefined, hsnCode });

describe('invoices.create with the service code lists', () => {
  it('sends a code outside the bundled tables that the service lists, reading each list once per client', async () => {
    const { bodies, lookups } = service({ hs: ['9999.99', '8471.30'], isic: ['9999'] });
    const client = testClient();
    await client.invoices.create(good('9999.99'));
    await client.invoices.create(withLine({ isicCode: '9999' }));
    await client.invoices.create(good('9999.99'));
    expect(bodies).toHaveLength(3);
    expect(lookups).toEqual({ hs: 1, isic: 1 });
  });

  it('does not ask the service when the bundled tables decide, or when the invoice fails for something else', async () => {
    const { lookups } = service({ hs: ['8471.30'] });
    const client = testClient();
    await client.invoices.create(good('8471.30'));
    const err = await client.invoices.create(withLine({ isicCode: undefined, hsnCode: '9999.99', taxRate: 0.075 })).catch((e: unknown) => e);
    expect(isInvoiceCheckError(err)).toBe(true);
    expect(lookups).toEqual({ hs: 0, isic: 0 });
  });

  it('refuses a code the service does not list, sending nothing', async () => {
    const { bodies } = service({ hs: ['8471.30'], isic: ['6202'] });
    const client = testClient();
    const err = (await client.invoices.create(good('9999.99')).catch((e: unknown) => e)) as InvoiceCheckError;
    expect(isInvoiceCheckError(err)).toBe(true);
    expect(err.report.errors.map((i) => i.code)).toEqual(['HSN_CODE_NOT_LISTED']);
    const isic = (await client.invoices.create(withLine({ isicCode: '9999' })).catch((e: unknown) => e)) as InvoiceCheckError;
    expect(isic.report.errors.map((i) => i.code)).toEqual(['ISIC_CODE_NOT_LISTED']);
    expect(bodies).toEqual([]);
  });

  it('files as offline (a warning) when the lists cannot be read, and tries again on the next create', async () => {
    const { bodies, lookups } = service({ hs: 'fail' });
    const client = testClient({ maxRetries: 0 });
    await client.invoices.create(good('9999.99'));
    await client.invoices.create(good('9999.99'));
    expect(bodies).toHaveLength(2);
    expect(lookups.hs).toBe(2);
    // An empty list is a body the SDK could not read, not a service that accepts no code.
    const empty = service({ hs: [] });
    await testClient().invoices.create(good('9999.99'));
    expect(empty.bodies).toHaveLength(1);
  });

  it('checks once per create: a code list given is asked once, and again only after a service list was read', async () => {
    const { bodies, lookups } = service({ isic: ['9999'] });
    const client = testClient();
    const asked: string[] = [];
    const checkOptions = { hsCodes: (code: string) => (asked.push(code), true) };
    await client.invoices.create(good('8471.30'), { checkOptions });
    expect(asked).toEqual(['8471.30']);
    asked.length = 0;
    // isicCode 9999 is not bundled: the service's list is read, and the invoice checked with it.
    const goodAndService = { ...VALID_INPUT, lines: [{ ...VALID_INPUT.lines[0], isicCode: undefined, hsnCode: '8471.30' }, { ...VALID_INPUT.lines[0], isicCode: '9999' }] };
    await client.invoices.create(goodAndService as InvoiceCreateParams, { checkOptions });
    expect(asked).toEqual(['8471.30', '8471.30']);
    expect(lookups.isic).toBe(1);
    expect(bodies).toHaveLength(2);
  });

  it('createAndFile and fileMany ask the service too', async () => {
    service({ hs: ['8471.30'] });
    const client = testClient();
    const err = await client.invoices.createAndFile(good('9999.99')).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FilingError', step: 'check', cause: { report: { errors: [{ code: 'HSN_CODE_NOT_LISTED' }] } } });
    const [result] = await client.invoices.fileMany([good('9999.99')]);
    expect(result?.ok).toBe(false);
  });
});

describe('invoices.create puts the money on the wire as written', () => {
  it('sends decimal strings as JSON numbers of the same digits, without a float round trip', async () => {
    const { bodies } = service({});
    const line = { description: 'Desk', quantity: '2', unitPrice: '850.50', taxRate: '7.5', discountRate: '0.10', isicCode: '6202' };
    await testClient().invoices.create({ ...VALID_INPUT, lines: [line, { ...line, unitPrice: '0.1000000000000000055511151231257827' }] });
    expect(bodies[0]).toContain('"quantity":2,"unitPrice":850.50,"taxRate":7.5,"discountRate":0.10,');
    expect(bodies[0]).toContain('"unitPrice":0.1000000000000000055511151231257827,');
    expect(JSON.parse(bodies[0]!).lines[0].unitPrice).toBe(850.5);
  });

  it('leaves a string that is no decimal as it is (the checks refuse it unless skipped)', async () => {
    const { bodies } = service({});
    const err = await testClient().invoices.create(withLine({ unitPrice: '1,5' })).catch((e: unknown) => e);
    expect(isInvoiceCheckError(err)).toBe(true);
    await testClient().invoices.create(withLine({ unitPrice: '1,5', description: '"x":1' }), { skipChecks: true });
    expect(JSON.parse(bodies[0]!).lines[0]).toMatchObject({ unitPrice: '1,5', description: '"x":1' });
  });

  it('compares totals in the input with the lines and does not send them', async () => {
    const { bodies } = service({});
    // 10 × 10 at 7.5 %: 100.00 + 7.50 = 107.50.
    const wrong = await testClient().invoices.create({ ...VALID_INPUT, totalAmount: '100.00' } as never).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ report: { errors: [{ code: 'TOTALS_MISMATCH', path: ['totalAmount'] }] } });
    await testClient().invoices.create({ ...VALID_INPUT, totalAmount: '107.50', tax: 7.5, lines: [{ ...VALID_INPUT.lines[0], lineTotal: 100 }] } as never);
    expect(bodies).toHaveLength(1);
    expect(JSON.parse(bodies[0]!)).toEqual(VALID_INPUT);
  });
});
