/**
 * The malformed-responses catalogue: every resource method (and every filing helper built on them)
 * meets every kind of broken answer, and the outcome is a typed SDK error every time, never a
 * `TypeError` or any other stray exception.
 *
 * Part 1 spoils the real answers of the sandbox (the server acts first, as a broken proxy in front
 * of a working service would): HTML, empty body, truncated JSON, wrong envelope, `success: false`,
 * missing `data`, and a huge body, each with the real status and with a 502. Part 2 answers every
 * route of a scripted loopback server with shapes the sandbox does not produce (JSON `null`, a bare
 * array, a BOM, invalid UTF-8, a huge HTML page, `data` of the wrong type, …). Huge means 5 MiB in a
 * full run and 1 MiB in CI.
 *
 * A few answers are not errors and resolve, each for a documented reason checked here: a huge body
 * that is a valid envelope is simply a large answer; `apiKeys.revoke` counts any 2xx as revoked
 * (the service does not show the body) and the sandbox confirms the key is revoked; the code
 * lookups accept a bare list (their body is not shown either).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import type { WaitClock } from '../../src/filing/clock.js';
import { isInvoicingError } from '../../src/core/errors.js';
import { createSandbox, type MalformedVariant, type Sandbox } from '../../src/testing/index.js';
import { instantClock, sandboxWaitClock } from './support/filing.js';
import { sampleInput } from './support/fixtures.js';
import { envelope, startLoopback, type Loopback } from './support/loopback.js';
import { expectTyped, outcomeOf, type Outcome } from './support/outcomes.js';
import { report, scaled } from './support/scale.js';

const input = sampleInput;

/** What a method needs before the fault goes in: ids of things in the right state. */
interface Prepared {
  invoiceId: string;
  keyId: string;
  n: number;
}

/** Where a call runs: the business to file for and the clock the filing helpers pause on. */
interface Env {
  businessId: string;
  clock: WaitClock;
}

interface Method {
  name: string;
  /** Brings the sandbox to a state where the call makes sense (faults are not in force yet). */
  prepare?: (client: InvoicingClient, sandbox: Sandbox, n: number) => Promise<Partial<Prepared>>;
  call: (client: InvoicingClient, p: Prepared, env: Env) => Promise<unknown>;
}

const draft = async (client: InvoicingClient, sandbox: Sandbox, n: number, through: ('validate' | 'sign' | 'submit')[] = []) => {
  const invoice = await client.invoices.create(input(sandbox.businessId, n));
  for (const step of through) await client.invoices[step](invoice.id);
  return { invoiceId: invoice.id };
};

/** Every public method that talks to the service. */
const METHODS: Method[] = [
  { name: 'invoices.create', call: (c, p, e) => c.invoices.create(input(e.businessId, p.n)) },
  { name: 'invoices.retrieve', prepare: (c, s, n) => draft(c, s, n), call: (c, p) => c.invoices.retrieve(p.invoiceId) },
  { name: 'invoices.list (one page)', prepare: (c, s, n) => draft(c, s, n), call: (c) => c.invoices.list().then((page) => page.data) },
  {
    name: 'invoices.list (every page)',
    prepare: (c, s, n) => draft(c, s, n),
    call: async (c) => {
      const all = [];
      for await (const invoice of c.invoices.list({ limit: 1 })) all.push(invoice);
      return all;
    },
  },
  { name: 'invoices.validate', prepare: (c, s, n) => draft(c, s, n), call: (c, p, e) => c.invoices.validate(p.invoiceId, { clock: e.clock }) },
  { name: 'invoices.sign', prepare: (c, s, n) => draft(c, s, n, ['validate']), call: (c, p, e) => c.invoices.sign(p.invoiceId, { clock: e.clock }) },
  { name: 'invoices.submit', prepare: (c, s, n) => draft(c, s, n, ['validate', 'sign']), call: (c, p, e) => c.invoices.submit(p.invoiceId, { clock: e.clock }) },
  {
    name: 'invoices.waitFor',
    prepare: (c, s, n) => draft(c, s, n, ['validate', 'sign', 'submit']),
    call: (c, p, e) => c.invoices.waitFor(p.invoiceId, { timeout: 60_000, clock: e.clock }),
  },
  {
    name: 'invoices.createAndFile',
    call: (c, p, e) => c.invoices.createAndFile(input(e.businessId, p.n), { externalRef: `malformed-${p.n}`, clock: e.clock }),
  },
  { name: 'invoices.resumeFiling', prepare: (c, s, n) => draft(c, s, n, ['validate']), call: (c, p, e) => c.invoices.resumeFiling(p.invoiceId, { clock: e.clock }) },
  {
    name: 'invoices.fileMany',
    call: async (c, p, e) => {
      const results = await c.invoices.fileMany([input(e.businessId, p.n), input(e.businessId, p.n + 0.5)], { clock: e.clock });
      const failed = results.find((r) => !r.ok);
      // One result per input; a failure is reported in its result, so surface it for the check.
      expect(results).toHaveLength(2);
      if (failed !== undefined && !failed.ok && !failed.notStarted) throw failed.error;
      return results;
    },
  },
  {
    name: 'apiKeys.create',
    // A BUSINESS key: creating it replaces only other BUSINESS keys, never the sandbox's USER key.
    call: (c, p, e) => c.apiKeys.create({ name: `k${p.n}`, type: 'LIVE', keyableType: 'BUSINESS', businessId: e.businessId, scopes: ['invoices:read'] }),
  },
  { name: 'apiKeys.list', call: (c) => c.apiKeys.list() },
  { name: 'apiKeys.retrieve', prepare: async (_c, s) => ({ keyId: s.createApiKey().id }), call: (c, p) => c.apiKeys.retrieve(p.keyId) },
  { name: 'apiKeys.reveal', prepare: async (_c, s) => ({ keyId: s.createApiKey().id }), call: (c, p) => c.apiKeys.reveal(p.keyId) },
  { name: 'apiKeys.revoke', prepare: async (_c, s) => ({ keyId: s.createApiKey().id }), call: (c, p) => c.apiKeys.revoke(p.keyId) },
  { name: 'codes.hsCodes', call: (c) => c.codes.hsCodes({ search: '8471' }) },
  { name: 'codes.serviceCodes', call: (c) => c.codes.serviceCodes() },
];

