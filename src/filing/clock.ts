// The local clock waits sleep on, and the service's clock rate against it: recovery rules speak in server time.
import { APIUserAbortError } from '../core/errors.js';
import { sleep } from '../core/retry-timing.js';

/**
 * The clock `waitFor` and the filing helpers read and sleep on.
 * @example const clock: WaitClock = { now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(ms) };
 */
export interface WaitClock {
  /** Milliseconds, only ever compared with other readings of the same clock. */ now(): number;
  /** Resolves after `ms`; rejects at once with the signal's reason when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The `APIUserAbortError` an aborted filing call rejects with; `call` may carry the request's method and path. */
export function abortReason(signal: AbortSignal, call?: unknown): APIUserAbortError {
  const { method, path } = (call ?? {}) as { method?: string; path?: string };
  return new APIUserAbortError({ method, path, cause: signal.reason });
}

/** Sleeps on `clock`; an abort, also mid-sleep, rejects at once with {@link abortReason}. */
export async function pause(clock: WaitClock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortReason(signal);
  await clock.sleep(ms, signal).catch((err: unknown) => {
    throw signal?.aborted ? abortReason(signal) : err;
  });
}

/** The real clock: `Date.now()` and `setTimeout`, so fake timers drive it too. */
export const realClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(Math.max(0, ms), signal),
};

/** How fast the service's clock runs against the local one, over the longest span seen. */
export class ServerClockRate {
  #anchor: { local: number; server: number } | undefined;
  #rate: number | undefined;

  constructor(
    private readonly clock: WaitClock,
    private readonly fixed?: number,
    private readonly minSpanMs = 1000,
  ) {}

  observe(observedAt: string | undefined): void {
    const server = observedAt === undefined ? Number.NaN : Date.parse(observedAt);
    if (Number.isNaN(server)) return;
    const local = this.clock.now();
    if (this.#anchor === undefined || server < this.#anchor.server || local < this.#anchor.local) {
      // First reading, or a clock moved backwards: start again.
      this.#anchor = { local, server };
      this.#rate = undefined;
      return;
    }
    const span = local - this.#anchor.local;
    if (span >= this.minSpanMs) this.#rate = (server - this.#anchor.server) / span;
  }

  /** Server ms per local ms; unknown until measured, and when slower than half (a paused test clock). */
  get rate(): number | undefined {
    if (this.fixed !== undefined) return this.fixed;
    return this.#rate !== undefined && this.#rate >= 0.5 ? this.#rate : undefined;
  }

  /** Local ms for `serverMs` to pass; a measured rate under 1 (latency noise) counts as 1. */
  toLocal(serverMs: number): number | undefined {
    if (this.fixed !== undefined) return serverMs / this.fixed;
    const rate = this.rate;
    return rate === undefined ? undefined : serverMs / Math.max(rate, 1);
  }
}
