// client.diagnose() against the sandbox through msw: healthy, then each misconfiguration and drift
// the sandbox can be made to show, named by the check that must find it.
import { afterEach, describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/options.js';
import type { Diagnosis } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { http, HttpResponse, useMswServer } from '../core/support.js';

const server = useMswServer();
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

let n = 0;
async function sandboxOf(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ listen: false, msw: true, baseUrl: `https://sandbox-${++n}.invoicing.test`, responseDelayMs: 10, ...options });
  open.push(sandbox);
  server.use(...sandbox.handlers);
  return sandbox;
}

function clientOf(sandbox: Sandbox, options: ClientOptions = {}): InvoicingClient {
  return new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, sessionToken: sandbox.sessionToken, maxRetries: 0, logLevel: 'off', ...options });
}

async function fileOne(sandbox: Sandbox): Promise<void> {
  const client = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.createApiKey().key, maxRetries: 0, logLevel: 'off' });
  await client.invoices.create({
    businessId: sandbox.businessId,
    buyer: { type: 'B2B', tin: '20456789-0001' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description: 'Setup', quantity: 1, unitPrice: 10, taxRate: 7.5, isicCode: '6201' }],
  });
}

/** The diagnosis of a sandbox made with `options` holding one invoice. */
async function diagnosed(options: SandboxOptions = {}, client: ClientOptions = {}, invoice = true): Promise<{ diagnosis: Diagnosis; sandbox: Sandbox }> {
  const sandbox = await sandboxOf(options);
  if (invoice) await fileOne(sandbox);
  return { diagnosis: await clientOf(sandbox, client).diagnose(), sandbox };
}

const check = (diagnosis: Diagnosis, id: string) => {
  const found = diagnosis.checks.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
};

