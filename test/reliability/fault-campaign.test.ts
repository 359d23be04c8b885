/**
 * The fault campaign: random schedules of faults (fast-check) on every route of the filing flow —
 * create, read, validate, sign, submit — against the sandbox's real loopback server: connections
 * dropped before the server acts and after it committed, 429 and 503 with `Retry-After`, answers
 * slower than the timeout (before and after acting), bodies that stall, truncated and HTML bodies.
 * Each schedule files one invoice with `createAndFile`; every `FilingError` is resumed, with
 * `resumeFiling(err.invoiceId)` or by running `createAndFile` again with the same `externalRef`,
 * until the invoice is filed. Judged from the sandbox's own records, every schedule ends with:
 * exactly one invoice, exactly one accepted submit, no transition sent to an invoice already past
 * it, one idempotency key for every create, and every FilingError naming that invoice.
 *
 * CI runs 200 schedules; `npm run test:faults` runs 1,000 and prints the counts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { sandboxWaitClock } from './support/filing.js';
import { sampleInput } from './support/fixtures.js';
import { runSchedule, scheduleArbitrary, TIMEOUT_MS } from './support/fault-campaign.js';
import { report, scaled, seed } from './support/scale.js';

const SCHEDULES = scaled('schedules', 200, 1_000);

/** Sandboxes that answer transitions and spell records differently (the service shows neither). */
const VARIANTS = [
  { transitionResponse: 'invoice', recordStyle: 'standard' },
  { transitionResponse: 'null', recordStyle: 'standard' },
  { transitionResponse: 'message', recordStyle: 'alternate' },
] as const;

const input = (businessId: string) => sampleInput(businessId);

describe('fault campaign: createAndFile under random fault schedules', () => {
  const sandboxes: Sandbox[] = [];
  const totals = {
    schedules: 0,
    'faults scheduled': 0,
    'faults fired': 0,
    'FilingErrors (each resumed)': 0,
    'resumed with resumeFiling': 0,
    'resumed with createAndFile (same externalRef)': 0,
    'schedules filed without any stop': 0,
    'schedules that waited for the answer': 0,
    'duplicate invoices found': 0,
    'duplicate submits found': 0,
    'blind transitions found': 0,
  };
  const firedByKind = new Map<string, number>();

  beforeAll(async () => {
    for (const v of VARIANTS) sandboxes.push(await createSandbox({ timeScale: 0, now: '2026-03-02T09:00:00Z', ...v }));
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    report('fault campaign', {
      ...totals,
      'client timeout per attempt': `${TIMEOUT_MS} ms`,
      'faults fired, by kind': Object.fromEntries([...firedByKind].sort(([a], [b]) => a.localeCompare(b))),
    });
  });

  it(`files exactly once, whatever fails, in ${SCHEDULES.toLocaleString('en')} schedules`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArbitrary(VARIANTS.length), async (schedule) => {
        n += 1;
        const sandbox = sandboxes[schedule.variant]!;
        const outcome = await runSchedule(sandbox, schedule, input(sandbox.businessId), `campaign-${n}`);
        totals.schedules += 1;
        totals['faults scheduled'] += schedule.faults.length;
        for (const [label, hits] of outcome.fired) {
          firedByKind.set(label, (firedByKind.get(label) ?? 0) + hits);
          totals['faults fired'] += hits;
        }
        totals['FilingErrors (each resumed)'] += outcome.filingErrors;
        totals['resumed with resumeFiling'] += outcome.resumedWithResumeFiling;
        totals['resumed with createAndFile (same externalRef)'] += outcome.resumedWithCreateAndFile;
        if (outcome.filingErrors === 0) totals['schedules filed without any stop'] += 1;
        if (schedule.wait) totals['schedules that waited for the answer'] += 1;
        totals['duplicate invoices found'] += Math.max(0, outcome.invoices - 1);
        totals['duplicate submits found'] += Math.max(0, outcome.acceptedSubmits - 1);
        totals['blind transitions found'] += outcome.blindTransitions;
        expect(outcome.violations).toEqual([]);
      }),
      { numRuns: SCHEDULES, seed: seed(), endOnFailure: true },
    );
    // The campaign is only as good as its faults: most kinds must have fired, and stops happened.
    expect(firedByKind.size).toBeGreaterThanOrEqual(10);
    expect(totals['FilingErrors (each resumed)']).toBeGreaterThan(0);
    expect(totals['resumed with resumeFiling']).toBeGreaterThan(0);
  }, 600_000);
});

describe('fault campaign: schedules it found', () => {
  it('a committed sign whose read-back is rate-limited is read again, never sent again', async () => {
    // Found by the campaign: sign answers 200 with data: null, the read-back of the invoice gets a
    // 502 and then 429s, and the read's 429 was taken for the sign's own answer ("refused before
    // anything happened"), so sign was sent a second time without reading the invoice first.
    const sandbox = await createSandbox({ timeScale: 0, transitionResponse: 'null' });
    try {
      const client = sandbox.client({ timeout: TIMEOUT_MS, logLevel: 'off' });
      const clock = sandboxWaitClock(sandbox);
      const draft = await client.invoices.create(input(sandbox.businessId));
      await client.invoices.validate(draft.id, { clock });
      sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'malformed', variant: 'truncated-json', status: 502 });
      sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 429, retryAfter: 1, times: 2 });
      const signed = await client.invoices.sign(draft.id, { clock });
      expect(signed.status).toBe('SIGNED');
      const signs = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/sign'));
      expect(signs.map((r) => r.status)).toEqual([200]);
    } finally {
      await sandbox.close();
    }
  });
});

