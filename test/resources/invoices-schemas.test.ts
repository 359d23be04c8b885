/**
 * Responses of the invoice routes are read through the model's zod schemas: unknown fields are kept,
 * a record or listing field that cannot be read is an InvalidResponseError naming it by its path in
 * the body, and every record comes back exactly as the service sent it (typed fields and `raw`).
 */
import { describe, expect, it } from 'vitest';
import { type InvalidResponseError, isInvalidResponseError } from '../../src/core/errors.js';
import { API, API_KEY, envelope, http, HttpResponse, invoiceRecord, recordingLogger, testClient, useMswServer } from '../core/support.js';

const server = useMswServer();

async function failure(promise: PromiseLike<unknown>): Promise<InvalidResponseError> {
  const error = await Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isInvalidResponseError(error)).toBe(true);
  return error as InvalidResponseError;
}

describe('resources/invoices (schemas)', () => {
  it('keeps the fields the SDK does not know in raw', async () => {
    const record = invoiceRecord({ id: 'inv_1', irn: 'IRN-77', lines: [{ description: 'x' }], qr: { png: 'b64' } });
    server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(record, { requestedBy: 'u_1' }))));
    const invoice = await testClient().invoices.retrieve('inv_1');
    expect(invoice.raw).toEqual(record);
    expect(invoice.status).toBe('DRAFT');
  });

  it('names data.id when a created record has no readable id', async () => {
    server.use(http.post(`${API}/invoices`, () => HttpResponse.json(envelope({ ref: 'x', status: 'draft' }), { status: 201 })));
    const { VALID_INPUT } = await import('../core/support.js');
    const error = await failure(testClient().invoices.create(VALID_INPUT));
    expect(error.message).toContain('data.id');
    expect(error.status).toBe(201);
  });

  it('names data.<index>.id for the listing record that cannot be read', async () => {
    const page = [invoiceRecord({ id: 'inv_1' }), invoiceRecord({ id: 'inv_2' }), { status: 'draft' }];
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope(page, { meta: { total: 3, page: 1, limit: 10, totalPages: 1 } }))));
    const error = await failure(testClient().invoices.list());
    expect(error.message).toContain('data.2.id');
  });

  it('names data.<index> for a listing item that is not an object', async () => {
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope([invoiceRecord(), 'inv_2'], { meta: { total: 2, page: 1, limit: 10, totalPages: 1 } }))));
    const error = await failure(testClient().invoices.list());
    expect(error.message).toMatch(/data\.1 is not an invoice record/);
  });

  it.each([
    [{ total: 3, page: 1, limit: 10, totalPages: -1 }, 'meta.totalPages'],
    [{ total: 3, page: 'first', limit: 10, totalPages: 1 }, 'meta.page'],
    [{ total: 3.5, page: 1, limit: 10, totalPages: 1 }, 'meta.total'],
  ])('refuses the listing meta %j, naming %s', async (meta, field) => {
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope([invoiceRecord()], { meta }))));
    const error = await failure(testClient().invoices.list());
    expect(error.message).toContain(field);
  });

  it('still reads a listing whose counts are digits, or that carries no meta (one page, with a warning)', async () => {
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope([invoiceRecord()], { meta: { total: '1', page: '1', limit: '10' } }))));
    expect((await testClient().invoices.list()).meta).toMatchObject({ total: 1, page: 1, limit: 10, totalPages: 1 });
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope([invoiceRecord()]))));
    const logger = recordingLogger();
    const page = await testClient({ logger }).invoices.list();
    expect(page.data).toHaveLength(1);
    expect(page.hasNextPage()).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/no meta.totalPages/);
  });

  it('returns records exactly as sent, even when they quote the client’s secrets: data is never rewritten', async () => {
    const echo = { note: `called with ${API_KEY}`, nested: [{ by: API_KEY.slice(8) }] };
    server.use(
      http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(invoiceRecord({ id: 'inv_1', ...echo })))),
      http.get(`${API}/invoices`, () =>
        HttpResponse.json(envelope([invoiceRecord({ id: 'inv_2', ...echo })], { meta: { total: 1, page: 1, limit: 10, totalPages: 1 } })),
      ),
      http.post(`${API}/invoices/inv_1/validate`, () => HttpResponse.json(envelope(invoiceRecord({ id: 'inv_1', status: 'Validated', ...echo })))),
    );
    const client = testClient();
    const read = [await client.invoices.retrieve('inv_1'), ...(await client.invoices.list()).data, await client.invoices.validate('inv_1')];
    for (const invoice of read) {
      expect(invoice.raw).toMatchObject(echo);
      expect(JSON.stringify(invoice)).not.toContain('[REDACTED]');
    }
    expect(read.map((i) => i.status)).toEqual(['DRAFT', 'DRAFT', 'VALIDATED']);
  });

  it('with sessionToken sess_1, ids come back whole and the next call goes to the id as sent', async () => {
    const uuid = '3d4eeb92-1f2a-4478-9c1d-0e1b2c3d4e51';
    const paths: string[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(invoiceRecord({ id: 'inv_1', uuid, note: 'sess_1 line 1' })))),
      http.get(`${API}/invoices`, () => HttpResponse.json(envelope([invoiceRecord({ id: 'inv_1', uuid })], { meta: { total: 1, page: 1, limit: 10, totalPages: 1 } }))),
      http.post(`${API}/invoices/:id/validate`, ({ request }) => {
        paths.push(new URL(request.url).pathname);
        return HttpResponse.json(envelope(invoiceRecord({ id: 'inv_1', uuid, status: 'Validated' })));
      }),
    );
    const client = testClient({ sessionToken: 'sess_1' });
    const invoice = await client.invoices.retrieve('inv_1');
    expect(invoice.id).toBe('inv_1');
    expect(invoice.raw).toMatchObject({ id: 'inv_1', uuid, note: 'sess_1 line 1' });
    const [listed] = (await client.invoices.list()).data;
    expect(listed?.raw).toMatchObject({ id: 'inv_1', uuid });
    expect((await client.invoices.validate(invoice.id)).id).toBe('inv_1');
    expect(paths).toEqual(['/api/v1/invoices/inv_1/validate']);
  });

  it('scrubs what it renders: an error built from an unreadable record quotes no secret', async () => {
    server.use(http.get(`${API}/invoices/inv_9`, () => HttpResponse.json(envelope([`called with ${API_KEY}`]))));
    const error = await failure(testClient().invoices.retrieve('inv_9'));
    expect(JSON.stringify(error.body)).not.toContain(API_KEY.slice(8, 24));
    expect(JSON.stringify(error.body)).toContain('[REDACTED]');
  });
});
