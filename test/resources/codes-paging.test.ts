/**
 * The code lookups over several pages, also from servers that do not page as the document says.
 * The handler refuses after a few dozen requests, so a lookup that would loop fails instead of hanging.
 */
import { describe, expect, it } from 'vitest';
import { API, envelope, http, HttpResponse, recordingLogger, testClient, useMswServer } from '../core/support.js';

const server = useMswServer();
const REFUSE_AFTER = 40;

/** HS codes `0101.0<n>`, two a page; `meta(asked)` is what the server says about the page asked for. */
function serveCodes(total: number, meta: (asked: number) => Record<string, unknown>, data?: (asked: number) => unknown[]) {
  const requests: URL[] = [];
  server.use(
    http.get(`${API}/taxauth/hs-codes`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      if (requests.length > REFUSE_AFTER) return HttpResponse.json({ message: 'runaway lookup' }, { status: 418 });
      const asked = Number(url.searchParams.get('page') ?? '1');
      const codes = Array.from({ length: total }, (_, i) => ({ code: `0101.0${i + 1}` })).slice((asked - 1) * 2, asked * 2);
      return HttpResponse.json(envelope(data?.(asked) ?? codes, { meta: meta(asked) }));
    }),
  );
  return requests;
}

async function lookup() {
  const logger = recordingLogger();
  const codes = await testClient({ logger, maxRetries: 0 }).codes.hsCodes();
  return { codes: codes.map((c) => c.code), warnings: logger.lines.filter((line) => line.startsWith('warn')) };
}

describe('resources/codes (pages)', () => {
  it('reads every page of a well-formed listing, without a warning', async () => {
    const requests = serveCodes(5, (asked) => ({ total: 5, page: asked, limit: 2, totalPages: 3 }));
    const { codes, warnings } = await lookup();
    expect(codes).toEqual(['0101.01', '0101.02', '0101.03', '0101.04', '0101.05']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(warnings).toEqual([]);
  });

  it('resolves, with the first page and a warning, when the server ignores ?page', async () => {
    const requests = serveCodes(6, () => ({ total: 6, page: 1, limit: 2, totalPages: 3 }), () => [{ code: '0101.21' }]);
    const { codes, warnings } = await lookup();
    expect(codes).toEqual(['0101.21']);
    expect(requests).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/hs-codes: page 2 came back as meta\.page 1/)]);
  });

  it('reads every page when the server counts meta.page from 0', async () => {
    const requests = serveCodes(5, (asked) => ({ total: 5, page: asked - 1, limit: 2, totalPages: 3 }));
    const { codes, warnings } = await lookup();
    expect(codes).toHaveLength(5);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(warnings).toEqual([]);
  });

  it('stops at the first empty page although totalPages says a million', async () => {
    const requests = serveCodes(2, (asked) => ({ total: 2, page: asked, limit: 2, totalPages: 1_000_000 }));
    const { codes, warnings } = await lookup();
    expect(codes).toEqual(['0101.01', '0101.02']);
    expect(requests).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/page 2 came back empty/)]);
  });

  it('continues from the page the caller asked for', async () => {
    const requests = serveCodes(6, (asked) => ({ total: 6, page: asked, limit: 2, totalPages: 3 }));
    const codes = await testClient().codes.hsCodes({ page: 2 });
    expect(codes.map((c) => c.code)).toEqual(['0101.03', '0101.04', '0101.05', '0101.06']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual(['2', '3']);
  });
});
