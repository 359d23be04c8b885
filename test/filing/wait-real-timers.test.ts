/**
 * waitFor's and watch's timing rules on real timers, with intervals of tens of milliseconds: the
 * same rules the simulated-clock tests check, where a timer firing a millisecond late is real.
 */
import { describe, expect, it } from 'vitest';
import { realClock, type WaitClock } from '../../src/filing/clock.js';
import { waitFor } from '../../src/filing/wait.js';
import { watchInvoices } from '../../src/filing/watch.js';
import type { Invoice } from '../../src/model/invoice.js';
import { scriptedService } from './helpers.js';

/** A service on the real clock: the invoice's raw status at each local millisecond since the first read. */
function service(script: (elapsed: number) => Partial<Invoice> & { rawStatus: string }, serverRate = 1) {
  let start: number | undefined;
  const serverStart = Date.parse('2026-03-01T12:00:00Z');
  const elapsed = (): number => {
    start ??= Date.now();
    return Date.now() - start;
  };
  return { ...scriptedService(elapsed, script, (t) => serverStart + t * serverRate), serverStart };
}

const gapsOf = (reads: number[]) => reads.slice(1).map((t, i) => t - reads[i]!);

describe('filing/wait on real timers', () => {
  it('reads once more at its deadline before giving up', async () => {
    // Accepted 10 ms before the deadline; the pauses (90 ms) put no regular read after it.
    const { api, reads } = service((t) => ({ rawStatus: t < 140 ? 'Submitted' : 'Accepted' }));

    const { invoice } = await waitFor(api, 'inv_1', { timeout: 150, interval: 90, maxInterval: 90, clock: realClock });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(reads.at(-1)).toBeGreaterThanOrEqual(149);
  });

  it('reads at the deadline when the sleep to it ends a millisecond late', async () => {
    const late: WaitClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms + 1)) };
    const { api, reads } = service((t) => ({ rawStatus: t < 70 ? 'Submitted' : 'Accepted' }));

    const { invoice } = await waitFor(api, 'inv_1', { timeout: 80, interval: 50, maxInterval: 50, clock: late });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(reads.at(-1)).toBeGreaterThanOrEqual(79);
  });

  it('throws WaitTimeoutError no earlier than its timeout, after a read at the deadline', async () => {
    const { api, reads } = service(() => ({ rawStatus: 'Submitted' }));
    const started = Date.now();

    const err = await waitFor(api, 'inv_1', { timeout: 120, interval: 50, maxInterval: 50 }).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'WaitTimeoutError', timeoutMs: 120, lastInvoice: { rawStatus: 'Submitted' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(119);
    expect(reads.at(-1)).toBeGreaterThanOrEqual(119);
  });

  it('grows the pause by half from interval up to maxInterval', async () => {
    const { api, reads } = service((t) => ({ rawStatus: t < 200 ? 'Submitted' : 'Accepted' }));

    await waitFor(api, 'inv_1', { timeout: 5_000, interval: 20, maxInterval: 45 });

    const gaps = gapsOf(reads);
    // 20, 30, 45, 45, … (a timer may fire up to a millisecond early, never much late here).
    [20, 30, 45, 45].forEach((expected, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(expected - 1);
      expect(gaps[i]).toBeLessThan(expected + 250);
    });
  });

  it('reads once a server minute during automatic recovery, converted to local time at the server clock’s pace', async () => {
    // The server clock runs 3000 × faster: a server minute is 20 local ms. Rescued 7 server minutes in.
    const rate = 3000;
    const { api, reads, serverStart } = service(
      (t) =>
        t * rate < 7 * 60_000
          ? { rawStatus: 'Error', errorMessage: 'Access points are offline', attempts: 0, updatedAt: new Date(serverStart).toISOString() }
          : { rawStatus: 'Accepted' },
      rate,
    );

    const { invoice } = await waitFor(api, 'inv_1', { timeout: 5_000, interval: 5, timeScale: rate });

    expect(invoice.rawStatus).toBe('Accepted');
    const gaps = gapsOf(reads);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(19);
    // Not the 5 ms interval: about one read per server minute (7 of them), with slack for a loaded machine.
    expect(reads.length).toBeLessThanOrEqual(10);
  });
});

describe('filing/watch on real timers', () => {
  it('ticks no faster than its interval and ends when the invoice settles', async () => {
    const { api, reads } = service((t) => ({ rawStatus: t < 100 ? 'Submitted' : 'Accepted' }));

    const changes = [];
    for await (const change of watchInvoices(api, ['inv_1'], { interval: 30 })) changes.push(change);

    expect(changes.at(-1)).toMatchObject({ kind: 'status', final: true, invoice: { rawStatus: 'Accepted' } });
    for (const gap of gapsOf(reads)) expect(gap).toBeGreaterThanOrEqual(29);
    expect(reads.at(-1)).toBeGreaterThanOrEqual(100);
  });

  it('ends promptly when aborted mid-sleep', async () => {
    const { api } = service(() => ({ rawStatus: 'Submitted' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();

    const stats = await watchInvoices(api, ['inv_1'], { interval: 10_000, signal: controller.signal }).finished();

    expect(stats.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
