import { describe, expect, it } from 'vitest';
import { isInvoicingError } from '../../src/core/errors.js';
import { isCredentialParam } from '../../src/core/query.js';
import { API, API_KEY, http, HttpResponse, testClient, useMswServer } from './support.js';

const server = useMswServer();

function countRequests(): { count: number } {
  const seen = { count: 0 };
  server.use(
    http.all(`${API}/*`, () => {
      seen.count += 1;
      return HttpResponse.json({ success: true, data: [] });
    }),
  );
  return seen;
}

async function refusal(run: () => PromiseLike<unknown>): Promise<Error> {
  const error = await Promise.resolve()
    .then(run)
    .catch((e: unknown) => e);
  expect(isInvoicingError(error), String(error)).toBe(true);
  return error as Error;
}

describe('core/query', () => {
  it.each(['apiKey', 'api_key', 'APIKEY', 'Api-Key', 'key', 'token', 'access_token', 'session', 'sessionToken', 'secret', 'password', 'Authorization'])(
    'calls %s a credential',
    (name) => {
      expect(isCredentialParam(name)).toBe(true);
    },
  );

  it.each(['status', 'page', 'limit', 'businessId', 'keyword', 'monkey'])('lets %s through', (name) => {
    expect(isCredentialParam(name)).toBe(false);
  });

  it('refuses a credential-named parameter in list params, per-call query, get and post, sending nothing', async () => {
    const seen = countRequests();
    const client = testClient();
    const runs: (() => PromiseLike<unknown>)[] = [
      () => client.invoices.list({ apiKey: API_KEY }),
      () => client.invoices.retrieve('inv_1', { query: { access_token: API_KEY } }),
      () => client.get('/api/v1/invoices', { query: { Token: API_KEY } }),
      () => client.post('/api/v1/reports', { body: {}, query: { password: 'x' } }),
      () => client.codes.hsCodes({ api_key: API_KEY } as never),
    ];
    for (const run of runs) {
      const error = await refusal(run);
      expect(error.message).toContain('named like a credential');
      expect(error.message).not.toContain(API_KEY);
    }
    expect(seen.count).toBe(0);
  });

  it('refuses a credential-named defaultQuery at construction', () => {
    expect(() => testClient({ defaultQuery: { sessionToken: 'abc' } })).toThrow(/defaultQuery has a parameter named like a credential \("sessionToken"\)/);
  });
});
