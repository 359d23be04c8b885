/**
 * Test your integration with the sandbox: no service, no network, no waiting.
 *
 * `createSandbox()` from `invoicing-sdk/testing` is an in-memory copy of the service on a loopback
 * port: the same routes, statuses and errors, plus what a test needs: a clock to jump over the
 * service's 10-minute retries, fault injection per route, a request log and the stored invoices.
 * This file is a small `node:test` suite of the kind you would write for your own code
 * (`fileOrder` stands for it); vitest works the same way (docs/testing.md).
 *
 * It starts its own sandbox and needs no environment. Run it with:
 *   npm run examples -- test-with-sandbox
 * or, as a test file, with node --test (Node 22.18+ runs .ts directly; older: add
 * --import ./scripts/examples-loader.mjs).
 * Guide: docs/testing.md
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { InvoicingClient, type WaitClock } from 'invoicing-sdk';
import { createSandbox, type Sandbox } from 'invoicing-sdk/testing';

/** Your code under test: files one order and returns the invoice id. */
async function fileOrder(client: InvoicingClient, order: { businessId: string; number: string; amount: number }): Promise<string> {
  const { invoice } = await client.invoices.createAndFile(
    {
      businessId: order.businessId,
      buyer: { type: 'B2B', tin: '20456789-0001', name: 'Acme Ltd' },
      dueDate: '2026-12-31T00:00:00Z',
      lines: [{ description: 'Consulting', quantity: 1, unitPrice: order.amount, taxRate: 7.5, isicCode: '6202' }],
    },
    { externalRef: order.number },
  );
  return invoice.id;
}

let sandbox: Sandbox;
before(async () => {
  sandbox = await createSandbox();
});
beforeEach(() => sandbox.reset());
after(() => sandbox.close());

test('files an order once, with the totals the tax authority computes', async () => {
  const id = await fileOrder(sandbox.client(), { businessId: sandbox.businessId, number: 'ORD-1', amount: 200 });
  const stored = sandbox.invoices.get(id);
  assert.equal(stored?.status, 'Submitted');
  assert.equal(stored?.total, '215.00');
  assert.equal(stored?.submissions, 1);
  // The request log: one create, each transition sent once.
  const posts = sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.path.replace(id, ':id'));
  assert.deepEqual(posts, ['/api/v1/invoices', '/api/v1/invoices/:id/validate', '/api/v1/invoices/:id/sign', '/api/v1/invoices/:id/submit']);
});

test('a lost answer is not sent twice: the SDK reads the invoice back first', async () => {
  // The service signs the invoice, then the connection drops before the answer arrives.
  const fault = sandbox.faults.inject({ method: 'POST', path: '/invoices/:id/sign', kind: 'drop-after' });
  const id = await fileOrder(sandbox.client(), { businessId: sandbox.businessId, number: 'ORD-2', amount: 90 });
  assert.equal(fault.hits, 1);
  assert.equal(sandbox.requests.filter((r) => r.path.endsWith('/sign')).length, 1);
  assert.equal(sandbox.invoices.get(id)?.submissions, 1);
});

test('a re-run with the same reference finds the invoice instead of filing another', async () => {
  const client = sandbox.client();
  const first = await fileOrder(client, { businessId: sandbox.businessId, number: 'ORD-3', amount: 50 });
  const again = await fileOrder(client, { businessId: sandbox.businessId, number: 'ORD-3', amount: 50 });
  assert.equal(again, first);
  assert.equal(sandbox.invoices.count, 1);
});

test('waits through the service’s automatic recovery in no real time', async () => {
  sandbox.setScenario({ name: 'offline', recoversOnAttempt: 2 });
  const client = sandbox.client();
  const id = await fileOrder(client, { businessId: sandbox.businessId, number: 'ORD-4', amount: 300 });
  // Every pause of waitFor moves the sandbox's clock: two 10-minute retries pass at once.
  const clock: WaitClock = { now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(ms) };
  const started = Date.now();
  const { invoice, failure } = await client.invoices.waitFor(id, { clock });
  assert.equal(invoice.status, 'ACCEPTED');
  assert.equal(failure, undefined);
  assert.equal(sandbox.invoices.get(id)?.submissions, 1, 'the SDK never re-submitted during recovery');
  assert.ok(Date.now() - started < 10_000);
});

test('a 429 is retried after its Retry-After', async () => {
  const fault = sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 429, retryAfter: 1 });
  const client = sandbox.client();
  const id = await fileOrder(client, { businessId: sandbox.businessId, number: 'ORD-5', amount: 10 });
  const invoice = await client.invoices.retrieve(id);
  assert.equal(invoice.id, id);
  assert.equal(fault.hits, 1);
});
