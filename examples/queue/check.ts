/**
 * The scale-out check CI runs (`npm run test:queue`): 4 worker processes file 500 invoices from a
 * BullMQ queue on a real Redis while workers are killed at random with SIGKILL and replaced, then
 * the sandbox's stored invoices and request log must show, for every document:
 * - exactly one invoice (found by the key derived from the document number),
 * - at most one submit sent, and the invoice submitted exactly once,
 * - none lost: every job completed, every invoice submitted or further.
 *
 * Mid-run the service answers a burst of 429s (Retry-After: 1 s), more than the SDK's own retries
 * absorb, so the queue-wide backoff of worker.ts is exercised too.
 *
 * It starts its own Redis (`redis-server` on a loopback port, unless REDIS_URL is set) and the
 * sandbox as a loopback server, and stops both. Needs dist/ (`npm run build`).
 *
 *   node --import ./scripts/examples-loader.mjs examples/queue/check.ts [--invoices 500] [--workers 4] [--kill-every 30]
 */
import { parseArgs } from 'node:util';
import { deriveIdempotencyKey, isAfterSubmitted, normalizeStatus } from 'invoicing-sdk';
import { createSandbox } from 'invoicing-sdk/testing';
import type * as ScaleOut from './scale-out.js';

// The examples run as TypeScript without a build step (scripts/examples-loader.mjs), which loads
// files by the name they have: so the sibling module is imported by its .ts path, at run time.
const { runScaleOut, startRedis } = (await import(new URL('./scale-out.ts', import.meta.url).href)) as typeof ScaleOut;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { invoices: { type: 'string', default: '500' }, workers: { type: 'string', default: '4' }, 'kill-every': { type: 'string', default: '30' } },
  });
  const invoices = Number(values.invoices);
  const redis = process.env.REDIS_URL ? undefined : await startRedis();
  const sandbox = await createSandbox();
  // A burst of 429s mid-run, more than the SDK's own retries absorb: the queue pauses as one.
  sandbox.faults.inject({ method: 'POST', path: '/invoices/:id/validate', kind: 'status', status: 429, retryAfter: 1, times: 12, skip: 150 });
  const problems: string[] = [];
  try {
    const run = await runScaleOut({
      redisUrl: process.env.REDIS_URL ?? redis!.url,
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      businessId: sandbox.businessId,
      workers: Number(values.workers),
      invoices,
      killEvery: Number(values['kill-every']),
      onProgress: (p) => console.log(`  ${JSON.stringify(p)}`),
    });
    console.log(
      `${run.completed} jobs completed, ${run.failed} failed in ${(run.elapsedMs / 1000).toFixed(1)} s ` +
        `(${run.invoicesPerSecond.toFixed(1)} invoices/s) with ${values.workers} workers; ` +
        `${run.kills} workers killed with SIGKILL and replaced; ${run.resumed} jobs finished by resumeFiling after a crash or failed attempt.`,
    );
    if (run.failed !== 0 || run.completed !== invoices) problems.push(`expected ${invoices} completed jobs, got ${run.completed} (${run.failed} failed)`);
    if (run.kills === 0) problems.push('no worker was killed: the run proves nothing about crashes');

    const stored = sandbox.invoices.list({ businessId: sandbox.businessId });
    const byKey = new Map<string, typeof stored>();
    for (const invoice of stored) byKey.set(invoice.idempotencyKey, [...(byKey.get(invoice.idempotencyKey) ?? []), invoice]);
    const submitsSent = new Map<string, number>();
    for (const request of sandbox.requests) {
      const match = /^\/api\/v1\/invoices\/([^/]+)\/submit$/.exec(request.path);
      if (request.method === 'POST' && match) submitsSent.set(match[1]!, (submitsSent.get(match[1]!) ?? 0) + 1);
    }
    const limited = sandbox.requests.filter((r) => r.status === 429).length;
    const creates = sandbox.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/invoices').length;

    for (const ref of run.refs) {
      const found = byKey.get(deriveIdempotencyKey(sandbox.businessId, ref)) ?? [];
      if (found.length !== 1) {
        problems.push(`${ref}: ${found.length} invoices`);
        continue;
      }
      const invoice = found[0]!;
      const sent = submitsSent.get(invoice.id) ?? 0;
      if (sent > 1) problems.push(`${ref}: submit sent ${sent} times`);
      if (invoice.submissions !== 1) problems.push(`${ref}: submitted ${invoice.submissions} times`);
      const status = normalizeStatus(invoice.status);
      if (status !== 'SUBMITTED' && !isAfterSubmitted(status)) problems.push(`${ref}: lost at ${invoice.status}`);
      const reported = run.results.get(ref);
      if (reported?.invoiceId !== invoice.id) problems.push(`${ref}: the job reported ${reported?.invoiceId ?? 'nothing'}, the service holds ${invoice.id}`);
    }
    if (stored.length !== invoices) problems.push(`${stored.length} invoices stored for ${invoices} documents`);
    console.log(
      `${stored.length} invoices stored for ${invoices} documents; ${creates} create requests (replays of a crashed attempt's key included); ` +
        `${[...submitsSent.values()].reduce((a, b) => a + b, 0)} submits sent; ${limited} requests answered 429.`,
    );
  } finally {
    await sandbox.close();
    await redis?.stop();
  }
  if (problems.length > 0) {
    console.error(`FAILED (${problems.length}):\n  ${problems.slice(0, 50).join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('OK: exactly one invoice and at most one submit per document, none lost.');
  }
}

await main();