/** Size of the `huge` answers: 5 MiB in a full run, 1 MiB in CI. */
const HUGE_BYTES = scaled('huge_bytes', 1024 * 1024, 5 * 1024 * 1024);

const VARIANTS: readonly MalformedVariant[] = ['html', 'truncated-json', 'empty', 'wrong-envelope', 'success-false', 'missing-data', 'huge'];

/** The documented answers that resolve rather than fail (see the module comment). */
function resolves(method: string, variant: MalformedVariant, status: number | undefined): boolean {
  if (status !== undefined) return false; // a 502 is an error whatever its body
  if (variant === 'huge') return true;
  if (method === 'apiKeys.revoke') return true;
  return method.startsWith('codes.') && variant === 'wrong-envelope';
}

describe('malformed responses: every method, every broken answer of the sandbox', () => {
  let sandbox: Sandbox;
  let n = 0;
  const tally = { calls: 0, typedErrors: 0, resolved: 0 };

  beforeAll(async () => {
    sandbox = await createSandbox({ timeScale: 0 });
  });
  afterAll(async () => {
    await sandbox.close();
    report('malformed responses (sandbox)', { methods: METHODS.length, answers: VARIANTS.length * 2 - 1, ...tally });
    expect(tally.calls).toBe(METHODS.length * (VARIANTS.length * 2 - 1));
  });

  for (const variant of VARIANTS) {
    for (const status of variant === 'huge' ? [undefined] : [undefined, 502]) {
      it(`${variant}${status ? ` with ${status}` : ''}: a typed error from every method`, async () => {
        const failures: string[] = [];
        for (const method of METHODS) {
          sandbox.faults.clear();
          n += 1;
          // A fresh client each time: nothing cached from an earlier call (code lookups) helps.
          const setup = sandbox.client({ maxRetries: 0 });
          const prepared: Prepared = { invoiceId: '', keyId: '', n, ...(await method.prepare?.(setup, sandbox, n)) };
          sandbox.faults.inject({ path: '*', kind: 'malformed', variant, times: Infinity, bytes: HUGE_BYTES, ...(status ? { status } : {}) });
          const client = sandbox.client({ maxRetries: 0, timeout: 10_000 });
          const outcome: Outcome = await outcomeOf(() => method.call(client, prepared, { businessId: sandbox.businessId, clock: sandboxWaitClock(sandbox) }));
          tally.calls += 1;
          const where = `${method.name} / ${variant}${status ? ` ${status}` : ''}`;
          if (outcome.kind === 'error') {
            tally.typedErrors += 1;
            failures.push(...expectTyped(outcome.error, where));
            if (resolves(method.name, variant, status)) failures.push(`${where}: expected to resolve, threw ${String(outcome.error)}`);
          } else {
            tally.resolved += 1;
            if (!resolves(method.name, variant, status)) failures.push(`${where}: resolved, expected a typed error`);
          }
          if (method.name === 'apiKeys.revoke' && outcome.kind === 'value') {
            // Resolving means "revoked": the service must agree.
            sandbox.faults.clear();
            const key = await sandbox.client().apiKeys.retrieve(prepared.keyId);
            if (key.raw.status !== 'revoked') failures.push(`${where}: resolved but the key is ${String(key.raw.status)}`);
          }
        }
        expect(failures).toEqual([]);
      }, 60_000);
    }
  }
});

