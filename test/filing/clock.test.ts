import { describe, expect, it } from 'vitest';
import { pause, ServerClockRate, type WaitClock } from '../../src/filing/clock.js';

function manualClock(start = 0): WaitClock & { t: number } {
  const clock = {
    t: start,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

const iso = (ms: number) => new Date(ms).toISOString();
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('filing/clock', () => {
  describe('ServerClockRate', () => {
    it('is unknown until two readings a second apart', () => {
      const local = manualClock();
      const rate = new ServerClockRate(local);
      rate.observe(iso(T0));
      local.t += 500;
      rate.observe(iso(T0 + 500));
      expect(rate.rate).toBeUndefined();
      expect(rate.toLocal(60_000)).toBeUndefined();
      local.t += 600;
      rate.observe(iso(T0 + 1100));
      expect(rate.rate).toBeCloseTo(1);
      expect(rate.toLocal(600_000)).toBeCloseTo(600_000);
    });

    it('measures a sped-up server clock and shrinks server waits to local time', () => {
      const local = manualClock();
      const rate = new ServerClockRate(local);
      rate.observe(iso(T0));
      local.t += 2000;
      rate.observe(iso(T0 + 2000 * 600));
      expect(rate.rate).toBeCloseTo(600);
      expect(rate.toLocal(10 * 60_000)).toBeCloseTo(1000);
    });

    it('reads a rate just under 1 (latency noise) as 1, so a wait never overshoots', () => {
      const local = manualClock();
      const rate = new ServerClockRate(local);
      rate.observe(iso(T0));
      local.t += 10_000;
      rate.observe(iso(T0 + 9_000));
      expect(rate.toLocal(60_000)).toBe(60_000);
    });

    it('reports a server clock that does not move on its own as unknown', () => {
      const local = manualClock();
      const rate = new ServerClockRate(local);
      rate.observe(iso(T0));
      local.t += 5000;
      rate.observe(iso(T0));
      expect(rate.rate).toBeUndefined();
    });

    it('starts over when the server clock moves backwards', () => {
      const local = manualClock();
      const rate = new ServerClockRate(local);
      rate.observe(iso(T0));
      local.t += 2000;
      rate.observe(iso(T0 + 2000));
      expect(rate.rate).toBeCloseTo(1);
      rate.observe(iso(T0 - 60_000));
      expect(rate.rate).toBeUndefined();
    });

    it('uses a fixed rate when given one, and ignores unreadable timestamps', () => {
      const rate = new ServerClockRate(manualClock(), 600);
      rate.observe('not a date');
      rate.observe(undefined);
      expect(rate.toLocal(600_000)).toBe(1000);
    });
  });

  describe('pause', () => {
    it('rejects with APIUserAbortError at once when the signal aborts mid-sleep', async () => {
      const controller = new AbortController();
      const never: WaitClock = {
        now: () => 0,
        sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
      };
      const pending = pause(never, 60_000, controller.signal);
      controller.abort(new Error('stop'));
      await expect(pending).rejects.toMatchObject({ name: 'APIUserAbortError', cause: new Error('stop') });
    });
  });
});
