/**
 * Concurrency: several independent clients (separate `InvoicingClient` instances, as separate
 * processes or servers would have) file the same documents at the same moment, each document
 * identified by its `externalRef`, so every client derives the same idempotency key. Whatever the
 * interleaving, each document becomes exactly one invoice, submitted exactly once, and every call
 * reports that same invoice. Connections dropped after the server committed are mixed in, so some
 * calls only learn the outcome by replaying or reading back.
 *
 * CI runs 4 clients × 25 documents; `npm run test:faults` runs 8 × 150 and prints the counts.
 * Each client keeps up to 8 calls in flight, all clients going through the documents in the same
 * order, so they collide on every document.
 */
import { describe, expect, it } from 'vitest';
import type { InvoicingClient } from '../../src/client.js';
import { isFilingError } from '../../src/core/errors.js';
import { createSandbox } from '../../src/testing/index.js';
import { sandboxWaitClock } from './support/filing.js';
import { sampleInput } from './support/fixtures.js';
import { report, scaled } from './support/scale.js';

const CLIENTS = scaled('clients', 4, 8);
const DOCUMENTS = scaled('documents', 25, 150);
/** Calls in flight per client. */
const WORKERS = 8;

const input = sampleInput;

describe('concurrency: the same documents from several clients at once', () => {
  it(`files each of ${DOCUMENTS} documents once, though ${CLIENTS} clients file every one of them concurrently`, async () => {
    await using sandbox = await createSandbox({ timeScale: 0 });
    const clock = sandboxWaitClock(sandbox);
    const clients: InvoicingClient[] = Array.from({ length: CLIENTS }, () => sandbox.client({ timeout: 5_000, logLevel: 'off' }));
    // Some creates and signs commit and then lose their answer.
    sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-after', times: Math.ceil(DOCUMENTS / 5) });
    sandbox.faults.inject({ method: 'POST', path: '/invoices/:id/sign', kind: 'drop-after', times: Math.ceil(DOCUMENTS / 5) });

    let resumes = 0;
    const stops = new Map<string, number>();
    /** Files document `n` through `client`, resuming after any stop, and returns the invoice id. */
    const file = async (client: InvoicingClient, n: number): Promise<string> => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          const { invoice } = await client.invoices.createAndFile(input(sandbox.businessId, n), { externalRef: `order-${n}`, clock });
          return invoice.id;
        } catch (error) {
          if (!isFilingError(error)) throw error;
          resumes += 1;
          const cause = error.cause as Error | undefined;
          const what = `${error.step}: ${cause?.name ?? 'no cause'}`;
          stops.set(what, (stops.get(what) ?? 0) + 1);
        }
      }
      throw new Error(`order-${n} not filed after 20 attempts`);
    };

    // Every client files every document, in the same order, with up to WORKERS calls in flight
    // each: the clients collide on each document at about the same moment, as a herd of 1,200
    // simultaneous calls would, without turning the test into a load test of one loopback server.
    const results: { n: number; id: string }[] = [];
    await Promise.all(
      clients.map(async (client) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: WORKERS }, async () => {
            for (let n = next++; n < DOCUMENTS; n = next++) results.push({ n, id: await file(client, n) });
          }),
        );
      }),
    );

    const stored = sandbox.invoices.list();
    const byRef = new Map<number, Set<string>>();
    for (const { n, id } of results) byRef.set(n, (byRef.get(n) ?? new Set()).add(id));
    const submits = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/submit'));
    const accepted = submits.filter((r) => r.committed);
    const refused = sandbox.requests.filter((r) => r.method === 'POST' && /\/(validate|sign|submit)$/.test(r.path) && r.status === 409);

    report('concurrency', {
      clients: CLIENTS,
      documents: DOCUMENTS,
      'createAndFile calls': results.length,
      'calls in flight per client': WORKERS,
      'resumed after a FilingError': resumes,
      'stops, by step and cause': Object.fromEntries(stops),
      'invoices stored': stored.length,
      'accepted submits': accepted.length,
      'transitions refused because another client got there first (read back, counted done)': refused.length,
      'duplicates found': stored.length - DOCUMENTS,
    });
    expect(results).toHaveLength(CLIENTS * DOCUMENTS);
    // One invoice per document, and every call for a document names it.
    expect(stored).toHaveLength(DOCUMENTS);
    for (const [n, ids] of byRef) expect([...ids], `order-${n}`).toHaveLength(1);
    expect(new Set(stored.map((s) => s.id))).toEqual(new Set(results.map((r) => r.id)));
    // Submitted once each, whoever sent it.
    expect(accepted).toHaveLength(DOCUMENTS);
    for (const invoice of stored) expect(invoice.submissions, invoice.id).toBe(1);
  }, 300_000);

  it('fileMany from two clients over the same inputs files each input once', async () => {
    await using sandbox = await createSandbox({ timeScale: 0 });
    const clock = sandboxWaitClock(sandbox);
    const inputs = Array.from({ length: DOCUMENTS }, (_, n) => input(sandbox.businessId, 1000 + n));
    const [a, b] = await Promise.all(
      [0, 1].map(() => sandbox.client({ timeout: 5_000, logLevel: 'off' }).invoices.fileMany(inputs, { concurrency: 4, externalRef: (_i, index) => `batch-${index}`, clock })),
    );
    const failed = [...a!, ...b!].filter((r) => !r.ok);
    expect(failed.map((r) => (r.ok || r.notStarted ? 'not started' : r.error.message))).toEqual([]);
    expect(sandbox.invoices.count).toBe(DOCUMENTS);
    for (const [i, r] of a!.entries()) expect(r.ok && b![i]!.ok && r.invoice.id === b![i]!.invoice.id, `input ${i}`).toBe(true);
    for (const invoice of sandbox.invoices.list()) expect(invoice.submissions).toBe(1);
  }, 300_000);
});
