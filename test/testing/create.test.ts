import { describe, expect, it } from 'vitest';
import { computeTotals } from '../../src/model/money.js';
import { CLASSIFICATION_MESSAGE, type Sandbox } from '../../src/testing/index.js';
import { invoiceBody, type Call, useSandbox, withSandbox } from './helpers.js';

const line = (extra: Record<string, unknown>) => ({ description: 'Item', quantity: 1, unitPrice: 10, taxRate: 7.5, ...extra });

describe('testing/sandbox POST /api/v1/invoices', () => {
  let sandbox: Sandbox;
  let call: Call;
  const create = (body: unknown, idempotencyKey?: string | null) =>
    call('POST', '/api/v1/invoices', { body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });

  useSandbox({}, (s, c) => {
    sandbox = s;
    call = c;
  });

  it('creates a draft in the envelope with totals computed by the service', async () => {
    const body = invoiceBody(sandbox.businessId);
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, timestamp: expect.any(String) });
    expect(res.body.message).toBeUndefined();
    const totals = computeTotals(body.lines);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      status: 'draft',
      businessId: sandbox.businessId,
      subtotal: Number(totals.subtotal),
      taxAmount: Number(totals.taxTotal),
      totalAmount: Number(totals.total),
      attempts: 0,
      errorMessage: null,
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(sandbox.invoices.get(res.body.data.id)?.total).toBe(totals.total);
  });

  it('computes totals exactly (ten lines of 0.10 make 1.00)', async () => {
    const lines = Array.from({ length: 10 }, () => line({ unitPrice: 0.1, taxRate: 0, isicCode: '6201' }));
    const res = await create(invoiceBody(sandbox.businessId, { lines }));
    expect(res.body.data.subtotal).toBe(1);
    expect(res.text).toContain('"subtotal":1,');
  });

  describe('idempotency-key', () => {
    it('is required (400)', async () => {
      const res = await create(invoiceBody(sandbox.businessId), null);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/idempotency-key/);
      expect(sandbox.invoices.count).toBe(0);
    });

    it('replays the same invoice for the same key and body: same id, one record, 201 again', async () => {
      const body = invoiceBody(sandbox.businessId);
      const first = await create(body, 'idem-1');
      // Same body, keys in another order.
      const reordered = { lines: body.lines, dueDate: body.dueDate, buyer: body.buyer, businessId: body.businessId };
      const again = await create(reordered, 'idem-1');
      expect(again.status).toBe(201);
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(sandbox.invoices.count).toBe(1);
    });

    it('answers a replay with the invoice as it is now', async () => {
      const body = invoiceBody(sandbox.businessId);
      const first = await create(body, 'idem-now');
      await call('POST', `/api/v1/invoices/${first.body.data.id}/validate`);
      expect((await create(body, 'idem-now')).body.data.status).toBe('Validated');
    });

    it('answers 409 when the key is reused with a different body', async () => {
      await create(invoiceBody(sandbox.businessId), 'idem-2');
      const res = await create(invoiceBody(sandbox.businessId, { dueDate: '2027-01-31T00:00:00Z' }), 'idem-2');
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/idempotency-key idem-2 was already used with a different request body/);
      expect(sandbox.invoices.count).toBe(1);
    });

    it('creates one invoice for concurrent requests with the same key', async () => {
      const body = invoiceBody(sandbox.businessId);
      const results = await Promise.all(Array.from({ length: 20 }, () => create(body, 'idem-race')));
      expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
      expect(sandbox.invoices.count).toBe(1);
    });

    it('scopes keys to the user: another user’s same key is a different invoice', async () => {
      const stranger = sandbox.createUser();
      await create(invoiceBody(sandbox.businessId), 'shared');
      const theirs = await call('POST', '/api/v1/invoices', {
        apiKey: stranger.apiKey,
        idempotencyKey: 'shared',
        body: invoiceBody(stranger.businessId),
      });
      expect(theirs.status).toBe(201);
      expect(sandbox.invoices.count).toBe(2);
    });
  });

  describe('the document’s 400s', () => {
    it('rejects an invoice with no lines', async () => {
      const res = await create(invoiceBody(sandbox.businessId, { lines: [] }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: ['lines must contain at least 1 elements'], error: 'Bad Request' });
    });

    it('rejects a line with neither code, naming the line, with the document’s message', async () => {
      const res = await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '8471.30' }), line({})] }));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`lines[1] ${CLASSIFICATION_MESSAGE}`);
      expect(res.body.message).toContain('has an invalid or missing classification code');
    });

    it.each(['0000.00', '0000'])('rejects the placeholder %s', async (code) => {
      const field = code.includes('.') ? 'hsnCode' : 'isicCode';
      const res = await create(invoiceBody(sandbox.businessId, { lines: [line({ [field]: code })] }));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('lines[0] has an invalid or missing classification code');
    });

    it('rejects a code in neither format', async () => {
      const res = await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '847130' })] }));
      expect(res.body.message).toBe('lines[0] has an invalid or missing classification code');
    });

    it('rejects both hsnCode and isicCode with different values', async () => {
      const res = await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '8471.30', isicCode: '6201' })] }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/lines\[0\] has both hsnCode and isicCode with different values/);
    });

    it('rejects a very short productCategory or serviceCategory (min length 3, an option)', async () => {
      const short = await create(invoiceBody(sandbox.businessId, { lines: [line({ isicCode: '6201', serviceCategory: 'IT' })] }));
      expect(short.status).toBe(400);
      expect(short.body.message).toEqual(['lines.0.serviceCategory must be longer than or equal to 3 characters']);
      const ok = await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '8471.30', productCategory: 'ICT' })] }));
      expect(ok.status).toBe(201);
      await withSandbox({ categoryMinLength: 5 }, async (box, c) => {
        const res = await c('POST', '/api/v1/invoices', { body: invoiceBody(box.businessId, { lines: [line({ hsnCode: '8471.30', productCategory: 'ICT' })] }) });
        expect(res.body.message).toEqual(['lines.0.productCategory must be longer than or equal to 5 characters']);
      });
    });

    it('lists every missing field at once, class-validator style', async () => {
      const res = await create({ lines: [{ hsnCode: '8471.30' }] });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual([
        'businessId must be a string',
        'buyer must be an object',
        'buyer.type must be one of the following values: B2B, B2C, B2G',
        'dueDate must be a valid ISO 8601 date string',
        'lines.0.description must be a string',
        'lines.0.quantity must be a number conforming to the specified constraints',
        'lines.0.unitPrice must be a number conforming to the specified constraints',
        'lines.0.taxRate must be a number conforming to the specified constraints',
      ]);
    });

    it('requires dueDate to be a date-time that exists (the document: "ISO 8601 date-time")', async () => {
      const dueDateMessage = ['dueDate must be a valid ISO 8601 date string'];
      for (const dueDate of ['2026-12-31', '2026-02-30T00:00:00Z', '2026-04-31T10:00:00Z', '2026-12-31T24:00:00Z', '2026-12-31T10:60Z', '31/12/2026']) {
        const res = await create(invoiceBody(sandbox.businessId, { dueDate }));
        expect({ dueDate, status: res.status, message: res.body.message }).toEqual({ dueDate, status: 400, message: dueDateMessage });
      }
      for (const dueDate of ['2026-12-31T00:00:00Z', '2028-02-29T23:59:59.999+01:00', '2026-12-31T10:00', '2026-12-31T10:00:00-0530']) {
        expect({ dueDate, status: (await create(invoiceBody(sandbox.businessId, { dueDate }))).status }).toEqual({ dueDate, status: 201 });
      }
    });

    it('requires buyer.type only inside buyer', async () => {
      const res = await create(invoiceBody(sandbox.businessId, { buyer: { tin: '1' } }));
      expect(res.body.message).toEqual(['buyer.type must be one of the following values: B2B, B2C, B2G']);
      expect((await create(invoiceBody(sandbox.businessId, { buyer: { type: 'B2C' } }))).status).toBe(201);
    });

    it('answers 400 to a body that is not JSON', async () => {
      const res = await fetch(`${sandbox.baseUrl}/api/v1/invoices`, {
        method: 'POST',
        headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', 'idempotency-key': 'k' },
        body: '{"businessId":',
      });
      expect(res.status).toBe(400);
      expect((await res.json()) as object).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });
  });

  describe('what the authority does not catch', () => {
    it('accepts a padded four-digit code, a placeholder TIN and a fractional tax rate', async () => {
      const res = await create(
        invoiceBody(sandbox.businessId, { buyer: { type: 'B2B', tin: '00000000' }, lines: [line({ hsnCode: '6201.00', taxRate: 0.075 })] }),
      );
      expect(res.status).toBe(201);
    });

    it('reads a four-digit hsnCode as an ISIC class', async () => {
      expect((await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '6201' })] }))).status).toBe(201);
      expect((await create(invoiceBody(sandbox.businessId, { lines: [line({ hsnCode: '9999' })] }))).status).toBe(400);
    });
  });

  describe('unknownIsicCode', () => {
    const unknown = (businessId: string) => invoiceBody(businessId, { lines: [line({ hsnCode: '8471.30' }), line({ isicCode: '9999' })] });

    it('rejects a four-digit code outside the 419 classes on create by default', async () => {
      const res = await create(unknown(sandbox.businessId));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('lines[1] has an invalid or missing classification code');
    });

    it('accepts it with accept, and rejects it at validate with reject-on-validate', async () => {
      await withSandbox({ unknownIsicCode: 'accept' }, async (box, c) => {
        const res = await c('POST', '/api/v1/invoices', { body: unknown(box.businessId) });
        expect(res.status).toBe(201);
        expect((await c('POST', `/api/v1/invoices/${res.body.data.id}/validate`)).status).toBe(200);
      });
      await withSandbox({ unknownIsicCode: 'reject-on-validate' }, async (box, c) => {
        const res = await c('POST', '/api/v1/invoices', { body: unknown(box.businessId) });
        expect(res.status).toBe(201);
        const validate = await c('POST', `/api/v1/invoices/${res.body.data.id}/validate`);
        expect(validate.status).toBe(400);
        expect(validate.body.message).toBe('lines[1] has an invalid or missing classification code');
        expect(box.invoices.get(res.body.data.id)?.status).toBe('draft');
      });
    });
  });

  it('stores the totals the `totals` option returns (to exercise a mismatch)', async () => {
    await withSandbox({ totals: (_input, correct) => ({ ...correct, total: '1.00' }) }, async (box, c) => {
      const res = await c('POST', '/api/v1/invoices', { body: invoiceBody(box.businessId) });
      expect(res.body.data.totalAmount).toBe(1);
    });
  });
});
