/**
 * Every InvalidResponseError built from a response carries that response's request id
 * (`x-request-id`), method and path: what a user pastes into a support ticket. And an aborted filing
 * call names the request it interrupted, where its caller knows it.
 */
import { describe, expect, it } from 'vitest';
import { APIError, isAPIUserAbortError, isInvalidResponseError } from '../../src/core/errors.js';
import { abortReason } from '../../src/filing/clock.js';
import { InvoicingClient } from '../../src/client.js';
import { API, API_KEY, BASE_URL, envelope, http, HttpResponse, recordingLogger, testClient, useMswServer, VALID_INPUT } from '../core/support.js';

const server = useMswServer();
const REQUEST_ID = 'req_abc_123';

/** Answers `method path` with `body`, status 200 and an `x-request-id`. */
function answer(method: 'get' | 'post', path: string, body: unknown, status = 200): void {
  server.use(http[method](`${API}${path}`, () => HttpResponse.json(body as never, { status, headers: { 'x-request-id': REQUEST_ID } })));
}

const cases: Array<[string, () => void, (client: InvoicingClient) => PromiseLike<unknown>, string, string]> = [
  ['retrieve: data null', () => answer('get', '/invoices/inv_1', { success: true, data: null }), (c) => c.invoices.retrieve('inv_1'), 'GET', '/api/v1/invoices/inv_1'],
  ['retrieve: not the envelope', () => answer('get', '/invoices/inv_1', { foo: 1 }), (c) => c.invoices.retrieve('inv_1'), 'GET', '/api/v1/invoices/inv_1'],
  ['create: data a string', () => answer('post', '/invoices', envelope('inv_1'), 201), (c) => c.invoices.create(VALID_INPUT), 'POST', '/api/v1/invoices'],
  ['create: a record with no id', () => answer('post', '/invoices', envelope({ status: 'draft' }), 201), (c) => c.invoices.create(VALID_INPUT), 'POST', '/api/v1/invoices'],
  ['list: data not an array', () => answer('get', '/invoices', envelope({})), (c) => c.invoices.list(), 'GET', '/api/v1/invoices'],
  ['list: a record with no id', () => answer('get', '/invoices', envelope([{ status: 'draft' }])), (c) => c.invoices.list(), 'GET', '/api/v1/invoices'],
  ['apiKeys.list: data an object', () => answer('get', '/api-key', envelope({})), (c) => c.apiKeys.list(), 'GET', '/api/v1/api-key'],
  ['apiKeys.retrieve: data not a record', () => answer('get', '/api-key/key_1', envelope('key_1')), (c) => c.apiKeys.retrieve('key_1'), 'GET', '/api/v1/api-key/key_1'],
  ['apiKeys.reveal: no secret', () => answer('get', '/api-key/key_1/reveal', envelope({ id: 'key_1' })), (c) => c.apiKeys.reveal('key_1'), 'GET', '/api/v1/api-key/key_1/reveal'],
  ['codes: no list', () => answer('get', '/taxauth/hs-codes', envelope({ x: 1 })), (c) => c.codes.hsCodes(), 'GET', '/api/v1/taxauth/hs-codes'],
  ['codes: success false', () => answer('get', '/taxauth/hs-codes', { success: false, data: [] }), (c) => c.codes.hsCodes(), 'GET', '/api/v1/taxauth/hs-codes'],
  ['codes: no readable code', () => answer('get', '/taxauth/service-codes', envelope([{}, null])), (c) => c.codes.serviceCodes(), 'GET', '/api/v1/taxauth/service-codes'],
];

describe('resources: details of InvalidResponseError', () => {
  it.each(cases)('%s carries the request id, method and path', async (_label, serve, call, method, path) => {
    serve();
    const error = await Promise.resolve(call(testClient({ maxRetries: 0 }))).catch((e: unknown) => e);
    expect(error).toSatisfy(isInvalidResponseError);
    expect(error).toMatchObject({ requestId: REQUEST_ID, method, path, status: expect.any(Number) });
  });

  it('a listing carries them too, awaited or through withResponse()', async () => {
    answer('get', '/invoices', envelope({ items: [] }));
    const client = new InvoicingClient({ apiKey: API_KEY, baseUrl: BASE_URL, logger: recordingLogger(), maxRetries: 0 });
    for (const run of [() => client.invoices.list(), () => client.invoices.list().withResponse()]) {
      const error = await Promise.resolve(run()).catch((e: unknown) => e);
      expect(error).toSatisfy(isInvalidResponseError);
      expect(error).toMatchObject({ requestId: REQUEST_ID, method: 'GET', path: '/api/v1/invoices' });
    }
  });

  it('a transition answered without the invoice, whose read-back fails, names the transition’s request', async () => {
    answer('post', '/invoices/inv_1/validate', envelope(null));
    server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json({ message: 'down' }, { status: 503 })));
    const error = await testClient({ maxRetries: 0 }).invoices._transition('inv_1', 'validate').catch((e: unknown) => e);
    expect(error).toSatisfy(isInvalidResponseError);
    expect(error).toMatchObject({ requestId: REQUEST_ID, method: 'POST', path: '/api/v1/invoices/inv_1/validate' });
  });
});

describe('filing/clock abortReason', () => {
  const aborted = (): AbortSignal => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    return controller.signal;
  };

  it('names the call it is given', () => {
    const error = abortReason(aborted(), { method: 'POST', path: '/api/v1/invoices/inv_1/validate' });
    expect(error).toSatisfy(isAPIUserAbortError);
    expect(error).toMatchObject({ method: 'POST', path: '/api/v1/invoices/inv_1/validate' });
    expect((error.cause as Error).message).toBe('stop');
  });

  it('takes the method and path from the error the aborted request failed with', () => {
    const failed = new APIError({ message: 'Request was aborted.', method: 'POST', path: '/api/v1/invoices/inv_1/sign' });
    expect(abortReason(aborted(), failed)).toMatchObject({ method: 'POST', path: '/api/v1/invoices/inv_1/sign' });
  });

  it('still works with the signal alone, and ignores what is not a call', () => {
    expect(abortReason(aborted())).toMatchObject({ method: undefined, path: undefined });
    expect(abortReason(aborted(), new Error('x'))).toMatchObject({ method: undefined, path: undefined });
    expect(abortReason(aborted(), 'POST')).toMatchObject({ method: undefined, path: undefined });
  });
});
