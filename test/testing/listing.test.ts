import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { caller, fileInvoice, type Call } from './helpers.js';

describe('testing/sandbox listings', () => {
  let sandbox: Sandbox;
  let call: Call;
  const ids: string[] = [];

  beforeAll(async () => {
    sandbox = await createSandbox({ timeScale: 0 });
    call = caller(sandbox);
    for (let i = 0; i < 23; i++) ids.push(await fileInvoice(call, sandbox.businessId, i < 5 ? ['validate', 'sign', 'submit'] : []));
  });
  afterAll(() => sandbox.close());

  it('pages with meta { total, page, limit, totalPages }, 10 by default, oldest first', async () => {
    const first = await call('GET', '/api/v1/invoices');
    expect(first.body.meta).toEqual({ total: 23, page: 1, limit: 10, totalPages: 3 });
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 10));
    const last = await call('GET', '/api/v1/invoices?page=3');
    expect(last.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(20));
    const beyond = await call('GET', '/api/v1/invoices?page=9');
    expect(beyond.body).toMatchObject({ data: [], meta: { total: 23, page: 9, totalPages: 3 } });
  });

  it('takes a limit up to 100 and answers 400 beyond it or for a bad page', async () => {
    const all = await call('GET', '/api/v1/invoices?limit=100');
    expect(all.body.meta).toEqual({ total: 23, page: 1, limit: 100, totalPages: 1 });
    const tooMany = await call('GET', '/api/v1/invoices?limit=101');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toEqual(['limit must not be greater than 100']);
    expect((await call('GET', '/api/v1/invoices?page=0')).body.message).toEqual(['page must not be less than 1']);
    expect((await call('GET', '/api/v1/invoices?limit=abc')).status).toBe(400);
  });

  it('filters by status in any spelling, and by business', async () => {
    const drafts = await call('GET', '/api/v1/invoices?status=DRAFT&limit=100');
    expect(drafts.body.meta.total).toBe(18);
    expect(drafts.body.data.every((d: { status: string }) => d.status === 'draft')).toBe(true);
    expect((await call('GET', '/api/v1/invoices?status=submitted')).body.meta.total).toBe(5);
    sandbox.clock.advance(2_000);
    expect((await call('GET', '/api/v1/invoices?status=Accepted')).body.meta.total).toBe(5);
    expect((await call('GET', `/api/v1/invoices?businessId=${sandbox.businessId}`)).body.meta.total).toBe(23);
    expect((await call('GET', '/api/v1/invoices?businessId=biz_other')).body.meta.total).toBe(0);
  });

  it('answers an empty listing with totalPages 0', async () => {
    const other = sandbox.createUser();
    const res = await call('GET', '/api/v1/invoices', { apiKey: other.apiKey });
    expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0, page: 1, limit: 10, totalPages: 0 } });
  });

  it('exposes the stored invoices for assertions', () => {
    expect(sandbox.invoices.count).toBe(23);
    expect(sandbox.invoices.list({ status: 'accepted' })).toHaveLength(5);
    expect(sandbox.invoices.list().map((i) => i.id)).toEqual(ids);
    expect(sandbox.invoices.get('inv_missing')).toBeUndefined();
    expect(() => sandbox.invoices.update('inv_missing', {})).toThrow(RangeError);
  });

  describe('code lookups', () => {
    it('lists HS subheadings as { code, description }, 100 per page by default', async () => {
      const res = await call('GET', '/api/v1/taxauth/hs-codes');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ total: 5612, page: 1, limit: 100, totalPages: 57 });
      expect(res.body.data[0]).toEqual({ code: '0101.21', description: 'Horses; live, pure-bred breeding animals' });
    });

    it('lists the 419 ISIC classes', async () => {
      const res = await call('GET', '/api/v1/taxauth/service-codes?limit=1000');
      expect(res.body.meta.total).toBe(419);
      expect(res.body.data).toContainEqual({ code: '6201', description: 'Computer programming activities' });
    });

    it('searches with ?q= by code prefix or description words', async () => {
      const byCode = await call('GET', '/api/v1/taxauth/hs-codes?q=8471');
      const codes: string[] = byCode.body.data.map((d: { code: string }) => d.code);
      expect(codes).toContain('8471.30');
      expect(codes.every((c) => c.startsWith('8471'))).toBe(true);
      const byWords = await call('GET', '/api/v1/taxauth/service-codes?q=computer%20programming');
      expect(byWords.body.data.map((d: { code: string }) => d.code)).toEqual(['6201']);
      const none = await call('GET', '/api/v1/taxauth/service-codes?q=zzzz');
      expect(none.body.meta).toMatchObject({ total: 0, totalPages: 0 });
    });
  });
});