describe('diagnose: a healthy sandbox', () => {
  it('passes every check, reading only, and never quotes a secret', async () => {
    const sandbox = await sandboxOf();
    await fileOne(sandbox);
    sandbox.clearRequests();
    const diagnosis = await clientOf(sandbox).diagnose();
    expect(diagnosis.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(diagnosis.ok).toBe(true);
    expect(diagnosis.checks.map((c) => c.id)).toEqual([
      'https', 'base-url', 'api-prefix', 'api-key', 'scopes', 'key-type', 'clock', 'read-route', 'page-size', 'field-names',
      'api-description', 'drift-statuses', 'drift-request-fields', 'drift-enums', 'drift-routes',
    ]);
    expect(sandbox.requests.map((r) => r.method).every((m) => m === 'GET')).toBe(true);
    expect(sandbox.requests.some((r) => r.path.endsWith('/reveal'))).toBe(false);
    const text = JSON.stringify(diagnosis);
    expect(text).not.toContain(sandbox.apiKey);
    expect(text).not.toContain(sandbox.apiKey.slice(0, 12));
    expect(text).not.toContain(sandbox.sessionToken);
  });
});

describe('diagnose: reachability', () => {
  it('fails plain http to a remote host, warns when allowInsecureHttp chose it', async () => {
    const sandbox = await sandboxOf({ baseUrl: `http://plain-${++n}.invoicing.test` });
    expect(check(await clientOf(sandbox).diagnose(), 'https')).toMatchObject({ status: 'fail', finding: expect.stringMatching(/clear text/) });
    expect(check(await clientOf(sandbox, { allowInsecureHttp: true }).diagnose(), 'https').status).toBe('warn');
  });

  it('fails a base URL that does not answer and skips what needs an answer', async () => {
    const client = new InvoicingClient({ baseUrl: 'https://down.invoicing.test', apiKey: 'sk_live_x', maxRetries: 0, logLevel: 'off', fetch: () => Promise.reject(new TypeError('fetch failed')) });
    const diagnosis = await client.diagnose();
    expect(check(diagnosis, 'base-url')).toMatchObject({ status: 'fail', hint: expect.stringMatching(/INVOICING_BASE_URL/) });
    expect(check(diagnosis, 'clock').status).toBe('skip');
    expect(diagnosis.ok).toBe(false);
  });

  it('fails a base URL without /api/v1 under it, and names the origin to use', async () => {
    const sandbox = await sandboxOf();
    const diagnosis = await clientOf(sandbox, { baseUrl: `${sandbox.baseUrl}/service` }).diagnose();
    expect(check(diagnosis, 'api-prefix')).toMatchObject({ status: 'fail', hint: expect.stringContaining(`try ${sandbox.baseUrl}`) });
  });

  it('times the answer of /api/v1', async () => {
    const { diagnosis } = await diagnosed();
    expect(check(diagnosis, 'api-prefix').finding).toMatch(/answered 200 in \d+ ms/);
  });
});

describe('diagnose: credentials', () => {
  it('fails without an API key, before any request', async () => {
    const diagnosis = await new InvoicingClient({ baseUrl: 'https://none.invoicing.test', logLevel: 'off' }).diagnose();
    expect(check(diagnosis, 'api-key')).toMatchObject({ status: 'fail', hint: expect.stringMatching(/INVOICING_API_KEY/) });
    expect(check(diagnosis, 'base-url').status).toBe('skip');
  });

  it('fails a revoked key with the service’s 401', async () => {
    const sandbox = await sandboxOf();
    const { key } = sandbox.createApiKey();
    sandbox.revokeApiKey(key);
    const diagnosis = await clientOf(sandbox, { apiKey: key }).diagnose();
    expect(check(diagnosis, 'api-key')).toMatchObject({ status: 'fail', finding: expect.stringMatching(/401.*revoked/) });
    expect(JSON.stringify(diagnosis)).not.toContain(key);
  });

  it('names the filing scopes a key lacks: reads that answer 403, and invoices:write from the key record', async () => {
    const sandbox = await sandboxOf();
    const readOnly = sandbox.createApiKey({ scopes: ['invoices:read'] }).key;
    expect(check(await clientOf(sandbox, { apiKey: readOnly }).diagnose(), 'scopes')).toMatchObject({
      status: 'fail',
      finding: 'The key lacks taxauth:read, invoices:write for filing',
    });
    const writeOnly = sandbox.createApiKey({ scopes: ['invoices:write', 'taxauth:read'] }).key;
    expect(check(await clientOf(sandbox, { apiKey: writeOnly }).diagnose(), 'scopes')).toMatchObject({ status: 'fail', finding: 'The key lacks invoices:read for filing' });
    const noCodes = sandbox.createApiKey({ scopes: ['invoices:write', 'invoices:read'] }).key;
    expect(check(await clientOf(sandbox, { apiKey: noCodes }).diagnose(), 'scopes')).toMatchObject({ status: 'warn', finding: 'The key lacks taxauth:read for filing' });
  });

  it('fails a BUSINESS key with the document’s known defect as the hint', async () => {
    const { diagnosis } = await diagnosed({ apiKeyType: 'BUSINESS' }, {}, false);
    expect(check(diagnosis, 'key-type')).toMatchObject({
      status: 'fail',
      finding: expect.stringMatching(/BUSINESS key/),
      hint: expect.stringMatching(/404 "Business not found".*Use a USER key/),
    });
  });

  it('passes a USER key, and skips the key type without a session token', async () => {
    const { diagnosis, sandbox } = await diagnosed();
    expect(check(diagnosis, 'key-type')).toMatchObject({ status: 'pass', finding: expect.stringMatching(/USER key/) });
    const without = await clientOf(sandbox, { sessionToken: undefined }).diagnose();
    expect(check(without, 'key-type').status).toBe('skip');
  });
});

describe('diagnose: clock', () => {
  it('passes a service on time, warns at a minute, fails at an hour', async () => {
    expect(check((await diagnosed()).diagnosis, 'clock').status).toBe('pass');
    const minute = check((await diagnosed({ now: Date.now() - 60_000 })).diagnosis, 'clock');
    expect(minute).toMatchObject({ status: 'warn', finding: expect.stringMatching(/(59|60|61) s behind .*envelope timestamp/) });
    const hour = check((await diagnosed({ now: Date.now() + 3_600_000 })).diagnosis, 'clock');
    expect(hour).toMatchObject({ status: 'fail', finding: expect.stringMatching(/ahead of/), hint: expect.stringMatching(/NTP/) });
  });
});

describe('diagnose: routes and shapes', () => {
  it('warns when the single-invoice read route is missing, with or without a stored invoice', async () => {
    expect(check((await diagnosed()).diagnosis, 'read-route').status).toBe('pass');
    for (const invoice of [true, false]) {
      const { diagnosis } = await diagnosed({ routes: { retrieve: false } }, {}, invoice);
      expect(check(diagnosis, 'read-route')).toMatchObject({ status: 'warn', hint: expect.stringMatching(/list route/) });
    }
  });

  it('reports the page size the service uses when asked for 100, and a refusal of 100', async () => {
    expect(check((await diagnosed()).diagnosis, 'page-size').finding).toMatch(/uses 100 \(meta.limit 100, total 1/);
    const sandbox = await sandboxOf();
    server.use(
      http.get(`${sandbox.baseUrl}/api/v1/invoices`, () =>
        HttpResponse.json({ success: true, data: [], meta: { total: 120, page: 1, limit: 50, totalPages: 3 }, timestamp: new Date().toISOString() }),
      ),
    );
    expect(check(await clientOf(sandbox).diagnose(), 'page-size')).toMatchObject({ status: 'pass', finding: expect.stringMatching(/uses 50 .*every invoice/) });
    server.use(http.get(`${sandbox.baseUrl}/api/v1/invoices`, () => HttpResponse.json({ statusCode: 400, message: ['limit must not be greater than 50'] }, { status: 400 })));
    expect(check(await clientOf(sandbox).diagnose(), 'page-size')).toMatchObject({ status: 'warn', finding: expect.stringMatching(/refuses limit=100: limit must not be greater than 50/) });
  });

  it('fails a renamed totals field, naming the fieldMap to set; passes once it is set', async () => {
    const { diagnosis, sandbox } = await diagnosed({ totalField: 'grandTotalAmount' });
    expect(check(diagnosis, 'field-names')).toMatchObject({ status: 'fail', hint: expect.stringContaining("fieldMap: { total: 'grandTotalAmount' }") });
    expect(check(await clientOf(sandbox, { fieldMap: { total: 'grandTotalAmount' } }).diagnose(), 'field-names').status).toBe('pass');
  });

  it('fails an unmapped status field', async () => {
    const { diagnosis } = await diagnosed({}, { fieldMap: { status: 'lifecycle' } });
    expect(check(diagnosis, 'field-names')).toMatchObject({ status: 'fail', hint: expect.stringContaining("status: 'status'") });
  });

  it('reads the field names of the alternate record style, and of the description when no invoice is stored', async () => {
    const alternate = check((await diagnosed({ recordStyle: 'alternate' })).diagnosis, 'field-names');
    expect(alternate).toMatchObject({ status: 'pass', details: expect.arrayContaining(['id ← _id', 'total ← totals.total']) });
    const described = check((await diagnosed({ totalField: 'amountDueTotal' }, {}, false)).diagnosis, 'field-names');
    expect(described).toMatchObject({ status: 'fail', finding: expect.stringMatching(/described invoice schema/), hint: expect.stringContaining("total: 'amountDueTotal'") });
    expect(check((await diagnosed({ apiDocs: 'none' }, {}, false)).diagnosis, 'field-names').status).toBe('skip');
    const enveloped = await diagnosed({
      totalField: 'amountDueTotal',
      apiDescription: (d) => {
        const ok = d.paths['/api/v1/invoices/{id}'].get.responses[200];
        ok.content['application/json'].schema = { type: 'object', properties: { success: { type: 'boolean' }, data: ok.content['application/json'].schema, timestamp: { type: 'string' } } };
        return d;
      },
    }, {}, false);
    expect(check(enveloped.diagnosis, 'field-names')).toMatchObject({ status: 'fail', hint: expect.stringContaining("total: 'amountDueTotal'") });
  });
});

describe('diagnose: drift', () => {
  it.each([
    ['json', '/api/docs-json'],
    ['embedded', '/api/docs/swagger-ui-init.js (embedded'],
    ['url', '/api/docs/openapi.json (the url'],
  ] as const)('finds the description served as %s and says where', async (apiDocs, where) => {
    const { diagnosis } = await diagnosed({ apiDocs });
    expect(check(diagnosis, 'api-description')).toMatchObject({ status: 'pass', finding: expect.stringContaining(`found at ${where}`) });
    expect(diagnosis.checks.filter((c) => c.status !== 'pass')).toEqual([]);
  });

  it('warns, without failing, when no description can be found', async () => {
    const { diagnosis } = await diagnosed({ apiDocs: 'none' });
    expect(check(diagnosis, 'api-description').status).toBe('warn');
    expect(diagnosis.checks.filter((c) => c.area === 'drift')).toHaveLength(1);
    expect(diagnosis.ok).toBe(true);
  });

  it('never throws on a description of odd shape', async () => {
    const { diagnosis } = await diagnosed({ apiDescription: () => ({ openapi: '3.0.0', paths: { '/api/v1/invoices': null, '/x': 5 }, components: { schemas: null } }) });
    expect(check(diagnosis, 'drift-routes')).toMatchObject({ status: 'warn', finding: '13 route(s) the SDK wraps are not in the description' });
    expect(check(diagnosis, 'drift-request-fields').status).toBe('pass');
  });

  it('names a status the SDK does not know', async () => {
    const { diagnosis } = await diagnosed({ processingStatus: 'AWAITING_AUTHORITY', processingMs: 1_000 });
    expect(check(diagnosis, 'drift-statuses')).toMatchObject({ status: 'warn', details: ["Invoice.status: 'AWAITING_AUTHORITY'"], hint: expect.stringMatching(/finalStatuses/) });
  });

  it('fails a required request field the SDK does not send; warns a field it sends that the description lacks', async () => {
    const { diagnosis } = await diagnosed({
      apiDescription: (d) => {
        d.components.schemas.CreateInvoiceDto.required.push('currency');
        delete d.components.schemas.InvoiceLineDto.properties.sku;
        return d;
      },
    });
    expect(check(diagnosis, 'drift-request-fields')).toMatchObject({
      status: 'fail',
      details: [
        'CreateInvoiceDto.currency is required by the service; InvoiceCreateParamsSchema has no such field',
        'InvoiceLineSchema.sku is sent by the SDK; InvoiceLineDto has no such property',
      ],
    });
    const onlyUnknown = await diagnosed({ apiDescription: (d) => (delete d.components.schemas.BuyerDto.properties.email, d) });
    expect(check(onlyUnknown.diagnosis, 'drift-request-fields')).toMatchObject({ status: 'warn', details: ['BuyerSchema.email is sent by the SDK; BuyerDto has no such property'] });
  });

  it('names enums that differ, both ways', async () => {
    const { diagnosis } = await diagnosed({
      apiDescription: (d) => {
        d.components.schemas.BuyerDto.properties.type.enum = ['B2B', 'B2C', 'EXPORT'];
        // The SDK sends any scope name (the document does not list them all): no difference there.
        d.components.schemas.CreateApiKeyDto.properties.scopes.items.enum.push('invoices:delete');
        return d;
      },
    });
    expect(check(diagnosis, 'drift-enums')).toMatchObject({
      status: 'warn',
      details: [
        "BuyerDto.type lists 'EXPORT', which BuyerSchema.type refuses",
        "BuyerSchema.type accepts 'B2G', which BuyerDto.type does not list",
      ],
    });
  });

  it('names the wrapped routes the description lacks', async () => {
    const { diagnosis } = await diagnosed({
      routes: { retrieve: false },
      apiDescription: (d) => (delete d.paths['/api/v1/taxauth/hs-codes'], d),
    });
    expect(check(diagnosis, 'drift-routes')).toMatchObject({
      status: 'warn',
      details: ['GET /api/v1/invoices/{id}', 'GET /api/v1/taxauth/hs-codes'],
      hint: expect.stringMatching(/list route/),
    });
  });
});

describe('diagnose: timeout and abort', () => {
  it('gives each request opts.timeout on real timers, and reports the one that ran out', async () => {
    const sandbox = await sandboxOf();
    sandbox.faults.inject({ kind: 'delay', ms: 400, method: 'GET', path: '/api/v1/invoices', times: 1 });
    const started = Date.now();
    const diagnosis = await clientOf(sandbox).diagnose({ timeout: 100 });
    expect(check(diagnosis, 'api-prefix')).toMatchObject({ status: 'warn', finding: expect.stringMatching(/timed out|timeout/i) });
    expect(check(diagnosis, 'page-size').status).toBe('skip');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects when its signal aborts', async () => {
    const sandbox = await sandboxOf();
    await expect(clientOf(sandbox).diagnose({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'APIUserAbortError' });
  });
});

describe('diagnose: strict', () => {
  it('counts warnings as failures', async () => {
    const sandbox = await sandboxOf({ routes: { retrieve: false } });
    await fileOne(sandbox);
    const lenient = await clientOf(sandbox).diagnose();
    expect(lenient).toMatchObject({ ok: true, strict: false });
    expect(lenient.counts.warn).toBeGreaterThan(0);
    expect(await clientOf(sandbox).diagnose({ strict: true })).toMatchObject({ ok: false, strict: true });
  });
});