/** Shapes the sandbox does not produce, written raw by a scripted server for every route. */
const RAW_SHAPES: { name: string; status: number; contentType: string; body: () => string | Buffer }[] = [
  { name: 'JSON null', status: 200, contentType: 'application/json', body: () => 'null' },
  { name: 'a bare JSON array', status: 200, contentType: 'application/json', body: () => '[1,2,3]' },
  { name: 'a JSON number', status: 200, contentType: 'application/json', body: () => '42' },
  { name: 'a JSON string', status: 200, contentType: 'application/json', body: () => '"ok"' },
  { name: 'success as the string "true"', status: 200, contentType: 'application/json', body: () => JSON.stringify({ success: 'true', data: { id: 'x' } }) },
  { name: 'data: null', status: 200, contentType: 'application/json', body: () => JSON.stringify(envelope(null)) },
  { name: 'data of the wrong type', status: 200, contentType: 'application/json', body: () => JSON.stringify(envelope('a string where a record belongs')) },
  { name: 'records that are not objects', status: 200, contentType: 'application/json', body: () => JSON.stringify(envelope([1, 'two', null], { meta: { total: 3, page: 1, limit: 10, totalPages: 1 } })) },
  { name: 'a byte-order mark before the JSON', status: 200, contentType: 'application/json', body: () => `\uFEFF${JSON.stringify({ success: false })}` },
  { name: 'invalid UTF-8', status: 200, contentType: 'application/json', body: () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d]) },
  { name: 'JSON nested 100,000 deep', status: 200, contentType: 'application/json', body: () => '['.repeat(100_000) + ']'.repeat(100_000) },
  { name: 'a huge HTML page', status: 200, contentType: 'text/html', body: () => `<html><head><title>Portal</title></head><body>${'<p>x</p>'.repeat(HUGE_BYTES / 8)}</body></html>` },
  { name: 'a huge HTML page with 503', status: 503, contentType: 'text/html', body: () => `<html><body>${'<p>down</p>'.repeat(Math.floor(HUGE_BYTES / 11))}</body></html>` },
  { name: 'an error status with truncated JSON', status: 400, contentType: 'application/json', body: () => '{"statusCode":400,"message":["lines.0' },
  { name: 'an error status with an empty body', status: 500, contentType: 'application/json', body: () => '' },
  { name: 'an error status with a JSON array', status: 409, contentType: 'application/json', body: () => '[null,{"message":7}]' },
];

/**
 * Outcomes that resolve for a raw shape, each documented: revoke on any 2xx; the code lookups on a
 * bare list whose entries are strings or numbers (their body is not shown, and a code list may be
 * just the codes); reveal on `data` that is a string (the secret itself).
 */
function rawResolves(method: string, shape: (typeof RAW_SHAPES)[number]): boolean {
  if (method === 'apiKeys.revoke') return shape.status < 300;
  if (method === 'apiKeys.reveal') return shape.name === 'data of the wrong type';
  return method.startsWith('codes.') && (shape.name === 'a bare JSON array' || shape.name === 'records that are not objects');
}

describe('malformed responses: every method, raw shapes from a scripted server', () => {
  let server: Loopback;
  let current: (typeof RAW_SHAPES)[number] = RAW_SHAPES[0]!;

  beforeAll(async () => {
    server = await startLoopback((_req, res) => {
      const body = current.body();
      res.writeHead(current.status, { 'content-type': current.contentType, 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
  });
  afterAll(() => server.close());

  for (const shape of RAW_SHAPES) {
    it(`${shape.name}: a typed error from every method`, async () => {
      current = shape;
      const failures: string[] = [];
      for (const method of METHODS) {
        const client = new InvoicingClient({ baseUrl: server.origin, apiKey: 'sk_live_raw_shapes_key', sessionToken: 'sess_raw_shapes', maxRetries: 0, logLevel: 'off' });
        const prepared: Prepared = { invoiceId: 'inv_raw', keyId: 'key_raw', n: 1 };
        const outcome = await outcomeOf(() => method.call(client, prepared, { businessId: 'biz_1', clock: instantClock() }));
        const where = `${method.name} / ${shape.name}`;
        if (outcome.kind === 'error') {
          failures.push(...expectTyped(outcome.error, where));
          if (rawResolves(method.name, shape)) failures.push(`${where}: expected to resolve, threw ${String(outcome.error)}`);
        } else if (!rawResolves(method.name, shape)) {
          failures.push(`${where}: resolved with ${JSON.stringify(outcome.value)?.slice(0, 200)}, expected a typed error`);
        }
      }
      expect(failures).toEqual([]);
    }, 60_000);
  }
});

describe('malformed responses: the checks themselves', () => {
  it('expectTyped rejects a TypeError, a plain Error and a FilingError caused by one', async () => {
    const { FilingError } = await import('../../src/core/errors.js');
    expect(expectTyped(new TypeError('x'), 'w')).not.toEqual([]);
    expect(expectTyped(new Error('x'), 'w')).not.toEqual([]);
    expect(expectTyped(new FilingError({ invoiceId: 'i', step: 'sign', cause: new TypeError('y') }), 'w')).not.toEqual([]);
    expect(isInvoicingError(new FilingError({ invoiceId: 'i', step: 'sign', cause: undefined }))).toBe(true);
  });
});
