import { describe, expect, it } from 'vitest';
import type { WaitClock } from '../../src/filing/clock.js';
import { waitFor } from '../../src/filing/wait.js';
import type { Invoice } from '../../src/model/invoice.js';
import { scriptedService } from './helpers.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;

/** One simulated clock shared by the service and the waiter: sleeping advances it. */
function simulated(): WaitClock & { t: number } {
  const clock = {
    t: T0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += Math.max(0, ms);
    },
  };
  return clock;
}

/** A service whose invoice follows `script(now)`: the raw status and fields at each moment. */
const scripted = (clock: { now(): number }, script: (now: number) => Partial<Invoice> & { rawStatus: string }) =>
  scriptedService(() => clock.now(), script);

const inError = (since: number, attempts = 0) => ({
  rawStatus: 'Error',
  errorMessage: 'Access points are offline',
  updatedAt: new Date(since).toISOString(),
  attempts,
});

describe('filing/wait (recovery and final statuses)', () => {
  it('polls at least once a minute during automatic recovery, since the job runs on its own schedule', async () => {
    const clock = simulated();
    // The job rescues the invoice 7 minutes 10 seconds after the error, not 10 minutes after it.
    const { api, reads } = scripted(clock, (now) => (now < T0 + 7 * MIN + 10_000 ? inError(T0) : { rawStatus: 'Accepted' }));

    const { invoice } = await waitFor(api, 'inv_1', { clock, timeout: 60 * MIN });

    expect(invoice.rawStatus).toBe('Accepted');
    const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MIN);
    // Seen within a minute of the rescue.
    expect(reads.at(-1)! - (T0 + 7 * MIN + 10_000)).toBeLessThanOrEqual(MIN);
  });

  it('never exceeds the caller’s maxInterval, also during recovery', async () => {
    const clock = simulated();
    const { api, reads } = scripted(clock, (now) => (now < T0 + 5 * MIN ? inError(T0) : { rawStatus: 'Accepted' }));

    await waitFor(api, 'inv_1', { clock, timeout: 60 * MIN, interval: 1_000, maxInterval: 20_000 });

    const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(20_000);
  });

  it('reads once more at its deadline before giving up', async () => {
    const clock = simulated();
    // Accepted 80 s in; a 90-second timeout with minute-long pauses leaves the last read at the deadline.
    const { api, reads } = scripted(clock, (now) => (now < T0 + 80_000 ? inError(T0) : { rawStatus: 'Accepted' }));

    const { invoice } = await waitFor(api, 'inv_1', { clock, timeout: 90_000, interval: MIN, maxInterval: MIN });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(reads.at(-1)).toBe(T0 + 90_000);
  });

  it('keeps polling through a status after SUBMITTED that is not final', async () => {
    const clock = simulated();
    const { api, reads } = scripted(clock, (now) =>
      now < T0 + 5_000 ? { rawStatus: 'Submitted' } : now < T0 + 20_000 ? { rawStatus: 'in_progress' } : { rawStatus: 'Accepted' },
    );
    const seen: string[] = [];

    const { invoice } = await waitFor(api, 'inv_1', { clock, timeout: MIN, onStatus: (inv) => seen.push(inv.rawStatus ?? '') });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(seen).toEqual(['Submitted', 'in_progress', 'Accepted']);
    expect(reads.length).toBeGreaterThan(3);
  });

  it('stops at the statuses given in finalStatuses, in the service’s spelling', async () => {
    const clock = simulated();
    const { api } = scripted(clock, (now) => (now < T0 + 3_000 ? { rawStatus: 'Submitted' } : { rawStatus: 'Filed' }));

    const { invoice } = await waitFor(api, 'inv_1', { clock, timeout: MIN, finalStatuses: ['filed'] });

    expect(invoice.rawStatus).toBe('Filed');
  });

  it('does not stop at a default final status that finalStatuses leaves out', async () => {
    const clock = simulated();
    const { api } = scripted(clock, () => ({ rawStatus: 'Accepted' }));

    await expect(waitFor(api, 'inv_1', { clock, timeout: 10_000, finalStatuses: ['Registered'] })).rejects.toMatchObject({
      name: 'WaitTimeoutError',
    });
  });

  it('refuses a finalStatuses that is not a list of names, before any read', async () => {
    const clock = simulated();
    const { api, reads } = scripted(clock, () => ({ rawStatus: 'Accepted' }));

    await expect(waitFor(api, 'inv_1', { clock, finalStatuses: 'Accepted' as unknown as string[] })).rejects.toMatchObject({
      name: 'InvoicingError',
      message: expect.stringMatching(/finalStatuses/),
    });
    expect(reads).toHaveLength(0);
  });
});
