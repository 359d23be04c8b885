import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  isAuthenticationError,
  isInternalServerError,
  isInvalidResponseError,
  isInvoicingError,
} from '../../src/core/errors.js';
import type { APIKeyCreateParams } from '../../src/model/api-key.js';
import { API, API_KEY, SESSION_TOKEN, envelope, http, HttpResponse, recordingLogger, testClient, useMswServer } from '../core/support.js';

const server = useMswServer();

/** Counts every request to the key routes and records the headers. */
function serveKeys() {
  const seen: { method: string; path: string; headers: Headers; body: unknown }[] = [];
  const record = async (request: Request) => {
    const text = await request.text();
    seen.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers, body: text ? JSON.parse(text) : undefined });
  };
  server.use(
    http.post(`${API}/api-key`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(envelope({ id: 'key_2', name: 'server', type: 'LIVE', keyableType: 'USER', scopes: ['*'], key: 'sk_live_created_abcdef123' }), { status: 201 });
    }),
    http.get(`${API}/api-key`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(envelope([{ id: 'key_1', name: 'old', scopes: ['invoices:read'] }, { _id: 'key_2', name: 'server' }]));
    }),
    http.get(`${API}/api-key/:id`, async ({ request, params }) => {
      await record(request);
      return HttpResponse.json(envelope({ id: params.id, name: 'server', createdAt: '2026-11-01T00:00:00Z' }));
    }),
    http.get(`${API}/api-key/:id/reveal`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(envelope('sk_live_revealed_abcdef123'));
    }),
    http.delete(`${API}/api-key/:id`, async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return seen;
}

