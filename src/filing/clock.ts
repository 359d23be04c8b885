/**
 * Time for the filing workflow: the local clock that `waitFor` sleeps on, the service's clock that
 * the recovery rules are judged against, and the rate between the two.
 *
 * Why a rate: the recovery rules speak in server time ("every 10 minutes", "the last 24 hours").
 * Against the real service one server second is one local second. Against a sandbox run with a
 * `timeScale` (600 × for demos) ten server minutes pass in one real second, and sleeping ten real
 * minutes would make a demo hang. So `waitFor` measures how fast the server's clock runs, from the
 * `observedAt` of consecutive reads against the local clock, and converts server-time waits into
 * local time. No option is needed for either case.
 */

/**
 * The clock `waitFor` and the filing helpers read and sleep on. The default is the real clock; tests
 * pass one whose `sleep` advances a simulated clock instead of waiting.
 *
 * @example
 * ```ts
 * import type { WaitClock } from 'invoicing-sdk';
 * // A clock that moves the sandbox forward instead of sleeping: a 30-minute recovery takes no time.
 * const clock: WaitClock = {
 *   now: () => sandbox.clock.now(),
 *   sleep: async (ms) => sandbox.clock.advance(ms),
 * };
 * await client.invoices.waitFor(id, { timeout: 3_600_000, clock });
 * ```
 */
export interface WaitClock {
  /** Milliseconds, only ever compared with other readings of the same clock. */
  now(): number;
  /** Resolves after `ms`; rejects at once with the signal's reason when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

import { APIUserAbortError } from '../core/errors.js';
import { sleep } from '../core/retry-timing.js';

/**
 * What an aborted filing call rejects with: the same `APIUserAbortError` a request aborted by the
 * signal gives, with the signal's reason as `cause`, wherever the abort lands (mid-request or
 * mid-sleep). `call` names the request the abort interrupted or was waiting to send, where the
 * caller knows it: `{ method, path }`, or the error that request failed with (an `APIError`
 * carries both). Without it the error has no method or path.
 */
export function abortReason(signal: AbortSignal, call?: unknown): APIUserAbortError {
  const from = typeof call === 'object' && call !== null ? (call as { method?: unknown; path?: unknown }) : undefined;
  return new APIUserAbortError({
    method: typeof from?.method === 'string' ? from.method : undefined,
    path: typeof from?.path === 'string' ? from.path : undefined,
    cause: signal.reason,
  });
}

/** Sleeps on `clock`; an abort, also mid-sleep, rejects at once with {@link abortReason}. */
export async function pause(clock: WaitClock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortReason(signal);
  try {
    await clock.sleep(ms, signal);
  } catch (err) {
    if (signal?.aborted) throw abortReason(signal);
    throw err;
  }
}

/**
 * The real clock: `Date.now()` and `setTimeout`, so fake timers (vitest, sinon) drive it too.
 *
 * @example
 * ```ts
 * import { realClock } from 'invoicing-sdk';
 * await client.invoices.waitFor(id, { timeout: 60_000, clock: realClock }); // the default anyway
 * ```
 */
export const realClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(Math.max(0, ms), signal),
};

/**
 * Measures how fast the service's clock runs against a local clock, from pairs of readings
 * (`observedAt` of a response, local time when it arrived). The longest span seen is used, so noise
 * from network latency shrinks as the wait goes on.
 */
export class ServerClockRate {
  readonly #clock: WaitClock;
  readonly #fixed: number | undefined;
  readonly #minSpanMs: number;
  #anchor: { local: number; server: number } | undefined;
  #rate: number | undefined;

  /**
   * @param clock the local clock.
   * @param fixed a known rate (server ms per local ms); skips measuring.
   * @param minSpanMs the least local time between two readings before a measured rate is trusted.
   */
  constructor(clock: WaitClock, fixed?: number, minSpanMs = 1000) {
    this.#clock = clock;
    this.#fixed = fixed;
    this.#minSpanMs = minSpanMs;
  }

  /** Records a reading of the server's clock (an ISO date-time, as in `Invoice.observedAt`). */
  observe(observedAt: string | undefined): void {
    const server = observedAt === undefined ? Number.NaN : Date.parse(observedAt);
    if (Number.isNaN(server)) return;
    const local = this.#clock.now();
    if (this.#anchor === undefined || server < this.#anchor.server || local < this.#anchor.local) {
      // First reading, or a clock moved backwards: start measuring again from here.
      this.#anchor = { local, server };
      this.#rate = undefined;
      return;
    }
    const span = local - this.#anchor.local;
    if (span >= this.#minSpanMs) this.#rate = (server - this.#anchor.server) / span;
  }

  /**
   * Server milliseconds per local millisecond: 1 against the real service, the time scale against a
   * sped-up sandbox; `undefined` until measured. A server clock running slower than half the local
   * one is not a real service (a paused test clock): reported as unknown, so callers probe rather
   * than sleep for a server-time span that may never pass.
   */
  get rate(): number | undefined {
    if (this.#fixed !== undefined) return this.#fixed;
    return this.#rate !== undefined && this.#rate >= 0.5 ? this.#rate : undefined;
  }

  /**
   * Local milliseconds for `serverMs` of server time to pass, or `undefined` while the rate is not
   * known. A measured rate just under 1 (latency noise) is read as 1, so a wait never overshoots.
   */
  toLocal(serverMs: number): number | undefined {
    if (this.#fixed !== undefined) return serverMs / this.#fixed;
    const rate = this.rate;
    return rate === undefined ? undefined : serverMs / Math.max(rate, 1);
  }
}
