/**
 * Listings from servers that do not page as the document says: a `meta.page` that never advances
 * (the server ignores `?page`), one that counts from 0, empty pages under a huge `totalPages`. Each
 * handler refuses after a few dozen requests, so a walk that would loop fails here instead of hanging.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PAGES_PER_WALK, Page } from '../../src/core/pagination.js';
import { API, envelope, http, HttpResponse, invoiceRecord, recordingLogger, testClient, useMswServer } from './support.js';

const server = useMswServer();
const REFUSE_AFTER = 40;

/**
 * `total` invoices, `limit` a page, served for the page asked for; `meta(asked)` is what the server
 * says about it. Answers 418 once a walk has clearly run away.
 */
function serveListing(total: number, limit: number, meta: (asked: number) => Record<string, unknown>, data?: (asked: number) => unknown[]) {
  const requests: URL[] = [];
  server.use(
    http.get(`${API}/invoices`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      if (requests.length > REFUSE_AFTER) return HttpResponse.json({ message: 'runaway walk' }, { status: 418 });
      const asked = Number(url.searchParams.get('page') ?? '1');
      const start = (asked - 1) * limit;
      const items =
        data?.(asked) ??
        Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => invoiceRecord({ id: `inv_${start + i + 1}` }));
      return HttpResponse.json(envelope(items, { meta: meta(asked) }));
    }),
  );
  return requests;
}

async function walk(options: { limit?: number } = {}) {
  const logger = recordingLogger();
  const ids: string[] = [];
  for await (const invoice of testClient({ logger, maxRetries: 0 }).invoices.list(options)) ids.push(invoice.id);
  return { ids, warnings: logger.lines.filter((line) => line.startsWith('warn')) };
}

describe('core/pagination (servers that do not page)', () => {
  it('stops, without repeating items, when the server ignores ?page and always answers page 1', async () => {
    const requests = serveListing(6, 2, () => ({ total: 6, page: 1, limit: 2, totalPages: 3 }), () => [
      invoiceRecord({ id: 'inv_1' }),
      invoiceRecord({ id: 'inv_2' }),
    ]);
    const { ids, warnings } = await walk({ limit: 2 });
    expect(ids).toEqual(['inv_1', 'inv_2']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Listing: page 2 came back as meta\.page 1, already read \(\?page ignored\)/);
  });

  it('reads every page when the server counts meta.page from 0', async () => {
    const requests = serveListing(5, 2, (asked) => ({ total: 5, page: asked - 1, limit: 2, totalPages: 3 }));
    const { ids, warnings } = await walk({ limit: 2 });
    expect(ids).toEqual(['inv_1', 'inv_2', 'inv_3', 'inv_4', 'inv_5']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(warnings).toEqual([]);
  });

  it('asks for the next page by its own count, not by an echo that stays behind', async () => {
    serveListing(5, 2, (asked) => ({ total: 5, page: asked - 1, limit: 2, totalPages: 3 }));
    const page = await testClient().invoices.list({ limit: 2 });
    expect(page.pageNumber).toBe(1);
    const second = await page.getNextPage();
    expect(second.pageNumber).toBe(2);
    expect(second.data.map((i) => i.id)).toEqual(['inv_3', 'inv_4']);
  });

  it('stops at the first empty page although totalPages says a million', async () => {
    const requests = serveListing(1, 2, (asked) => ({ total: 1, page: asked, limit: 2, totalPages: 1_000_000 }));
    const { ids, warnings } = await walk({ limit: 2 });
    expect(ids).toEqual(['inv_1']);
    expect(requests).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/page 2 came back empty \(meta\.totalPages 1000000\)/);
  });

  it('keeps a well-formed listing exactly as before: every page, in order, no warning', async () => {
    const requests = serveListing(7, 3, (asked) => ({ total: 7, page: asked, limit: 3, totalPages: 3 }));
    const { ids, warnings } = await walk({ limit: 3 });
    expect(ids).toEqual(['inv_1', 'inv_2', 'inv_3', 'inv_4', 'inv_5', 'inv_6', 'inv_7']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(warnings).toEqual([]);
  });

  it('reads a last page the server numbers as a repeat as the end, with a warning', async () => {
    // Page 2 of 2 says it is page 1 again: by the server's own account its items were read already.
    serveListing(4, 2, () => ({ total: 4, page: 1, limit: 2, totalPages: 2 }), () => [invoiceRecord({ id: 'inv_1' }), invoiceRecord({ id: 'inv_2' })]);
    const { ids, warnings } = await walk({ limit: 2 });
    expect(ids).toEqual(['inv_1', 'inv_2']);
    expect(warnings).toHaveLength(1);
  });

  it('stops after MAX_PAGES_PER_WALK pages however many totalPages claims', async () => {
    const logger = recordingLogger();
    let loads = 0;
    const load = async (page: number): Promise<Page<number>> => {
      loads += 1;
      if (loads > 20_000) throw new Error('runaway walk'); // a literal: the guard must hold without the fix too
      return new Page({ data: [page], meta: { total: undefined, page, limit: 1, totalPages: 1e9 }, requestedPage: page, load, logger });
    };
    let count = 0;
    for await (const _ of await load(1)) count += 1;
    expect(count).toBe(MAX_PAGES_PER_WALK);
    expect(loads).toBe(MAX_PAGES_PER_WALK);
    expect(logger.lines.filter((l) => l.startsWith('warn'))).toEqual([expect.stringMatching(/stopped after 10000 pages .*continue from page 10001/)]);
  });
});
