#!/usr/bin/env node
/**
 * Polling cost of `client.invoices.waitFor`, on the sandbox's clock (simulated time: a 30-minute
 * recovery takes a fraction of a second of real time, and every figure is exact rather than noisy).
 *
 * 1. Requests to follow a 30-minute automatic recovery: the buyer's access points are offline at
 *    submission, the service's 10-minute retries fail twice and the third succeeds. Counted from the
 *    sandbox's request log, against a naive poll of the same invoice every second, run alongside.
 *    Goal: at most 60 (the naive poll makes about 1,800).
 * 2. How late `waitFor` notices a change when no recovery is in play: the authority accepts after a
 *    delay (many delays, from 0.1 s to 2 minutes); lateness = the moment `waitFor` returns minus the
 *    moment the status changed, both on the sandbox clock. Goal: at most 2 s.
 *
 *   npm run build && node bench/polling.mjs
 */
import { median, quick, report, requireBuild } from './lib/common.mjs';

requireBuild();
const { createSandbox } = await import('invoicing-sdk/testing');

const LINE = { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' };

/** A sandbox whose clock moves only when the waiting side sleeps: exact, and no real waiting. */
async function setup(options) {
  const sandbox = await createSandbox({ listen: false, msw: false, timeScale: 0, ...options });
  const client = sandbox.client({ logLevel: 'off' });
  const clock = { now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(Math.max(0, ms)) };
  const submit = async () => {
    const input = { businessId: sandbox.businessId, buyer: { type: 'B2B', tin: '12345678-0001' }, dueDate: '2026-12-31T00:00:00Z', lines: [LINE] };
    const { invoice } = await client.invoices.createAndFile(input);
    return invoice.id;
  };
  const reads = (id) => sandbox.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/invoices/${id}`)).length;
  return { sandbox, client, clock, submit, reads };
}

// --- 1. Following a 30-minute recovery ---------------------------------------------------------
const recovery = await setup({ scenario: { name: 'offline', recoversOnAttempt: 3 } });
const watched = await recovery.submit();
const start = recovery.clock.now();
const { invoice, failure } = await recovery.client.invoices.waitFor(watched, { timeout: 45 * 60_000, clock: recovery.clock });
const followed = recovery.clock.now() - start;
if (failure !== undefined || invoice.status === 'ERROR') throw new Error(`recovery did not end well: ${JSON.stringify(failure)}`);
const smartReads = recovery.reads(watched);
const settledAt = Date.parse(recovery.sandbox.invoices.get(watched).history.at(-1).at);
const recoveryLateness = start + followed - settledAt;

// The naive way, on a second invoice of the same story: read every second until it settles.
const naive = await setup({ scenario: { name: 'offline', recoversOnAttempt: 3 } });
const naiveId = await naive.submit();
for (;;) {
  const read = await naive.client.invoices.retrieve(naiveId);
  if (read.status !== 'ERROR' && read.status !== 'SUBMITTED') break;
  await naive.clock.sleep(1000);
}
const naiveReads = naive.reads(naiveId);

// --- 2. Lateness outside recovery ---------------------------------------------------------------
const delays = [];
const samples = quick ? 20 : 60;
for (let i = 0; i < samples; i++) delays.push(Math.round(100 * Math.pow(1200, i / (samples - 1)) + ((i * 7919) % 997)));
const lateness = [];
const naiveLateness = [];
const readsPerWait = [];
for (const delay of delays) {
  const env = await setup({ scenario: 'accepted', responseDelayMs: delay });
  const id = await env.submit();
  const changesAt = Date.parse(env.sandbox.invoices.get(id).submittedAt) + delay;
  await env.client.invoices.waitFor(id, { timeout: 10 * 60_000, clock: env.clock });
  lateness.push(env.clock.now() - changesAt);
  readsPerWait.push(env.reads(id));
  await env.sandbox.close();

  // The naive way on the same story: read every second until the status moves.
  const other = await setup({ scenario: 'accepted', responseDelayMs: delay });
  const otherId = await other.submit();
  const otherChangesAt = Date.parse(other.sandbox.invoices.get(otherId).submittedAt) + delay;
  while ((await other.client.invoices.retrieve(otherId)).status === 'SUBMITTED') await other.clock.sleep(1000);
  naiveLateness.push(other.clock.now() - otherChangesAt);
  await other.sandbox.close();
}
await recovery.sandbox.close();
await naive.sandbox.close();

const worst = Math.max(...lateness);
report(
  'Polling',
  [
    {
      measure: 'waitFor: requests to follow a 30-minute automatic recovery',
      value: `${smartReads} reads`,
      baseline: `${naiveReads} reads, naive 1 s poll`,
      ratio: `${((smartReads / naiveReads) * 100).toFixed(1)} %`,
      goal: '≤ 60',
      met: smartReads <= 60,
      raw: { smartReads, naiveReads, followedMs: followed, recoveryLateness },
    },
    {
      measure: `waitFor: how late it notices a change outside recovery (${samples} delays, 0.1 s to 2 min)`,
      value: `median ${(median(lateness) / 1000).toFixed(2)} s, worst ${(worst / 1000).toFixed(2)} s`,
      baseline: `naive 1 s poll: median ${(median(naiveLateness) / 1000).toFixed(2)} s, worst ${(Math.max(...naiveLateness) / 1000).toFixed(2)} s`,
      goal: '≤ 2 s',
      met: worst <= 2000,
      raw: { lateness, naiveLateness, readsPerWait },
    },
  ],
  {
    notes: [
      `Sandbox clock, simulated: waitFor's sleeps advance it. The recovery was followed for ${(followed / 60_000).toFixed(1)} minutes ` +
        `and noticed ${(recoveryLateness / 1000).toFixed(1)} s after the successful retry (it reads just after each retry is due). ` +
        `Outside recovery, a wait made ${median(readsPerWait)} reads (median) for a median delay of ${(median(delays) / 1000).toFixed(1)} s.`,
    ],
  },
);
