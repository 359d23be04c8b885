import { describe, expect, it } from 'vitest';
import { isInvoicingError } from '../../src/core/errors.js';
import { API, envelope, http, HttpResponse, invoiceRecord, testClient, useMswServer } from './support.js';

const server = useMswServer();

/** A listing of `total` invoices served `limit` per page, counting requests. */
function serveListing(total: number, limit: number, meta: (page: number) => Record<string, unknown> | undefined = () => undefined) {
  const requests: URL[] = [];
  server.use(
    http.get(`${API}/invoices`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const page = Number(url.searchParams.get('page') ?? '1');
      const start = (page - 1) * limit;
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) =>
        invoiceRecord({ id: `inv_${start + i + 1}` }),
      );
      return HttpResponse.json(
        envelope(data, { meta: meta(page) ?? { total, page, limit, totalPages: Math.ceil(total / limit) } }),
      );
    }),
  );
  return requests;
}

describe('core/pagination', () => {
  it('iterates 3 pages with exactly 3 requests', async () => {
    const requests = serveListing(7, 3);
    const ids: string[] = [];
    for await (const invoice of testClient().invoices.list({ limit: 3 })) ids.push(invoice.id);
    expect(ids).toEqual(['inv_1', 'inv_2', 'inv_3', 'inv_4', 'inv_5', 'inv_6', 'inv_7']);
    expect(requests).toHaveLength(3);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
    expect(requests.every((u) => u.searchParams.get('limit') === '3')).toBe(true);
  });

  it('awaits to the first page with data, meta and the way to the next', async () => {
    const requests = serveListing(5, 2);
    const first = await testClient().invoices.list({ limit: 2 });
    expect(first.data.map((i) => i.id)).toEqual(['inv_1', 'inv_2']);
    expect(first.meta).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3 });
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data.map((i) => i.id)).toEqual(['inv_3', 'inv_4']);
    const third = await second.getNextPage();
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toSatisfy(isInvoicingError);
    expect(requests).toHaveLength(3);
  });

  it('requests nothing until awaited or iterated, and the first page only once', async () => {
    const requests = serveListing(4, 2);
    const pages = testClient().invoices.list({ limit: 2 });
    expect(requests).toHaveLength(0);
    await pages;
    await pages;
    expect(requests).toHaveLength(1);
    const ids: string[] = [];
    for await (const invoice of pages) ids.push(invoice.id);
    expect(ids).toHaveLength(4);
    expect(requests).toHaveLength(2);
  });

  it('makes no request for a page that does not exist', async () => {
    const empty = serveListing(0, 10, () => ({ total: 0, page: 1, limit: 10, totalPages: 0 }));
    const ids: string[] = [];
    for await (const invoice of testClient().invoices.list()) ids.push(invoice.id);
    expect(ids).toEqual([]);
    expect(empty).toHaveLength(1);
  });

  it('starts from the page asked for', async () => {
    const requests = serveListing(6, 2);
    const ids: string[] = [];
    for await (const invoice of testClient().invoices.list({ page: 2, limit: 2 })) ids.push(invoice.id);
    expect(ids).toEqual(['inv_3', 'inv_4', 'inv_5', 'inv_6']);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual(['2', '3']);
  });

  it('reads only one page when the listing carries no totalPages', async () => {
    const requests = serveListing(4, 2, () => ({ page: 1 }));
    const ids: string[] = [];
    for await (const invoice of testClient().invoices.list({ limit: 2 })) ids.push(invoice.id);
    expect(ids).toEqual(['inv_1', 'inv_2']);
    expect(requests).toHaveLength(1);
  });

  it('passes filters through on every page', async () => {
    const requests = serveListing(4, 2);
    for await (const _ of testClient().invoices.list({ limit: 2, status: 'Submitted', businessId: 'biz_1' })) {
      // drain
    }
    expect(requests.every((u) => u.searchParams.get('status') === 'Submitted' && u.searchParams.get('businessId') === 'biz_1')).toBe(true);
  });

  it('iterates pages one by one', async () => {
    serveListing(5, 2);
    const sizes: number[] = [];
    for await (const page of (await testClient().invoices.list({ limit: 2 })).iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });
});
