import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { fileInvoice, invoiceBody, type Call, useSandbox, withSandbox } from './helpers.js';

describe('testing/sandbox invoice state machine', () => {
  let sandbox: Sandbox;
  let call: Call;

  useSandbox({}, (s, c) => {
    sandbox = s;
    call = c;
  });

  it('moves draft → Validated → Signed → Submitted, answering the updated invoice', async () => {
    const id = await fileInvoice(call, sandbox.businessId, []);
    const seen: string[] = [];
    for (const step of ['validate', 'sign', 'submit']) {
      const res = await call('POST', `/api/v1/invoices/${id}/${step}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { id }, timestamp: expect.any(String) });
      seen.push(res.body.data.status);
    }
    expect(seen).toEqual(['Validated', 'Signed', 'Submitted']);
    const stored = sandbox.invoices.get(id);
    expect(stored?.submissions).toBe(1);
    expect(stored?.history.map((h) => h.status)).toEqual(['draft', 'Validated', 'Signed', 'Submitted']);
  });

  it.each([
    [[], 'sign', 'draft'],
    [[], 'submit', 'draft'],
    [['validate'], 'validate', 'Validated'],
    [['validate'], 'submit', 'Validated'],
    [['validate', 'sign'], 'sign', 'Signed'],
    [['validate', 'sign', 'submit'], 'submit', 'Submitted'],
    [['validate', 'sign', 'submit'], 'validate', 'Submitted'],
  ] as const)('after %j rejects %s with 409 naming the status %s', async (done, step, status) => {
    const id = await fileInvoice(call, sandbox.businessId, done);
    const res = await call('POST', `/api/v1/invoices/${id}/${step}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    expect(res.body.message).toContain(`its status is ${status}`);
  });

  it('answers 404 for an unknown invoice and for an unknown route', async () => {
    expect((await call('POST', '/api/v1/invoices/inv_missing/validate')).status).toBe(404);
    const route = await call('GET', '/api/v1/nothing');
    expect(route.status).toBe(404);
    expect(route.body.message).toBe('Cannot GET /api/v1/nothing');
  });

  it('reads an invoice with GET /api/v1/invoices/:id', async () => {
    const id = await fileInvoice(call, sandbox.businessId, ['validate']);
    const res = await call('GET', `/api/v1/invoices/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'Validated' });
  });

  describe('options', () => {
    it("answers data: null with transitionResponse 'null'", async () => {
      await withSandbox({ transitionResponse: 'null' }, async (box, c) => {
        const id = await fileInvoice(c, box.businessId, []);
        const res = await c('POST', `/api/v1/invoices/${id}/validate`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, data: null, timestamp: expect.any(String) });
        expect(box.invoices.get(id)?.status).toBe('Validated');
      });
    });

    it("answers a bare message with transitionResponse 'message'", async () => {
      await withSandbox({ transitionResponse: 'message' }, async (box, c) => {
        const id = await fileInvoice(c, box.businessId, ['validate']);
        const res = await c('POST', `/api/v1/invoices/${id}/sign`);
        expect(res.body).toMatchObject({ success: true, message: 'Invoice signed', data: { message: 'Invoice signed' } });
      });
    });

    it('spells the documented statuses as statusSpelling says, later ones as given', async () => {
      const seen: Record<string, unknown> = {};
      for (const statusSpelling of ['document', 'capitalized', 'upper', 'lower'] as const) {
        await withSandbox({ statusSpelling, timeScale: 0 }, async (box, c) => {
          const created = await c('POST', '/api/v1/invoices', { body: invoiceBody(box.businessId) });
          const id = created.body.data.id as string;
          const statuses = [created.body.data.status];
          for (const step of ['validate', 'sign', 'submit']) statuses.push((await c('POST', `/api/v1/invoices/${id}/${step}`)).body.data.status);
          box.clock.advance(2_000);
          statuses.push((await c('GET', `/api/v1/invoices/${id}`)).body.data.status);
          const refused = await c('POST', `/api/v1/invoices/${id}/validate`);
          seen[statusSpelling] = { statuses, stored: box.invoices.get(id)?.history.map((h) => h.status), refused: refused.body.message };
        });
      }
      const refused = (status: string, needs: string) => expect.stringContaining(`its status is ${status} (validate requires ${needs})`);
      expect(seen).toEqual({
        document: { statuses: ['draft', 'Validated', 'Signed', 'Submitted', 'Accepted'], stored: ['draft', 'Validated', 'Signed', 'Submitted', 'Accepted'], refused: refused('Accepted', 'draft') },
        capitalized: { statuses: ['Draft', 'Validated', 'Signed', 'Submitted', 'Accepted'], stored: ['Draft', 'Validated', 'Signed', 'Submitted', 'Accepted'], refused: refused('Accepted', 'Draft') },
        upper: { statuses: ['DRAFT', 'VALIDATED', 'SIGNED', 'SUBMITTED', 'Accepted'], stored: ['DRAFT', 'VALIDATED', 'SIGNED', 'SUBMITTED', 'Accepted'], refused: refused('Accepted', 'DRAFT') },
        lower: { statuses: ['draft', 'validated', 'signed', 'submitted', 'Accepted'], stored: ['draft', 'validated', 'signed', 'submitted', 'Accepted'], refused: refused('Accepted', 'draft') },
      });
      await expect(createSandbox({ listen: false, statusSpelling: 'UPPER' as never })).rejects.toThrow(/statusSpelling must be one of/);
    });

    it("spells records with the other aliases under recordStyle 'alternate'", async () => {
      await withSandbox({ recordStyle: 'alternate' }, async (box, c) => {
        const created = await c('POST', '/api/v1/invoices', { body: invoiceBody(box.businessId) });
        const data = created.body.data;
        expect(Object.keys(data)).toEqual(
          expect.arrayContaining(['_id', 'invoiceStatus', 'totals', 'failureReason', 'retryCount', 'lastModified']),
        );
        for (const absent of ['id', 'status', 'subtotal', 'taxAmount', 'totalAmount', 'updatedAt', 'errorMessage', 'attempts']) {
          expect(data).not.toHaveProperty(absent);
        }
        expect(data.invoiceStatus).toBe('draft');
        expect(data.totals).toEqual({ subtotal: 1701.3, tax: 127.6, total: 1828.9 });
        const read = await c('GET', `/api/v1/invoices/${data._id}`);
        expect(read.body.data._id).toBe(data._id);
      });
    });
  });
});
