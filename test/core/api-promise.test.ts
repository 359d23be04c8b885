import { describe, expect, it } from 'vitest';
import { APIPromise } from '../../src/core/api-promise.js';
import { isNotFoundError } from '../../src/core/errors.js';
import { API, envelope, http, HttpResponse, invoiceRecord, testClient, useMswServer, VALID_INPUT } from './support.js';

const server = useMswServer();

describe('core/api-promise', () => {
  it('gives the data when awaited, and data, response and request id with withResponse()', async () => {
    server.use(
      http.get(`${API}/invoices/inv_1`, () =>
        HttpResponse.json(envelope(invoiceRecord()), { headers: { 'x-request-id': 'req_42' } }),
      ),
    );
    const client = testClient();
    const call = client.invoices.retrieve('inv_1');
    expect(call).toBeInstanceOf(APIPromise);
    expect((await call).id).toBe('inv_1');
    const { data, response, requestId } = await client.invoices.retrieve('inv_1').withResponse();
    expect(data.id).toBe('inv_1');
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_42');
    // The body of the response is still there to read.
    expect(await response.json()).toMatchObject({ success: true, data: { id: 'inv_1' } });
  });

  it('gives the raw response with asResponse(), for create, list, transitions and the key routes', async () => {
    server.use(
      http.post(`${API}/invoices`, () => HttpResponse.json(envelope(invoiceRecord()), { status: 201, headers: { 'request-id': 'req_c' } })),
      http.get(`${API}/invoices`, () => HttpResponse.json({ ...envelope([invoiceRecord()]), meta: { total: 1, page: 1, limit: 10, totalPages: 1 } })),
      http.post(`${API}/invoices/inv_1/validate`, () => HttpResponse.json(envelope(invoiceRecord({ status: 'Validated' })), { headers: { 'x-request-id': 'req_v' } })),
      http.get(`${API}/api-key`, () => HttpResponse.json(envelope([]), { headers: { 'x-request-id': 'req_k' } })),
    );
    const client = testClient();
    const created = await client.invoices.create(VALID_INPUT).asResponse();
    expect(created.status).toBe(201);
    expect(created.headers.get('request-id')).toBe('req_c');
    const page = await client.invoices.list().withResponse();
    expect(page.data.data).toHaveLength(1);
    expect(page.response.status).toBe(200);
    const validated = await client.invoices.validate('inv_1').withResponse();
    expect(validated.data.status).toBe('VALIDATED');
    expect(validated.requestId).toBe('req_v');
    expect((await client.apiKeys.list().withResponse()).requestId).toBe('req_k');
  });

  it('rejects with the SDK error, carrying the request id, through await, withResponse and asResponse', async () => {
    server.use(
      http.get(`${API}/invoices/missing`, () =>
        HttpResponse.json({ message: 'Invoice not found' }, { status: 404, headers: { 'x-request-id': 'req_404' } }),
      ),
    );
    const client = testClient();
    for (const run of [
      () => client.invoices.retrieve('missing'),
      () => client.invoices.retrieve('missing').withResponse(),
      () => client.invoices.retrieve('missing').asResponse(),
    ]) {
      const error = await Promise.resolve(run()).catch((e: unknown) => e);
      expect(isNotFoundError(error)).toBe(true);
      expect(error).toMatchObject({ status: 404, requestId: 'req_404' });
    }
  });

  it('sends once however often the result is used', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        calls += 1;
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    const call = testClient().invoices.retrieve('inv_1');
    await call;
    await call.withResponse();
    await call.asResponse();
    expect(calls).toBe(1);
  });
});
