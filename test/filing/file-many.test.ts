import { afterEach, describe, expect, it } from 'vitest';
import type { FileManyProgress } from '../../src/filing/file-many.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, sampleInput, sandboxClock, sends, startSandbox } from './helpers.js';

describe('filing/file-many (client.invoices.fileMany)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('files 500 invoices through injected 429s: 500 results, one invoice each', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { maxRetries: 0 });
    const inputs = Array.from({ length: 500 }, (_, i) => sampleInput(sandbox, i));
    sandbox.faults.inject({ kind: 'status', status: 429, retryAfter: 2, times: 25, skip: 40, path: '*' });
    sandbox.faults.inject({ kind: 'status', status: 429, retryAfter: 1, times: 25, skip: 200, path: '/invoices/:id/sign' });
    let last: FileManyProgress | undefined;

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 8,
      // The client retries nothing (maxRetries: 0); a bulk run against a rate limit asks for more.
      maxRateLimitRetries: 10,
      externalRef: (_input, i) => `BATCH-1-${i}`,
      clock: sandboxClock(sandbox),
      onProgress: (p) => (last = p),
    });

    expect(results).toHaveLength(500);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.map((r) => r.index)).toEqual(inputs.map((_, i) => i));
    expect(sandbox.requests.filter((r) => r.status === 429).length).toBe(50);
    expect(sandbox.invoices.count).toBe(500);
    const stored = sandbox.invoices.list();
    expect(stored.every((inv) => inv.submissions === 1)).toBe(true);
    expect(new Set(stored.map((inv) => inv.idempotencyKey)).size).toBe(500);
    expect(last).toMatchObject({ total: 500, done: 500, succeeded: 500, failed: 0 });
  });

  it('pauses every worker for the Retry-After of a 429 any of them gets', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { maxRetries: 0 });
    const inputs = Array.from({ length: 40 }, (_, i) => sampleInput(sandbox, i));
    sandbox.faults.inject({ kind: 'status', status: 429, retryAfter: 30, skip: 20, path: '*' });

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 4,
      maxRateLimitRetries: 1,
      externalRef: (_input, i) => `B2-${i}`,
      clock: sandboxClock(sandbox),
    });

    expect(results.every((r) => r.ok)).toBe(true);
    const log = sandbox.requests;
    const limited = log.findIndex((r) => r.status === 429);
    const at = Date.parse(log[limited]!.time);
    // Requests already in flight when the 429 came back may land; no worker starts a new one
    // until the 30 seconds have passed.
    const during = log.slice(limited + 1).filter((r) => Date.parse(r.time) < at + 30_000);
    expect(during.length).toBeLessThanOrEqual(3);
    expect(log.slice(limited + 1).filter((r) => Date.parse(r.time) >= at + 30_000).length).toBeGreaterThan(100);
  });

  it('records a failure for one input and files the rest', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const inputs = Array.from({ length: 5 }, (_, i) => sampleInput(sandbox, i));
    inputs[2]!.lines = [];

    const results = await client.invoices.fileMany(inputs, { concurrency: 2, externalRef: (_input, i) => `B3-${i}` });

    expect(results.map((r) => r.ok)).toEqual([true, true, false, true, true]);
    expect(results[2]).toMatchObject({ index: 2, ok: false, error: { name: 'InvoiceCheckError' }, invoiceId: undefined });
    expect(sandbox.invoices.count).toBe(4);
    // Each create carried its derived key; the transitions never reuse it.
    const keys = new Set(results.map((r) => r.idempotencyKey));
    expect(sends(sandbox, 'create').every((r) => keys.has(r.idempotencyKey))).toBe(true);
    expect(sends(sandbox, 'sign').some((r) => keys.has(r.idempotencyKey))).toBe(false);
  });

  it('files nothing twice when re-run after a crash', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { maxRetries: 0 });
    const inputs = Array.from({ length: 30 }, (_, i) => sampleInput(sandbox, i));
    // The first run "crashes" part-way: every submit after the 10th fails for good.
    const fault = sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before', skip: 10, times: Infinity });
    const first = await client.invoices.fileMany(inputs, { concurrency: 4, maxRetries: 0, clock: sandboxClock(sandbox) });
    expect(first.filter((r) => r.ok)).toHaveLength(10);
    expect(first.find((r) => !r.ok)).toMatchObject({ error: { name: 'FilingError', step: 'submit' } });
    fault.remove();

    // Same inputs, no externalRef: keys derived from the content find the same invoices.
    const second = await client.invoices.fileMany(inputs, { concurrency: 4 });

    expect(second.every((r) => r.ok)).toBe(true);
    expect(sandbox.invoices.count).toBe(30);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
    expect(sends(sandbox, 'create')).toHaveLength(60);
  });

  it('reports an input that repeats another document instead of filing it', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const input = sampleInput(sandbox);

    const results = await client.invoices.fileMany([input, { ...input }, sampleInput(sandbox, 2)]);

    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]).toMatchObject({ error: { message: expect.stringMatching(/same document as input 0/) } });
    expect(sandbox.invoices.count).toBe(2);
  });

  it('refuses an invalid concurrency before any request', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);

    await expect(client.invoices.fileMany([sampleInput(sandbox)], { concurrency: 0 })).rejects.toMatchObject({ name: 'InvoicingError' });
    expect(sandbox.requests).toHaveLength(0);
  });
});
