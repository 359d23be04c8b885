import { describe, expect, it } from 'vitest';
import { isAPIUserAbortError, isInvalidResponseError } from '../../src/core/errors.js';
import { API, API_KEY, envelope, http, HttpResponse, testClient, useMswServer } from '../core/support.js';

const server = useMswServer();

function serve(path: string, body: () => unknown, status = 200) {
  const requests: URL[] = [];
  server.use(
    http.get(`${API}${path}`, ({ request }) => {
      requests.push(new URL(request.url));
      return HttpResponse.json(body() as never, { status });
    }),
  );
  return requests;
}

describe('resources/codes', () => {
  it.each([
    ['strings', ['8471.30', ' 0101.21 '], [{ code: '8471.30' }, { code: '0101.21' }]],
    ['objects with code and description', [{ code: '8471.30', description: 'Laptops' }], [{ code: '8471.30', description: 'Laptops' }]],
    ['hsCode and title', [{ hsCode: '8471.30', title: 'Laptops' }], [{ code: '8471.30', description: 'Laptops' }]],
    ['hsnCode', [{ hsnCode: '8471.30' }], [{ code: '8471.30' }]],
    ['numbers, restoring the trailing zero', [8471.3, { hsCode: 101.21 }], [{ code: '8471.30' }, { code: '0101.21' }]],
    ['an object holding the list', { items: [{ code: '8471.30' }] }, [{ code: '8471.30' }]],
    ['a code → title map', { '8471.30': 'Laptops' }, [{ code: '8471.30', description: 'Laptops' }]],
  ])('normalises HS codes given as %s', async (_label, data, expected) => {
    serve('/taxauth/hs-codes', () => envelope(data));
    expect(await testClient().codes.hsCodes()).toEqual(expected);
  });

  it('normalises ISIC codes, restoring leading zeros of numbers', async () => {
    serve('/taxauth/service-codes', () => envelope([{ isicCode: '6202', name: 'Computer consultancy' }, { isicCode: 111 }, 6201]));
    expect(await testClient().codes.serviceCodes()).toEqual([
      { code: '6202', description: 'Computer consultancy' },
      { code: '0111' },
      { code: '6201' },
    ]);
  });

  it('accepts a bare list without the envelope', async () => {
    serve('/taxauth/service-codes', () => ['6202']);
    expect(await testClient().codes.serviceCodes()).toEqual([{ code: '6202' }]);
  });

  it('skips entries without a code', async () => {
    serve('/taxauth/hs-codes', () => envelope([{ description: 'orphan' }, { code: '8471.30' }, null]));
    expect(await testClient().codes.hsCodes()).toEqual([{ code: '8471.30' }]);
  });

  it('rejects an answer with no list', async () => {
    serve('/taxauth/hs-codes', () => envelope({ count: 3 }));
    await expect(testClient().codes.hsCodes()).rejects.toSatisfy(isInvalidResponseError);
  });

  it('caches a lookup in memory, per query', async () => {
    const requests = serve('/taxauth/hs-codes', () => envelope(['8471.30']));
    const client = testClient();
    await client.codes.hsCodes();
    await client.codes.hsCodes();
    await Promise.all([client.codes.hsCodes({ search: 'lap' }), client.codes.hsCodes({ search: 'lap' })]);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.searchParams.get('search')).toBe('lap');
  });

  it('fetches again when asked to refresh, and after the TTL', async () => {
    let version = 1;
    const requests = serve('/taxauth/hs-codes', () => envelope([`${version}000.00`]));
    const client = testClient({ codesCacheTtl: 60_000 });
    expect(await client.codes.hsCodes()).toEqual([{ code: '1000.00' }]);
    version = 2;
    expect(await client.codes.hsCodes()).toEqual([{ code: '1000.00' }]);
    expect(await client.codes.hsCodes({ refresh: true })).toEqual([{ code: '2000.00' }]);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.searchParams.has('refresh')).toBe(false);
    client.codes.clearCache();
    version = 3;
    expect(await client.codes.hsCodes()).toEqual([{ code: '3000.00' }]);
  });

  it('expires entries by the TTL', async () => {
    const requests = serve('/taxauth/hs-codes', () => envelope(['8471.30']));
    const client = testClient({ codesCacheTtl: 1 });
    await client.codes.hsCodes();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await client.codes.hsCodes();
    expect(requests).toHaveLength(2);
  });

  it('does not remember a failure', async () => {
    let fail = true;
    server.use(
      http.get(`${API}/taxauth/service-codes`, () =>
        fail ? HttpResponse.json({ message: 'nope' }, { status: 400 }) : HttpResponse.json(envelope(['6202'])),
      ),
    );
    const client = testClient();
    await expect(client.codes.serviceCodes()).rejects.toThrow('nope');
    fail = false;
    expect(await client.codes.serviceCodes()).toEqual([{ code: '6202' }]);
  });

  it('follows listing pages by meta.totalPages', async () => {
    const requests = serve('/taxauth/service-codes', () => {
      const page = requests.length;
      return envelope([`620${page}`], { meta: { total: 2, page, limit: 1, totalPages: 2 } });
    });
    expect(await testClient().codes.serviceCodes()).toEqual([{ code: '6201' }, { code: '6202' }]);
    expect(requests).toHaveLength(2);
  });

  it('authenticates with the API key', async () => {
    let key: string | null = null;
    server.use(
      http.get(`${API}/taxauth/hs-codes`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return HttpResponse.json(envelope([]));
      }),
    );
    await testClient().codes.hsCodes();
    expect(key).toBe(API_KEY);
  });

  it('serves each caller its own copy, so changing one answer leaves the cache intact', async () => {
    const requests = serve('/taxauth/hs-codes', () => envelope([{ code: '8471.30', description: 'Laptops' }, '0101.21']));
    const client = testClient();
    const first = await client.codes.hsCodes();
    first.length = 1;
    (first[0] as { description?: string }).description = 'edited';
    expect(await client.codes.hsCodes()).toEqual([{ code: '8471.30', description: 'Laptops' }, { code: '0101.21' }]);
    expect(requests).toHaveLength(1);
  });

  it('keeps a repeated parameter apart from the same values joined by commas', async () => {
    const requests = serve('/taxauth/hs-codes', () => envelope([requests.at(-1)?.search ?? '']));
    const client = testClient();
    const repeated = await client.codes.hsCodes({ q: ['84', '85'] });
    const joined = await client.codes.hsCodes({ q: '84,85' });
    expect(requests.map((u) => u.searchParams.getAll('q'))).toEqual([['84', '85'], ['84,85']]);
    expect(repeated).not.toEqual(joined);
  });

  it('fails only the caller whose signal aborts, not another waiting on the same lookup', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let requests = 0;
    server.use(
      http.get(`${API}/taxauth/service-codes`, async () => {
        requests += 1;
        arrived();
        await held;
        return HttpResponse.json(envelope(['6202']));
      }),
    );
    const client = testClient();
    const controller = new AbortController();
    const aborted = client.codes.serviceCodes({}, { signal: controller.signal });
    const patient = client.codes.serviceCodes();
    await requested;
    controller.abort();
    await expect(aborted).rejects.toSatisfy(isAPIUserAbortError);
    release();
    expect(await patient).toEqual([{ code: '6202' }]);
    expect(requests).toBe(1);
  });

  it('stops a shared lookup once every caller waiting on it has aborted, and remembers nothing', async () => {
    let requests = 0;
    let arrived: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.use(
      http.get(`${API}/taxauth/service-codes`, async ({ request }) => {
        requests += 1;
        // The first request is answered only once the SDK gives it up.
        if (requests === 1) {
          arrived();
          await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
        }
        return HttpResponse.json(envelope(['6202']));
      }),
    );
    const client = testClient();
    const a = new AbortController();
    const b = new AbortController();
    const first = client.codes.serviceCodes({}, { signal: a.signal });
    const second = client.codes.serviceCodes({}, { signal: b.signal });
    await requested;
    a.abort();
    b.abort();
    await expect(first).rejects.toSatisfy(isAPIUserAbortError);
    await expect(second).rejects.toSatisfy(isAPIUserAbortError);
    expect(await client.codes.serviceCodes()).toEqual([{ code: '6202' }]);
    expect(requests).toBe(2);
  });

  it('names where the entries are and what is wrong when none of them can be read', async () => {
    server.use(http.get(`${API}/taxauth/hs-codes`, () => HttpResponse.json(envelope({ items: [{ title: 'Portable computers' }, true] }))));
    const error = await testClient().codes.hsCodes().catch((e: unknown) => e);
    expect(isInvalidResponseError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^The code lookup answered 2 entries and none has a readable code \(data\.items\[0\]\.code: No readable code/);
  });

  it('reads entries with HsCodeSchema and ServiceCodeSchema: numbers get their zeros back', async () => {
    server.use(
      http.get(`${API}/taxauth/hs-codes`, () => HttpResponse.json(envelope([{ hsCode: 8471.3, title: 'Portable computers' }, 901.2]))),
      http.get(`${API}/taxauth/service-codes`, () => HttpResponse.json([{ isicCode: 111 }])),
    );
    const client = testClient();
    expect(await client.codes.hsCodes()).toEqual([{ code: '8471.30', description: 'Portable computers' }, { code: '0901.20' }]);
    expect(await client.codes.serviceCodes()).toEqual([{ code: '0111' }]);
  });
});
