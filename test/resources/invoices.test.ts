import { describe, expect, it } from 'vitest';
import {
  type BadRequestError,
  type InvoiceCheckError,
  isAPIConnectionError,
  isBadRequestError,
  isBusinessNotFoundError,
  isInternalServerError,
  isInvalidResponseError,
  isInvoiceCheckError,
  isInvoicingError,
} from '../../src/core/errors.js';
import {
  API,
  API_KEY,
  VALID_INPUT,
  envelope,
  http,
  HttpResponse,
  invoiceRecord,
  recordingLogger,
  testClient,
  useMswServer,
} from '../core/support.js';

const server = useMswServer();

describe('resources/invoices', () => {
  describe('create', () => {
    it('sends the input and returns the created draft, read through the field map', async () => {
      let body: unknown;
      server.use(
        http.post(`${API}/invoices`, async ({ request }) => {
          body = await request.json();
          return HttpResponse.json(envelope({ _id: 'inv_7', invoiceStatus: 'draft', totalAmount: 107.5 }), { status: 201 });
        }),
      );
      const invoice = await testClient().invoices.create(VALID_INPUT);
      expect(body).toEqual(VALID_INPUT);
      expect(invoice).toMatchObject({ id: 'inv_7', status: 'DRAFT', rawStatus: 'draft', total: '107.50' });
      expect(invoice.observedAt).toBe('2026-11-21T10:00:00.000Z');
    });

    it('refuses an invoice that fails the local checks, sending nothing', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/invoices`, () => {
          calls += 1;
          return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
        }),
      );
      const bad = { ...VALID_INPUT, lines: [{ ...VALID_INPUT.lines[0]!, isicCode: undefined, hsnCode: '0000.00' }] };
      const error = await testClient().invoices.create(bad).catch((e: unknown) => e);
      expect(isInvoiceCheckError(error)).toBe(true);
      const report = (error as InvoiceCheckError).report;
      expect(report.ok).toBe(false);
      expect(report.errors.length).toBeGreaterThan(0);
      expect((error as Error).message).toMatch(/nothing was sent/);
      // Each problem once, naming its field, with its code; the path is not repeated before it.
      const first = report.errors[0]!;
      expect((error as Error).message).toContain(`${first.message} [${first.code}]`);
      expect((error as Error).message).not.toMatch(/lines\[0\]\.hsnCode: lines\[0\]\.hsnCode/);
      expect(calls).toBe(0);
    });

    it('sends an invoice that fails the checks when skipChecks is set', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/invoices`, () => {
          calls += 1;
          return HttpResponse.json(envelope(invoiceRecord()), { status: 201 });
        }),
      );
      const bad = { ...VALID_INPUT, lines: [] };
      await testClient().invoices.create(bad, { skipChecks: true });
      expect(calls).toBe(1);
    });

    it('names the sent lines and fields in the hint of a classification 400 whose message names no line', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/invoices`, () => {
          calls += 1;
          return HttpResponse.json(
            { statusCode: 400, message: 'Invoice line has an invalid or missing classification code', error: 'Bad Request' },
            { status: 400, headers: { 'x-request-id': 'req_9' } },
          );
        }),
      );
      const good = VALID_INPUT.lines[0]!;
      const lines = [
        good,
        { description: 'Widget', quantity: 1, unitPrice: 5, taxRate: 7.5 },
        { description: 'Gadget', quantity: 1, unitPrice: 5, taxRate: 7.5, hsnCode: '0000.00' },
        { description: 'Mixed', quantity: 1, unitPrice: 5, taxRate: 7.5, hsnCode: '8471.30', isicCode: '6202' },
      ];
      const error = await testClient()
        .invoices.create({ ...VALID_INPUT, lines }, { skipChecks: true })
        .catch((e: unknown) => e);
      expect(calls).toBe(1);
      expect(isBadRequestError(error)).toBe(true);
      const { hint, message, status, requestId } = error as BadRequestError;
      expect({ message, status, requestId }).toEqual({
        message: 'Invoice line has an invalid or missing classification code',
        status: 400,
        requestId: 'req_9',
      });
      expect(hint).toContain('line 2 (lines[1].hsnCode, lines[1].isicCode) has neither code');
      expect(hint).toContain('line 3 (lines[2].hsnCode) is the placeholder 0000.00');
      expect(hint).toContain('line 4 (lines[3].hsnCode, lines[3].isicCode) sends both codes with different values');
      expect(hint).not.toContain('lines[0]');
      expect(hint).toContain('/api/v1/taxauth/hs-codes');
      expect(hint).toContain('/api/v1/taxauth/service-codes');
    });

    it('keeps the generic classification hint when no sent line shows the fault', async () => {
      server.use(
        http.post(`${API}/invoices`, () =>
          HttpResponse.json({ message: 'has an invalid or missing classification code' }, { status: 400 }),
        ),
      );
      const error = await testClient().invoices.create(VALID_INPUT, { skipChecks: true }).catch((e: unknown) => e);
      expect(isBadRequestError(error)).toBe(true);
      expect((error as BadRequestError).hint).toContain('checkInvoice(input)');
      expect((error as BadRequestError).hint).toContain('/api/v1/taxauth/service-codes');
    });

    it('logs check warnings and still sends', async () => {
      server.use(http.post(`${API}/invoices`, () => HttpResponse.json(envelope(invoiceRecord()), { status: 201 })));
      const logger = recordingLogger();
      // A date-time without an offset is a warning (a B2B buyer without tin is an error).
      const noOffset = { ...VALID_INPUT, dueDate: '2026-12-31T00:00:00' };
      const invoice = await testClient({ logger }).invoices.create(noOffset);
      expect(invoice.id).toBe('inv_1');
      expect(logger.lines.some((l) => l.startsWith('warn') && l.includes('DUE_DATE_NO_OFFSET'))).toBe(true);
    });

    it('throws BusinessNotFoundError with the USER-key hint on 404 Business not found', async () => {
      server.use(
        http.post(`${API}/invoices`, () =>
          HttpResponse.json({ statusCode: 404, message: 'Business not found', error: 'Not Found' }, { status: 404 }),
        ),
      );
      const error = await testClient().invoices.create(VALID_INPUT).catch((e: unknown) => e);
      expect(isBusinessNotFoundError(error)).toBe(true);
      expect((error as { hint: string }).hint).toMatch(/USER key/);
    });

    it('turns a created record without a readable id into an InvalidResponseError naming fieldMap', async () => {
      server.use(http.post(`${API}/invoices`, () => HttpResponse.json(envelope({ ref: 'x', status: 'draft' }), { status: 201 })));
      const error = await testClient().invoices.create(VALID_INPUT).catch((e: unknown) => e);
      expect(isInvalidResponseError(error)).toBe(true);
      expect((error as { hint: string }).hint).toMatch(/fieldMap/);
    });
  });

  describe('retrieve', () => {
    it('reads one invoice and keeps the raw record', async () => {
      const record = invoiceRecord({ id: 'inv_1', status: 'Accepted', extra: { a: 1 } });
      server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(record))));
      const invoice = await testClient().invoices.retrieve('inv_1');
      expect(invoice).toMatchObject({ id: 'inv_1', status: 'ACCEPTED', rawStatus: 'Accepted', subtotal: '100.00', taxTotal: '7.50' });
      expect(invoice.raw).toEqual(record);
    });

    it('uses the id asked for when the record carries none', async () => {
      server.use(http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope({ status: 'Signed' }))));
      expect((await testClient().invoices.retrieve('inv_1')).id).toBe('inv_1');
    });

    it('rejects an empty id locally', async () => {
      await expect(testClient().invoices.retrieve('')).rejects.toSatisfy(isInvoicingError);
    });

    it.each(['.', '..', '%2e%2E'])('rejects the dot segment %j locally instead of requesting the listing', async (id) => {
      let calls = 0;
      server.use(http.all(`${API}/*`, () => {
        calls += 1;
        return HttpResponse.json(envelope([]));
      }));
      const client = testClient();
      await expect(client.invoices.retrieve(id)).rejects.toThrow(/path step, not an id/);
      await expect(client.invoices.sign(id)).rejects.toThrow(/path step, not an id/);
      await expect(client.apiKeys.revoke(id)).rejects.toThrow(/path step, not an id/);
      expect(calls).toBe(0);
    });

    it('turns a 200 HTML page into an InvalidResponseError, never a TypeError', async () => {
      server.use(http.get(`${API}/invoices/inv_1`, () => new HttpResponse('<html><title>Sign in</title></html>', { status: 200 })));
      const error = await testClient().invoices.retrieve('inv_1').catch((e: unknown) => e);
      expect(isInvalidResponseError(error)).toBe(true);
      expect(error).not.toBeInstanceOf(TypeError);
    });

    it('fails locally, before any request, without an API key', async () => {
      let calls = 0;
      server.use(
        http.get(`${API}/invoices/inv_1`, () => {
          calls += 1;
          return HttpResponse.json(envelope(invoiceRecord()));
        }),
      );
      const error = await testClient({ apiKey: '' }).invoices.retrieve('inv_1').catch((e: unknown) => e);
      expect(isInvoicingError(error)).toBe(true);
      expect((error as Error).message).toMatch(/INVOICING_API_KEY/);
      expect(calls).toBe(0);
    });
  });

  describe.each(['validate', 'sign', 'submit'] as const)('%s', (step) => {
    // submit reads the invoice first: a re-submit of an invoice in ERROR can only be told from a
    // first submit by the record before the send (see test/filing/transition.test.ts).
    const before = step === 'submit' ? ['GET /api/v1/invoices/inv_1'] : [];

    it(`POSTs /invoices/{id}/${step} and returns the invoice in the answer`, async () => {
      const paths: string[] = [];
      server.use(
        http.post(`${API}/invoices/:id/:step`, ({ request }) => {
          paths.push(`POST ${new URL(request.url).pathname}`);
          return HttpResponse.json(envelope(invoiceRecord({ status: 'Validated' })));
        }),
        http.get(`${API}/invoices/inv_1`, ({ request }) => {
          paths.push(`GET ${new URL(request.url).pathname}`);
          return HttpResponse.json(envelope(invoiceRecord({ status: 'Signed' })));
        }),
      );
      const invoice = await testClient().invoices[step]('inv_1');
      expect(paths).toEqual([...before, `POST /api/v1/invoices/inv_1/${step}`]);
      expect(invoice).toMatchObject({ id: 'inv_1', status: 'VALIDATED' });
    });

    it('reads the invoice back when the answer is not a readable invoice', async () => {
      const seen: string[] = [];
      server.use(
        http.post(`${API}/invoices/:id/:step`, () => {
          seen.push('POST');
          return new HttpResponse(null, { status: 204 });
        }),
        http.get(`${API}/invoices/inv_1`, () => {
          seen.push('GET');
          return HttpResponse.json(envelope(invoiceRecord({ status: 'Signed' })));
        }),
      );
      const invoice = await testClient().invoices[step]('inv_1');
      expect(seen).toEqual([...before.map(() => 'GET'), 'POST', 'GET']);
      expect(invoice.status).toBe('SIGNED');
    });

    it('reads the invoice back when the answer is some other object', async () => {
      let gets = 0;
      server.use(
        http.post(`${API}/invoices/:id/:step`, () => HttpResponse.json(envelope({ ok: true }), { status: 201 })),
        http.get(`${API}/invoices/inv_1`, () => {
          gets += 1;
          return HttpResponse.json(envelope(invoiceRecord({ status: 'Submitted' })));
        }),
      );
      expect((await testClient().invoices[step]('inv_1')).status).toBe('SUBMITTED');
      expect(gets).toBe(1);
    });

    // The single send under the public method; the exactly-once read-back around it is the filing
    // layer's and is tested in test/filing/transition.test.ts.
    it('is sent exactly once by _transition, never retried, whatever maxRetries says', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/invoices/:id/:step`, () => {
          calls += 1;
          return new HttpResponse('unavailable', { status: 503 });
        }),
      );
      const error = await testClient({ maxRetries: 5 }).invoices._transition('inv_1', step, { maxRetries: 3 }).catch((e: unknown) => e);
      expect(isInternalServerError(error)).toBe(true);
      expect(calls).toBe(1);
    });

    it('is not retried by _transition after a dropped connection either', async () => {
      let calls = 0;
      server.use(
        http.post(`${API}/invoices/:id/:step`, () => {
          calls += 1;
          return HttpResponse.error();
        }),
      );
      const error = await testClient().invoices._transition('inv_1', step).catch((e: unknown) => e);
      expect(isAPIConnectionError(error)).toBe(true);
      expect(calls).toBe(1);
    });
  });

  it('sends the API key, not the session, on transitions', async () => {
    let key: string | null = null;
    server.use(
      http.post(`${API}/invoices/:id/:step`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return HttpResponse.json(envelope(invoiceRecord()));
      }),
      http.get(`${API}/invoices/inv_1`, () => HttpResponse.json(envelope(invoiceRecord({ status: 'Signed' })))),
    );
    await testClient().invoices.submit('inv_1');
    expect(key).toBe(API_KEY);
  });

  it('rejects a listing whose data is not an array', async () => {
    server.use(http.get(`${API}/invoices`, () => HttpResponse.json(envelope({ items: [] }))));
    await expect(testClient().invoices.list().then((p) => p.data)).rejects.toSatisfy(isInvalidResponseError);
  });
});
