#!/usr/bin/env node
/**
 * Request cost of `client.invoices.watch`, on the sandbox's clock (simulated time: the watch's
 * sleeps advance it, so every figure is exact rather than noisy).
 *
 * A business holds 1,500 invoices: 1,000 submitted (two in every three, interleaved with 500
 * drafts, so the submitted ones are spread over all 15 listing pages of 100) are followed. Between
 * ticks the tax authority answers a random 3 % of those still pending (Accepted or Rejected), so the
 * set shrinks over the run as it would in production. Counted from the sandbox's request log:
 * - requests per tick. Goal: at most 20 (naive per-invoice polling: one GET per pending invoice,
 *   1,000 on the first tick);
 * - lateness of each change, in ticks. Goal: every change seen at the tick right after it happened.
 *
 *   npm run build && node bench/watch.mjs [--quick]
 */
import { quick, report, requireBuild } from './lib/common.mjs';

requireBuild();
const { createSandbox } = await import('invoicing-sdk/testing');

const TOTAL = quick ? 300 : 1_500;
const TICK_MS = 2_000;
const ANSWERED_PER_TICK = 0.03;

const sandbox = await createSandbox({ listen: false, msw: false, timeScale: 0, responseDelayMs: 1e12 });
const client = sandbox.client({ logLevel: 'off' });
const input = (n) => ({
  businessId: sandbox.businessId,
  buyer: { type: 'B2B', tin: '12345678-0001', name: `Buyer ${n}` },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: `Consulting #${n}`, quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' }],
});

// Created in order, so the listing (oldest first) interleaves drafts and submitted invoices.
const followed = [];
for (let n = 0; n < TOTAL; n += 1) {
  const draft = await client.invoices.create(input(n));
  if (n % 3 === 2) continue;
  await client.invoices.validate(draft.id);
  await client.invoices.sign(draft.id);
  await client.invoices.submit(draft.id);
  followed.push(draft.id);
}
sandbox.clearRequests();

// A seeded generator: the same run every time.
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);

const pending = new Set(followed);
const changedAtTick = new Map();
const perTick = [];
const naivePerTick = [];
let logged = 0;
let watch;
let lastTick = 0;

function endOfTick(tick) {
  perTick.push(sandbox.requests.length - logged);
  logged = sandbox.requests.length;
  naivePerTick.push(pending.size);
  for (const id of pending) {
    if (random() >= ANSWERED_PER_TICK) continue;
    sandbox.invoices.update(id, { status: random() < 0.9 ? 'Accepted' : 'Rejected' });
    changedAtTick.set(id, tick);
  }
  // Pending = not yet answered by the authority (what a naive poll still reads next tick).
  for (const id of changedAtTick.keys()) pending.delete(id);
}

const clock = {
  now: () => sandbox.clock.now(),
  sleep: async (ms) => {
    const tick = watch?.stats.ticks ?? 0;
    if (tick !== lastTick) {
      lastTick = tick;
      endOfTick(tick);
    }
    sandbox.clock.advance(Math.max(0, ms));
  },
};

const lateness = [];
let firstSeen = 0;
const started = performance.now();
watch = client.invoices.watch(followed, { interval: TICK_MS, clock });
for await (const change of watch) {
  if (change.kind !== 'status') continue;
  if (change.previous === undefined) firstSeen += 1;
  else lateness.push(change.tick - changedAtTick.get(change.id));
}
const elapsed = performance.now() - started;
// The last tick ends the watch without sleeping: count its requests too.
perTick.push(sandbox.requests.length - logged);
naivePerTick.push(pending.size);
await sandbox.close();

const worstTick = Math.max(...perTick);
const total = perTick.reduce((a, b) => a + b, 0);
const naiveTotal = naivePerTick.reduce((a, b) => a + b, 0);
const worstLate = Math.max(...lateness);
report(
  'Watch',
  [
    {
      measure: `watch: requests per tick following ${followed.length} submitted invoices among ${TOTAL}`,
      value: `worst ${worstTick}, first tick ${perTick[0]}, ${(total / perTick.length).toFixed(1)} on average over ${perTick.length} ticks`,
      baseline: `naive per-invoice poll: ${naivePerTick[0]} on the first tick, ${(naiveTotal / naivePerTick.length).toFixed(0)} on average`,
      ratio: `${((total / naiveTotal) * 100).toFixed(1)} %`,
      goal: '≤ 20',
      met: worstTick <= 20,
      raw: { perTick, naivePerTick },
    },
    {
      measure: `watch: ticks between an invoice's change and the watch reporting it (${lateness.length} changes)`,
      value: `worst ${worstLate}, every change ${lateness.every((l) => l === 1) ? 'at the next tick' : 'NOT always at the next tick'}`,
      goal: '1',
      met: worstLate === 1 && lateness.length === followed.length && firstSeen === followed.length,
    },
  ],
  {
    notes: [
      `Sandbox clock, simulated, ${TICK_MS / 1000} s ticks; the authority answered ${(ANSWERED_PER_TICK * 100).toFixed(0)} % of the pending invoices each tick. ` +
        `${total} requests in all against ${naiveTotal} for a naive per-invoice poll; ${(elapsed / 1000).toFixed(1)} s of real time.`,
    ],
  },
);
