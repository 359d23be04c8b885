/**
 * Header values that cannot or must not be sent are refused locally, before any request, with an
 * InvoicingError that says what is wrong (never an APIConnectionError, never retried): the caller's
 * idempotency key and per-call headers. Credentials are checked at construction (options.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type InvoicingError, isAPIError, isInvoicingError } from '../../src/core/errors.js';
import {
  API,
  VALID_INPUT,
  envelope,
  http,
  HttpResponse,
  invoiceRecord,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

/** Counts the requests that reach the service. */
function countRequests(): { count: number } {
  const seen = { count: 0 };
  server.use(
    http.all(`${API}/*`, () => {
      seen.count += 1;
      return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
    }),
  );
  return seen;
}

/** The local refusal `run` ends with: an InvoicingError that is not an APIError. */
async function refusal(run: () => Promise<unknown>): Promise<InvoicingError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isInvoicingError(error), String(error)).toBe(true);
  expect(isAPIError(error), String(error)).toBe(false);
  return error as InvoicingError;
}

describe('core/transport idempotency keys', () => {
  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['a line break', 'order-42\nx'],
    ['a carriage return', 'order-42\r'],
    ['a NUL', 'order\u000042'],
    ['a tab', 'order\t42'],
    ['a DEL', 'order\u007f42'],
    ['a non-ASCII character', 'commande-é'],
    ['a character beyond Latin-1', 'ключ-42'],
  ])('refuses a key that is %s, sending nothing', async (_name, key) => {
    const seen = countRequests();
    const error = await refusal(() => testClient().invoices.create(VALID_INPUT, { idempotencyKey: key }));
    expect(error.message).toContain('idempotencyKey must be non-blank printable ASCII, no line breaks; got');
    expect(error.hint).toContain('deriveIdempotencyKey(businessId, externalRef)');
    expect(seen.count).toBe(0);
  });

  it('refuses a key that is not a string', async () => {
    const seen = countRequests();
    const error = await refusal(() =>
      testClient().invoices.create(VALID_INPUT, { idempotencyKey: 42 as unknown as string }),
    );
    expect(error.message).toContain('got number');
    expect(seen.count).toBe(0);
  });

  it('sends a key of printable ASCII as given', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${API}/invoices`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
      }),
    );
    await testClient().invoices.create(VALID_INPUT, { idempotencyKey: 'order 42/a:b' });
    expect(keys).toEqual(['order 42/a:b']);
  });
});

describe('core/transport per-call headers', () => {
  it('refuses a value with a line break, naming the header, sending nothing and retrying nothing', async () => {
    const seen = countRequests();
    const error = await refusal(() =>
      testClient({ maxRetries: 2 }).invoices.retrieve('inv_1', { headers: { 'X-Trace': 'a\nb' } }),
    );
    expect(error.message).toContain('Header "X-Trace" cannot be sent');
    expect(error.message).toContain('line break');
    expect(seen.count).toBe(0);
  });

  it('never quotes the refused value, which may be a secret', async () => {
    countRequests();
    const value = 'tok_unregistered_0123456789\r\n';
    const error = await refusal(() => testClient().invoices.retrieve('inv_1', { headers: { 'x-upstream-token': value } }));
    for (const text of [error.message, error.hint ?? '', JSON.stringify(error), String(error)]) {
      expect(text).not.toContain('tok_unregistered');
    }
  });

  it.each([
    ['a control character', 'a\u0001b'],
    ['a character beyond Latin-1', 'ключ'],
  ])('refuses a value with %s', async (_name, value) => {
    const seen = countRequests();
    await refusal(() => testClient().invoices.retrieve('inv_1', { headers: { 'x-trace': value } }));
    expect(seen.count).toBe(0);
  });

  it('refuses an invalid header name', async () => {
    const seen = countRequests();
    const error = await refusal(() => testClient().invoices.retrieve('inv_1', { headers: { 'x trace': '1' } }));
    expect(error.message).toContain('Header "x trace" cannot be sent: bad name');
    expect(seen.count).toBe(0);
  });

  it('sends ordinary values, Latin-1 and tabs included', async () => {
    const traces: (string | null)[] = [];
    server.use(
      http.get(`${API}/invoices/inv_1`, ({ request }) => {
        traces.push(request.headers.get('x-trace'));
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
    );
    await testClient().invoices.retrieve('inv_1', { headers: { 'x-trace': 'a\tb c' } });
    expect(traces).toEqual(['a\tb c']);
  });
});
