/**
 * Redirects are never followed: a 3xx, a browser's opaque redirect, or a custom fetch that followed
 * one anyway is an APIError, never retried, and no credential or body goes where the Location says.
 * Redirects to another origin over real sockets are in transport-loopback.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type APIError, isAPIError } from '../../src/core/errors.js';
import {
  API,
  API_KEY,
  BASE_URL,
  SESSION_TOKEN,
  VALID_INPUT,
  envelope,
  http,
  HttpResponse,
  invoiceRecord,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

async function failure(run: Promise<unknown>): Promise<APIError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAPIError(error), String(error)).toBe(true);
  return error as APIError;
}

/** A response as a custom fetch might hand it back, with fields a Response cannot be built with. */
function alteredResponse(fields: Record<string, unknown>, status = 200): Response {
  const response = HttpResponse.json(envelope(invoiceRecord({ id: 'inv_elsewhere' })), { status });
  for (const [name, value] of Object.entries(fields)) Object.defineProperty(response, name, { value });
  return response;
}

describe('core/transport redirects', () => {
  it('refuses a 302 answering create instead of resolving with the invoice it points to', async () => {
    let posts = 0;
    let followed = 0;
    server.use(
      http.post(`${API}/invoices`, () => {
        posts += 1;
        return new HttpResponse(null, { status: 302, headers: { location: '/api/v1/invoices/inv_other' } });
      }),
      http.get(`${API}/invoices/inv_other`, () => {
        followed += 1;
        return HttpResponse.json(envelope(invoiceRecord({ id: 'inv_other', status: 'Submitted' })));
      }),
    );
    const error = await failure(testClient().invoices.create(VALID_INPUT));
    expect(error.status).toBe(302);
    expect(error.message).toContain('302');
    expect(error.message).toContain(`${API}/invoices/inv_other`);
    expect(error.hint).toContain('never follows redirects');
    expect(error.hint).toContain(`baseUrl (${BASE_URL})`);
    expect(followed).toBe(0);
    expect(posts).toBe(1); // not retried, although create carries an idempotency key
  });

  it('never sends the session token to a service route a key-management call is redirected to', async () => {
    const bearers: (string | null)[] = [];
    server.use(
      http.get(`${API}/api-key`, () => new HttpResponse(null, { status: 308, headers: { location: '/api/v1/invoices' } })),
      http.get(`${API}/invoices`, ({ request }) => {
        bearers.push(request.headers.get('authorization'));
        return HttpResponse.json(envelope([]));
      }),
    );
    const error = await failure(testClient().apiKeys.list());
    expect(error.status).toBe(308);
    expect(bearers).toEqual([]);
  });

  it.each([301, 303, 307])('refuses a %i on a read, without retrying', async (status) => {
    let requests = 0;
    server.use(
      http.get(`${API}/invoices/inv_1`, () => {
        requests += 1;
        return new HttpResponse('Moved', { status, headers: { location: `${API}/invoices/inv_2` } });
      }),
      http.get(`${API}/invoices/inv_2`, () => HttpResponse.json(envelope(invoiceRecord({ id: 'inv_2' })))),
    );
    const error = await failure(testClient({ maxRetries: 2 }).invoices.retrieve('inv_1'));
    expect(error).toMatchObject({ status, method: 'GET', path: '/api/v1/invoices/inv_1' });
    expect(requests).toBe(1);
  });

  it('shows the Location without user info, query or fragment', async () => {
    server.use(
      http.get(
        `${API}/invoices/inv_1`,
        () =>
          new HttpResponse(null, {
            status: 301,
            headers: { location: `https://user:pw123456@other.test/login?token=tok_unregistered_0123456789&key=${API_KEY}#x` },
          }),
      ),
    );
    const error = await failure(testClient().invoices.retrieve('inv_1'));
    expect(error.message).toContain('https://other.test/login');
    expect(error.message).not.toMatch(/pw123456|tok_unregistered|token=|#x/);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  it('asks fetch not to follow redirects', async () => {
    const modes: (RequestRedirect | undefined)[] = [];
    const client = testClient({
      // ky hands fetch a Request that carries the mode (and no init of its own for it).
      fetch: async (input, init) => {
        modes.push(input instanceof Request ? input.redirect : init?.redirect);
        return HttpResponse.json(envelope(invoiceRecord()));
      },
    });
    await client.invoices.retrieve('inv_1');
    await client.invoices.create(VALID_INPUT);
    expect(modes).toEqual(['manual', 'manual']);
  });

  it('refuses the answer of a custom fetch that followed a redirect anyway', async () => {
    const client = testClient({
      maxRetries: 2,
      fetch: async () => alteredResponse({ redirected: true, url: 'https://elsewhere.test/api/v1/invoices/inv_elsewhere' }),
    });
    const error = await failure(client.invoices.retrieve('inv_1'));
    expect(error.message).toContain('Redirect refused: 200 to https://elsewhere.test/api/v1/invoices/inv_elsewhere');
    expect(error.hint).toContain('nor should a custom fetch');
  });

  it('refuses a browser’s opaque redirect (status 0)', async () => {
    let calls = 0;
    const client = testClient({
      fetch: async () => {
        calls += 1;
        return alteredResponse({ status: 0, type: 'opaqueredirect' });
      },
    });
    const error = await failure(client.invoices.retrieve('inv_1'));
    expect(error.status).toBe(0);
    expect(error.message).toContain('Redirect refused: opaque (GET /api/v1/invoices/inv_1)');
    expect(error.hint).toContain('never follows redirects');
    expect(calls).toBe(1);
  });

  it('keeps secrets out of a redirect error', async () => {
    server.use(
      http.get(`${API}/api-key`, () =>
        HttpResponse.json({ message: `moved, token ${SESSION_TOKEN}` }, { status: 307, headers: { location: `/${SESSION_TOKEN}` } }),
      ),
    );
    const error = await failure(testClient().apiKeys.list());
    for (const text of [error.message, error.hint ?? '', JSON.stringify(error), String(error)]) {
      expect(text).not.toContain(SESSION_TOKEN);
    }
  });
});
