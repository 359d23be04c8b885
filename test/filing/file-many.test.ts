import { afterEach, describe, expect, it } from 'vitest';
import { deriveIdempotencyKey } from '../../src/core/idempotency.js';
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

  it('pauses every worker for a 429\'s Retry-After on real timers too (0.3 s)', async () => {
    // The sandbox's clock runs with real time here, so the request log's times are real.
    sandbox = await startSandbox({ timeScale: 1 });
    const client = clientOf(sandbox, { maxRetries: 0 });
    const inputs = Array.from({ length: 12 }, (_, i) => sampleInput(sandbox, i));
    sandbox.faults.inject({ kind: 'status', status: 429, retryAfter: 0.3, skip: 10, path: '*' });

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 4,
      maxRateLimitRetries: 1,
      externalRef: (_input, i) => `B2R-${i}`,
    });

    expect(results.every((r) => r.ok)).toBe(true);
    const log = sandbox.requests;
    const limited = log.findIndex((r) => r.status === 429);
    const at = Date.parse(log[limited]!.time);
    // As on the simulated clock: only requests already in flight land before the pause ends.
    expect(log.slice(limited + 1).filter((r) => Date.parse(r.time) < at + 300).length).toBeLessThanOrEqual(3);
    expect(log.slice(limited + 1).filter((r) => Date.parse(r.time) >= at + 300).length).toBeGreaterThan(20);
  });

  it('records a failure for one input and files the rest', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const inputs = Array.from({ length: 5 }, (_, i) => sampleInput(sandbox, i));
    inputs[2]!.lines = [];

    const results = await client.invoices.fileMany(inputs, { concurrency: 2, externalRef: (_input, i) => `B3-${i}` });

    expect(results.map((r) => r.ok)).toEqual([true, true, false, true, true]);
    expect(results[2]).toMatchObject({ index: 2, ok: false, notStarted: false, error: { name: 'FilingError', step: 'check', cause: { name: 'InvoiceCheckError' } }, invoiceId: undefined });
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

  it('gives a cyclic or 100,000-deep input an InvalidInputError in its own result, with or without externalRef', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const cyclic = sampleInput(sandbox, 2) as unknown as Record<string, unknown>;
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    const deepInput = { ...sampleInput(sandbox, 3), meta: deep } as unknown as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) deep = deep.next = {};
    const inputs = [sampleInput(sandbox, 1), cyclic, deepInput, sampleInput(sandbox, 4)] as never[];

    for (const externalRef of [undefined, (_input: unknown, i: number) => `deep-${i}`]) {
      const results = await client.invoices.fileMany(inputs, { skipChecks: true, ...(externalRef ? { externalRef } : {}) });
      expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
      for (const i of [1, 2]) {
        expect(results[i]).toMatchObject({ ok: false, invoiceId: undefined, error: { name: 'FilingError', step: 'check', cause: { name: 'InvalidInputError' } } });
      }
    }
    expect(sandbox.invoices.count).toBe(4);
  });

  it('files a corrected version of each document under the revision given, per input or for all', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const inputs = [sampleInput(sandbox, 1), sampleInput(sandbox, 2)];
    const externalRef = (_input: unknown, i: number) => `DOC-${i}`;
    await client.invoices.fileMany(inputs, { externalRef });
    inputs[1]!.buyer.name = 'Buyer 2, corrected';

    const results = await client.invoices.fileMany(inputs, { externalRef, revision: (_input, i) => (i === 1 ? 1 : undefined) });

    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => r.idempotencyKey)).toEqual([
      deriveIdempotencyKey(sandbox.businessId, 'DOC-0'),
      deriveIdempotencyKey(sandbox.businessId, 'DOC-1', 1),
    ]);
    expect(sandbox.invoices.count).toBe(3);
    const all = await client.invoices.fileMany(inputs, { externalRef, revision: 1 });
    expect(all[0]?.idempotencyKey).toBe(deriveIdempotencyKey(sandbox.businessId, 'DOC-0', 1));
  });

  it('on stopSignal starts nothing new, lets the invoices in flight finish, and reports the rest not started', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const inputs = Array.from({ length: 10 }, (_, i) => sampleInput(sandbox, i));
    const stop = new AbortController();
    const progress: FileManyProgress[] = [];

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 2,
      stopSignal: stop.signal,
      // Stopped while the first two are mid-filing, right after their signs.
      onStep: (_index, e) => {
        if (e.step === 'sign' && e.state === 'done') stop.abort();
      },
      onProgress: (p) => progress.push(p),
    });

    expect(results.map((r) => r.ok)).toEqual([true, true, ...Array(8).fill(false)]);
    expect(results.slice(0, 2).every((r) => r.ok && r.invoice.status === 'SUBMITTED')).toBe(true);
    expect(results.slice(2)).toEqual(inputs.slice(2).map((_, i) => expect.objectContaining({ index: i + 2, ok: false, notStarted: true, invoiceId: undefined })));
    expect(results.slice(2).every((r) => !('error' in r))).toBe(true);
    expect(sandbox.invoices.count).toBe(2);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
    // Progress reports the two that finished, and carries no records.
    expect(progress.map((p) => [p.done, p.failed])).toEqual([[1, 0], [2, 0]]);
    expect(progress.every((p) => !('invoice' in p.result) && !('raw' in p.result))).toBe(true);
    expect(progress[0]?.result).toMatchObject({ ok: true, status: 'SUBMITTED', invoiceId: expect.any(String) });
  });

  it('on signal aborts the invoices in flight at their step and reports those never begun as not started', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const inputs = Array.from({ length: 6 }, (_, i) => sampleInput(sandbox, i));
    const abort = new AbortController();
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'delay', ms: 5_000, times: Infinity });

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 2,
      signal: abort.signal,
      onStep: (_index, e) => {
        if (e.step === 'sign' && e.state === 'started') setTimeout(() => abort.abort(), 20);
      },
    });

    const [a, b, ...rest] = results;
    for (const r of [a, b]) expect(r).toMatchObject({ ok: false, notStarted: false, invoiceId: expect.any(String), error: { name: 'FilingError', step: 'sign', cause: { name: 'APIUserAbortError' } } });
    expect(rest.every((r) => r.notStarted)).toBe(true);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('refuses an invalid concurrency before any request', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);

    await expect(client.invoices.fileMany([sampleInput(sandbox)], { concurrency: 0 })).rejects.toMatchObject({ name: 'InvoicingError' });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses inputs that are not an array with a typed error, before any request', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    for (const inputs of [undefined, 'abc', { 0: sampleInput(sandbox), length: 1 }]) {
      const filing = client.invoices.fileMany(inputs as never);
      await expect(filing).rejects.toMatchObject({ name: 'InvalidInputError', message: expect.stringMatching(/inputs must be an array/) });
    }
    expect(sandbox.requests).toHaveLength(0);
    // Any other iterable is filed as before.
    const results = await client.invoices.fileMany(new Set([sampleInput(sandbox, 1)]) as never);
    expect(results.map((r) => r.ok)).toEqual([true]);
  });
});
