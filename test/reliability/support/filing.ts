/**
 * A clock for the filing helpers whose pauses take no real time.
 */
import type { WaitClock } from '../../../src/filing/clock.js';
import type { Sandbox } from '../../../src/testing/index.js';

/**
 * A clock for the filing helpers whose pauses advance the sandbox's clock instead of waiting, so
 * backoff and `Retry-After` cost no real time while the service sees them pass. Each pause still
 * yields to the event loop, so the loopback server keeps serving.
 */
export function sandboxWaitClock(sandbox: Sandbox): WaitClock & { slept: number } {
  const clock = {
    slept: 0,
    now: () => sandbox.clock.now(),
    sleep: async (ms: number, signal?: AbortSignal): Promise<void> => {
      if (signal?.aborted) throw signal.reason;
      clock.slept += Math.max(0, ms);
      sandbox.clock.advance(Math.max(0, ms));
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  return clock;
}

/** A clock on its own simulated time: pauses move it forward and return at once (after yielding). */
export function instantClock(start = Date.parse('2026-03-02T09:00:00Z')): WaitClock {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      now += Math.max(0, ms);
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}