const params: APIKeyCreateParams = { name: 'server', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'] };

describe('resources/api-keys', () => {
  it('creates a key with explicit scopes and returns the secret', async () => {
    const seen = serveKeys();
    const created = await testClient().apiKeys.create(params);
    expect(created).toMatchObject({ id: 'key_2', key: 'sk_live_created_abcdef123', keyableType: 'USER', scopes: ['*'] });
    expect(seen[0]?.body).toEqual({ name: 'server', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'] });
  });

  it('sends every call with Authorization: Bearer and never X-API-Key', async () => {
    const seen = serveKeys();
    const client = testClient();
    await client.apiKeys.create({ ...params, scopes: ['*'] });
    await client.apiKeys.list();
    await client.apiKeys.retrieve('key_1');
    await client.apiKeys.reveal('key_1');
    await client.apiKeys.revoke('key_1');
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/v1/api-key',
      'GET /api/v1/api-key',
      'GET /api/v1/api-key/key_1',
      'GET /api/v1/api-key/key_1/reveal',
      'DELETE /api/v1/api-key/key_1',
    ]);
    for (const { headers } of seen) {
      expect(headers.get('authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
      expect(headers.get('x-api-key')).toBeNull();
    }
  });

  it('fails every call locally, before any request, without a session token', async () => {
    const seen = serveKeys();
    const client = testClient({ sessionToken: '' });
    const calls = [
      () => client.apiKeys.create(params),
      () => client.apiKeys.list(),
      () => client.apiKeys.retrieve('key_1'),
      () => client.apiKeys.reveal('key_1'),
      () => client.apiKeys.revoke('key_1'),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(isInvoicingError(error)).toBe(true);
      expect((error as Error).message).toMatch(/session token/i);
      expect((error as Error).message).toMatch(/INVOICING_SESSION_TOKEN/);
    }
    expect(seen).toHaveLength(0);
  });

  it.each([
    [{ ...params, scopes: undefined as never }, /scopes is required.*\['\*'\]/],
    [{ ...params, scopes: [] }, /must not be empty/],
    [{ ...params, scopes: [''] as never }, /scopes\[0\]: "" is not a scope: use invoices:read, invoices:write, taxauth:read, or '\*'/],
    [{ ...params, keyableType: 'BUSINESS' as const }, /requires businessId/],
    [{ ...params, name: '' }, /name is required/],
    [{ ...params, keyableType: 'ROBOT' as never }, /USER' or 'BUSINESS/],
  ])('refuses an incomplete create locally %#', async (input, message) => {
    const seen = serveKeys();
    await expect(testClient().apiKeys.create(input)).rejects.toThrow(message);
    expect(seen).toHaveLength(0);
  });

  it('sends a scope the document does not name, with a warning', async () => {
    const seen = serveKeys();
    const logger = recordingLogger();
    await testClient({ logger }).apiKeys.create({ ...params, scopes: ['invoices:read', 'reports:read'] });
    expect(seen[0]?.body).toMatchObject({ scopes: ['invoices:read', 'reports:read'] });
    expect(logger.lines.join('\n')).toContain('does not name the scope "reports:read"');
  });

  it('sends businessId for a BUSINESS key', async () => {
    const seen = serveKeys();
    await testClient().apiKeys.create({ ...params, keyableType: 'BUSINESS', businessId: 'biz_1' });
    expect(seen[0]?.body).toMatchObject({ keyableType: 'BUSINESS', businessId: 'biz_1' });
  });

  it('lists keys through id aliases and without secrets', async () => {
    serveKeys();
    const keys = await testClient().apiKeys.list();
    expect(keys.map((k) => k.id)).toEqual(['key_1', 'key_2']);
    expect(keys.every((k) => k.key === undefined)).toBe(true);
  });

  it('reveals a key sent as a bare string or in a record', async () => {
    serveKeys();
    expect((await testClient().apiKeys.reveal('key_1')).key).toBe('sk_live_revealed_abcdef123');
    server.use(http.get(`${API}/api-key/:id/reveal`, () => HttpResponse.json(envelope({ apiKey: 'sk_live_other_abcdef' }))));
    expect(await testClient().apiKeys.reveal('key_1')).toMatchObject({ id: 'key_1', key: 'sk_live_other_abcdef' });
  });

  it('fails reveal when the answer carries no secret', async () => {
    server.use(http.get(`${API}/api-key/:id/reveal`, () => HttpResponse.json(envelope({ id: 'key_1' }))));
    await expect(testClient().apiKeys.reveal('key_1')).rejects.toSatisfy(isInvalidResponseError);
  });

  it('sends create once on a 503, never retrying a create that may have gone through', async () => {
    let calls = 0;
    server.use(
      http.post(`${API}/api-key`, () => {
        calls += 1;
        return HttpResponse.json({ message: 'Service Unavailable' }, { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    const error = await testClient({ maxRetries: 3 }).apiKeys.create(params).catch((e: unknown) => e);
    expect(isInternalServerError(error)).toBe(true);
    expect(calls).toBe(1);
  });

  it('retries create on a 503 when the caller passes its own idempotencyKey', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${API}/api-key`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length === 1
          ? HttpResponse.json({ message: 'Service Unavailable' }, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json(envelope({ id: 'key_3', key: 'sk_live_created_abcdef123' }), { status: 201 });
      }),
    );
    const created = await testClient({ maxRetries: 1 }).apiKeys.create(params, { idempotencyKey: 'key-create-1' });
    expect(created.id).toBe('key_3');
    expect(keys).toEqual(['key-create-1', 'key-create-1']);
  });

  it('turns a 401 into an AuthenticationError about the session', async () => {
    server.use(http.get(`${API}/api-key`, () => HttpResponse.json({ statusCode: 401, message: 'Unauthorized' }, { status: 401 })));
    const error = await testClient().apiKeys.list().catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect((error as { hint: string }).hint).toMatch(/session token/);
  });

  it('lists the keys of every page of the listing', async () => {
    const pages: (string | null)[] = [];
    server.use(
      http.get(`${API}/api-key`, ({ request }) => {
        const page = new URL(request.url).searchParams.get('page');
        pages.push(page);
        const n = Number(page ?? '1');
        const data = n === 1 ? [{ id: 'key_1' }, { id: 'key_2' }] : [{ id: 'key_3' }];
        return HttpResponse.json(envelope(data, { meta: { total: 3, page: n, limit: 2, totalPages: 2 } }));
      }),
    );
    const keys = await testClient().apiKeys.list();
    expect(keys.map((k) => k.id)).toEqual(['key_1', 'key_2', 'key_3']);
    expect(pages).toEqual([null, '2']);
  });

  it('stops listing, with a warning, when the server ignores ?page', async () => {
    let requests = 0;
    server.use(
      http.get(`${API}/api-key`, () => {
        requests += 1;
        return HttpResponse.json(envelope([{ id: 'key_1' }], { meta: { total: 3, page: 1, limit: 1, totalPages: 3 } }));
      }),
    );
    const logger = recordingLogger();
    const keys = await testClient({ logger }).apiKeys.list();
    expect(keys.map((k) => k.id)).toEqual(['key_1']);
    expect(requests).toBe(2);
    expect(logger.lines).toEqual([expect.stringMatching(/^warn .*page 2 came back as meta\.page 1/)]);
  });

  it('keeps a created or revealed secret out of JSON.stringify and util.inspect, and readable as .key', async () => {
    serveKeys();
    server.use(http.get(`${API}/api-key/:id/reveal`, () => HttpResponse.json(envelope({ id: 'key_1', secret: 'sk_live_revealed_abcdef123' }))));
    const client = testClient();
    const created = await client.apiKeys.create(params);
    const revealed = await client.apiKeys.reveal('key_1');
    expect(created.key).toBe('sk_live_created_abcdef123');
    expect(created.raw.key).toBe('sk_live_created_abcdef123');
    expect(revealed.key).toBe('sk_live_revealed_abcdef123');
    expect(revealed.raw.secret).toBe('sk_live_revealed_abcdef123');
    for (const shown of [JSON.stringify(created), inspect(created, { depth: 5 }), JSON.stringify(revealed), inspect(revealed, { depth: 5 }), JSON.stringify({ created }), inspect([revealed.raw])]) {
      expect(shown).not.toMatch(/sk_live_(created|revealed)/);
    }
    expect(JSON.parse(JSON.stringify(created))).toMatchObject({ id: 'key_2', key: '[REDACTED]', raw: { key: '[REDACTED]', name: 'server' } });
    expect(inspect(revealed)).toMatch(/id: 'key_1'/);
  });

  it.each([
    ['a bare record', () => HttpResponse.json({ id: 'key_1', secretKey: 'sk_live_unread_abcdef123456' })],
    ['the secret as text', () => new HttpResponse('sk_live_unread_abcdef123456', { headers: { 'content-type': 'text/plain' } })],
    ['success: false quoting it', () => HttpResponse.json({ success: false, message: 'sk_live_unread_abcdef123456' })],
    ['a record under a name the SDK does not read', () => HttpResponse.json(envelope({ id: 'key_1', token: 'sk_live_unread_abcdef123456' }))],
  ])('never carries an unread secret in the error about an unreadable reveal: %s', async (_label, answer) => {
    server.use(http.get(`${API}/api-key/:id/reveal`, answer));
    const error = await testClient().apiKeys.reveal('key_1').catch((e: unknown) => e);
    expect(isInvalidResponseError(error)).toBe(true);
    const err = error as Error & { body: unknown };
    for (const shown of [err.message, String(err), JSON.stringify(err), inspect(err, { depth: 8 }), JSON.stringify(err.body)]) {
      expect(shown).not.toContain('sk_live_unread');
    }
  });

  it('says a create with an unreadable answer may have gone through, keeping only the shape of its body', async () => {
    server.use(http.post(`${API}/api-key`, () => HttpResponse.json({ id: 'key_9', apiKey: { value: 'sk_live_unread_abcdef123456' } }, { status: 201 })));
    const error = await testClient().apiKeys.create(params).catch((e: unknown) => e);
    expect(isInvalidResponseError(error)).toBe(true);
    expect((error as { hint: string }).hint).toMatch(/apiKeys\.list\(\) before creating again/);
    expect((error as { body: unknown }).body).toEqual({ id: '[REDACTED]', apiKey: { value: '[REDACTED]' } });
  });

  it('names the field of a key record it cannot read', async () => {
    server.use(http.get(`${API}/api-key`, () => HttpResponse.json(envelope([{ id: 'key_1' }, 'sk_live_bare_abcdef123456']))));
    const error = await testClient().apiKeys.list().catch((e: unknown) => e);
    expect(isInvalidResponseError(error)).toBe(true);
    expect((error as Error).message).toMatch(/The API key record at data\[1\] cannot be read: An API key record must be a JSON object/);
    expect((error as Error).message).not.toContain('sk_live_bare');
  });

  it('refuses a create that is not an object, or that names several wrong fields, listing each', async () => {
    const seen = serveKeys();
    await expect(testClient().apiKeys.create('server' as never)).rejects.toThrow(/apiKeys\.create: pass \{ name, type, keyableType, scopes \}\. Nothing was sent\./);
    await expect(testClient().apiKeys.create({ ...params, name: ' ', keyableType: 'BUSINESS' })).rejects.toThrow(
      /name: name is required.*; businessId: a BUSINESS key requires businessId/,
    );
    expect(seen).toHaveLength(0);
  });

  it('redacts a created key from the client\'s errors and logs from then on', async () => {
    serveKeys();
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json({ message: 'key sk_live_created_abcdef123 is over quota' }, { status: 400 })));
    const logger = recordingLogger();
    const client = testClient({ logger });
    await client.apiKeys.create(params);
    const error = await client.invoices.list().then((page) => page.data).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain('[REDACTED]');
    for (const shown of [String(error), JSON.stringify(error), inspect(error, { depth: 8 }), logger.lines.join('\n')]) {
      expect(shown).not.toContain('created_abcdef');
    }
  });

  describe('rotate', () => {
    it('sends X-API-Key with the created key from then on, and redacts it', async () => {
      const seen = serveKeys();
      const keys: (string | null)[] = [];
      server.use(
        http.get(`${API}/invoices`, ({ request }) => {
          keys.push(request.headers.get('x-api-key'));
          return HttpResponse.json({ message: `unknown key ${request.headers.get('x-api-key')}` }, { status: 400 });
        }),
      );
      const client = testClient();
      await client.invoices.list().then((page) => page.data).catch(() => undefined);
      const created = await client.apiKeys.rotate(params);
      expect(created.key).toBe('sk_live_created_abcdef123');
      const error = await client.invoices.list().then((page) => page.data).catch((e: unknown) => e);
      expect(keys).toEqual([API_KEY, 'sk_live_created_abcdef123']);
      expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/v1/api-key']);
      expect((error as Error).message).toBe('unknown key [REDACTED]');
    });

    it('reads the secret with reveal(id) when the create answer lacks it, and switches to it', async () => {
      serveKeys();
      const keys: (string | null)[] = [];
      server.use(
        http.post(`${API}/api-key`, () => HttpResponse.json(envelope({ id: 'key_5', name: 'server' }), { status: 201 })),
        http.get(`${API}/invoices`, ({ request }) => {
          keys.push(request.headers.get('x-api-key'));
          return HttpResponse.json(envelope([], { meta: { total: 0, page: 1, limit: 20, totalPages: 1 } }));
        }),
      );
      const client = testClient({ logger: recordingLogger() });
      const rotated = await client.apiKeys.rotate(params);
      expect(rotated).toMatchObject({ id: 'key_5', key: 'sk_live_revealed_abcdef123' });
      await client.invoices.list();
      expect(keys).toEqual(['sk_live_revealed_abcdef123']);
    });

    it('keeps the old key, and says how to finish, when the created key\'s secret cannot be read', async () => {
      const keys: (string | null)[] = [];
      server.use(
        http.post(`${API}/api-key`, () => HttpResponse.json(envelope({ id: 'key_6' }), { status: 201 })),
        http.get(`${API}/api-key/:id/reveal`, () => HttpResponse.json({ message: 'down' }, { status: 503 })),
        http.get(`${API}/invoices`, ({ request }) => {
          keys.push(request.headers.get('x-api-key'));
          return HttpResponse.json(envelope([], { meta: { total: 0, page: 1, limit: 20, totalPages: 1 } }));
        }),
      );
      const client = testClient({ logger: recordingLogger(), maxRetries: 0 });
      const error = await client.apiKeys.rotate(params).catch((e: unknown) => e);
      expect(isInvoicingError(error)).toBe(true);
      expect((error as Error).message).toBe('apiKeys.rotate: key key_6 was created, but its secret could not be read.');
      expect((error as { hint: string }).hint).toMatch(/apiKeys\.reveal\('key_6'\)/);
      expect(isInternalServerError((error as Error).cause)).toBe(true);
      await client.invoices.list();
      expect(keys).toEqual([API_KEY]);
    });

    it('warns when it switches the client to a BUSINESS key', async () => {
      serveKeys();
      const logger = recordingLogger();
      await testClient({ logger }).apiKeys.rotate({ ...params, keyableType: 'BUSINESS', businessId: 'biz_1' });
      expect(logger.lines).toEqual([expect.stringMatching(/^warn \[invoicing-sdk\] apiKeys\.rotate: this client now uses a BUSINESS key/)]);
    });
  });
});
