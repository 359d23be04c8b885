// watch: each tick reads every due invoice the cheaper way (GETs or listing pages), with waitFor's rules per invoice.
import { InvoicingError, isErrorKind } from '../core/errors.js';
import type { Invoice } from '../model/invoice.js';
import type { InvoiceStatus } from '../model/status.js';
import type { CallOptions, FilingInvoicesApi } from './api.js';
import { notify, pool, scrubbed, scrubbing } from './callbacks.js';
import { pause, ServerClockRate } from './clock.js';
import { serverTime, type FilingFailure } from './failure.js';
import { checkNumber, retryState, statusOf, withRetries } from './retry.js';
import { changed, judge, nextRecoveryRead, type WaitOptions } from './wait.js';

/** What `watch` needs from `client.invoices`. */
export type WatchInvoicesApi = Pick<FilingInvoicesApi, 'retrieve' | '_logger' | '_finalStatuses' | '_redactor'> & {
  list(
    params: { page: number; limit: number; businessId?: string | undefined },
    opts?: CallOptions,
  ): PromiseLike<{ data: readonly Invoice[]; meta: { totalPages?: number | undefined } | undefined }>;
};

/** Options of `client.invoices.watch(ids, opts)`. @example await client.invoices.watch(['inv_1001'], { interval: 5_000, onChange: console.log }).finished(); */
export interface WatchOptions extends Pick<WaitOptions, 'requestTimeout' | 'timeScale' | 'clock'> {
  /** Local milliseconds between two ticks (default 2000). */ interval?: number | undefined;
  /** Ends the watch without an error; `finished()` resolves with `aborted: true`. */ signal?: AbortSignal | undefined;
  /** Called for every change, in order, whether or not the watch is also iterated. */
  onChange?: ((change: WatchChange) => void) | undefined;
  /** Statuses after which an invoice is no longer followed (default: the client's `finalStatuses`). */
  finalStatuses?: readonly (InvoiceStatus | (string & {}))[] | undefined;
  /** Restrict listing pages to one business. */ businessId?: string | undefined;
  /** Records per listing page (default and most 100). */ pageSize?: number | undefined;
  /** Per-invoice reads in flight at once in per-invoice mode (default 4). */ concurrency?: number | undefined;
  /** Further tries of a failed read within one tick (default 2). */ maxRetries?: number | undefined;
}

/**
 * The status part of an invoice as last read, kept per followed invoice.
 * @example const before: WatchedStatus = { status: 'SUBMITTED', rawStatus: 'Submitted', attempts: 0 };
 */
export interface WatchedStatus {
  /** Canonical status. */ status: InvoiceStatus | (string & {});
  /** The status as the server spelled it. */ rawStatus: string | undefined;
  /** Automatic-recovery attempts used, where the record carries a count. */ attempts: number | undefined;
}

/**
 * One event of a watch: an invoice read with a new status, or one that can no longer be read.
 * @example for await (const change of client.invoices.watch(['inv_1001'])) console.log(change.kind, change.id);
 */
export type WatchChange =
  | {
      /** An invoice read: for the first time, or with a new status, raw status or attempt count. */ kind: 'status';
      /** The invoice's id, as passed to `watch`. */ id: string;
      /** The invoice as just read. */ invoice: Invoice;
      /** What was read before; `undefined` at the first reading. */ previous: WatchedStatus | undefined;
      /** True when the invoice settled (final status, or `ERROR` with recovery over) and is no longer followed. */ final: boolean;
      /** What failed, unless the invoice was accepted or is still on its way. */ failure: FilingFailure | undefined;
      /** The tick that saw it, from 1. */ tick: number;
    }
  | {
      /** An invoice that can no longer be read. */ kind: 'gone';
      /** The invoice's id, as passed to `watch`. */ id: string;
      /** Why it cannot be read (a 404 `NotFoundError`); it is no longer followed. */ error: unknown;
      /** The tick that found it gone, from 1. */ tick: number;
    };

/** Counters of a watch so far. @example const { requests, ticks } = await client.invoices.watch(['inv_1001']).finished(); */
export interface WatchStats {
  /** Ticks run. */ ticks: number;
  /** Requests sent, retries included. */ requests: number;
  /** Requests of the last tick. */ lastTickRequests: number;
  /** How the last tick read: `list`, `get`, or `idle` (nothing due). */ lastMode: 'list' | 'get' | 'idle';
  /** Invoices still followed. */ following: number;
  /** Invoices no longer followed (settled or gone). */ settled: number;
  /** True when the watch ended by its signal. */ aborted: boolean;
}

/**
 * A running watch: iterate it once with `for await`, or call `finished()`.
 * @example
 * ```ts
 * const watch = client.invoices.watch(['inv_1001']);
 * for await (const change of watch) console.log(change.id);
 * ```
 */
export interface InvoiceWatch extends AsyncIterable<WatchChange> {
  /** Runs the watch to its end, calling `onChange`; resolves with the counters. */ finished(): Promise<WatchStats>;
  /** Counters so far. */ readonly stats: Readonly<WatchStats>;
}

interface Followed {
  last: WatchedStatus | undefined;
  /** Server time before which recovery makes a read pointless; 0 when due every tick. */ notBefore: number;
  page: number | undefined;
  errorSince: number | undefined;
}

/** Follows `ids` until each settles; throws only for a failure no tick can fix. */
export const watchInvoices = /* @__PURE__ */ scrubbing(watch);

function watch(api: WatchInvoicesApi, ids: Iterable<string>, opts: WatchOptions = {}): InvoiceWatch {
  const interval = checkNumber('watch: interval', opts.interval ?? 2_000, 0, false, true);
  const pageSize = checkNumber('watch: pageSize', opts.pageSize ?? 100, 1, true);
  const concurrency = checkNumber('watch: concurrency', opts.concurrency ?? 4, 1, true);
  if (opts.timeScale !== undefined) checkNumber('watch: timeScale', opts.timeScale, 0, false, true);
  const followed = new Map<string, Followed>();
  for (const id of ids) {
    if (typeof id !== 'string' || id.trim() === '') {
      throw new InvoicingError(`watch: every id must be a non-empty string, got ${JSON.stringify(id) ?? String(id)}`);
    }
    if (!followed.has(id)) followed.set(id, { last: undefined, notBefore: 0, page: undefined, errorSince: undefined });
  }
  const finalStatuses = opts.finalStatuses ?? api._finalStatuses;
  const signal = opts.signal;
  const shared = retryState({ signal, clock: opts.clock, maxRetries: opts.maxRetries ?? 2, maxRateLimitRetries: Number.MAX_SAFE_INTEGER });
  const clock = shared.clock;
  const call: CallOptions = { signal, timeout: opts.requestTimeout, maxRetries: 0 };
  const rate = new ServerClockRate(clock, opts.timeScale, 250);
  const stats: WatchStats = { ticks: 0, requests: 0, lastTickRequests: 0, lastMode: 'idle', following: followed.size, settled: 0, aborted: false };

  let totalPages: number | undefined;
  let lastListMisses = 0;
  let listUnavailable = false;
  let serverAnchor: { server: number; local: number } | undefined;

  const serverNow = (): number => {
    if (serverAnchor === undefined) return Number.NEGATIVE_INFINITY;
    return serverAnchor.server + (clock.now() - serverAnchor.local) * (rate.rate ?? 1);
  };

  /** `undefined` when the read failed transiently past its retries: it is tried again next tick. */
  async function read<T>(send: () => PromiseLike<T>): Promise<T | undefined> {
    const state = { ...shared, failures: 0, rateLimited: 0 };
    const sent = async (): Promise<T> => {
      stats.requests += 1;
      return send();
    };
    try {
      // Answers already in are handled first, so a 429 another read got closes the gate before this send.
      return await withRetries(state, sent, nextTurn);
    } catch (err) {
      if (!signal?.aborted && state.failures > state.maxRetries) return undefined;
      throw err;
    }
  }

  /** Records a reading; returns the change to report. Drops the invoice once settled. */
  function observe(id: string, entry: Followed, invoice: Invoice, tick: number): WatchChange | undefined {
    rate.observe(invoice.observedAt);
    const server = serverTime(invoice.observedAt, Number.NaN);
    if (Number.isFinite(server) && (serverAnchor === undefined || server >= serverAnchor.server)) {
      serverAnchor = { server, local: clock.now() };
    }
    const now = Number.isFinite(server) ? server : serverNow();
    const { errorSince, recovery, failure, final } = judge(invoice, now, entry.errorSince, finalStatuses);
    const previous = entry.last;
    entry.errorSince = errorSince;
    entry.last = { status: invoice.status, rawStatus: invoice.rawStatus, attempts: invoice.attempts };
    entry.notBefore = recovery === 'in-progress' ? now + nextRecoveryRead(invoice, now) : 0;
    if (final) settle(id);
    return final || changed(previous, invoice) ? { kind: 'status', id, invoice, previous, final, failure, tick } : undefined;
  }

  function settle(id: string): void {
    followed.delete(id);
    stats.settled += 1;
  }

  async function readEach(due: readonly string[], tick: number, out: WatchChange[]): Promise<void> {
    const results: (WatchChange | undefined)[] = [];
    await pool(due.length, concurrency, async (i) => {
      const id = due[i]!;
      try {
        const invoice = await read(() => api.retrieve(id, call));
        if (invoice !== undefined) results[i] = observe(id, followed.get(id)!, invoice, tick);
      } catch (err) {
        if (signal?.aborted || statusOf(err) !== 404 || !isErrorKind(err, 'APIError')) throw err;
        settle(id);
        results[i] = { kind: 'gone', id, error: err, tick };
      }
    });
    for (const change of results) if (change !== undefined) out.push(change);
  }

  /** Reads listing pages while due invoices are missing; returns those not found. */
  async function readPages(due: readonly string[], pages: Iterable<number>, tick: number, out: WatchChange[]): Promise<string[]> {
    const missing = new Set(due);
    for (const page of pages) {
      if (missing.size === 0 || listUnavailable) break;
      const params = opts.businessId === undefined ? { page, limit: pageSize } : { page, limit: pageSize, businessId: opts.businessId };
      let listing;
      try {
        listing = await read(() => api.list(params, call));
      } catch (err) {
        // Without a listing the invoices can still be read one by one.
        const status = statusOf(err);
        if (signal?.aborted || (status !== 403 && status !== 404 && status !== 405)) throw err;
        listUnavailable = true;
        api._logger?.warn(`watch: the invoice listing answered ${status}; reading each invoice instead.`);
        continue;
      }
      if (listing === undefined) continue;
      if (listing.meta?.totalPages !== undefined) totalPages = listing.meta.totalPages;
      for (const invoice of listing.data) {
        const entry = followed.get(invoice.id);
        // A summary row without a status tells nothing: the GET will.
        if (entry === undefined || invoice.rawStatus === undefined) continue;
        // Any followed invoice on the page is a free fresh reading, due or not.
        entry.page = page;
        missing.delete(invoice.id);
        const change = observe(invoice.id, entry, invoice, tick);
        if (change !== undefined) out.push(change);
      }
    }
    return [...missing];
  }

  /** Listing pages from `from` through the last one known so far (page 1 always). */
  function* pagesFrom(from: number): Generator<number> {
    for (let page = from; page === 1 || page <= (totalPages ?? 0); page += 1) yield page;
  }

  /** One tick's reads: listing pages where they cost fewer requests than one GET per due invoice, then GETs. */
  async function readDue(tick: number, out: WatchChange[]): Promise<void> {
    const now = serverNow();
    let left: string[] = [];
    const duePages = new Set<number>();
    let unplaced = false;
    for (const [id, entry] of followed) {
      if (entry.notBefore !== 0 && entry.notBefore > now) continue;
      left.push(id);
      if (entry.page === undefined) unplaced = true;
      else duePages.add(entry.page);
    }
    const due = left.length;
    stats.lastMode = due === 0 ? 'idle' : 'get';
    if (!listUnavailable && totalPages === undefined && due > 1) {
      // Page 1 tells how many pages there are.
      stats.lastMode = 'list';
      left = await readPages(left, [1], tick, out);
      if (left.length > 0 && (totalPages ?? 1) - 1 < left.length) left = await readPages(left, pagesFrom(2), tick, out);
    } else if (!listUnavailable && totalPages !== undefined && (unplaced ? totalPages : duePages.size) + lastListMisses < due) {
      stats.lastMode = 'list';
      left = await readPages(left, unplaced ? pagesFrom(1) : [...duePages].sort((a, b) => a - b), tick, out);
      lastListMisses = left.length;
    }
    await readEach(left, tick, out);
  }

  async function* run(): AsyncGenerator<WatchChange, void, undefined> {
    const out: WatchChange[] = [];
    try {
      while (followed.size > 0 && !signal?.aborted) {
        stats.ticks += 1;
        const before = stats.requests;
        await readDue(stats.ticks, out);
        stats.lastTickRequests = stats.requests - before;
        stats.following = followed.size;

        for (const change of out) {
          notify('onChange', api._logger, opts.onChange, change);
          yield change;
        }
        out.length = 0;
        if (followed.size === 0) break;
        await pause(clock, sleepFor(), signal);
      }
    } catch (err) {
      if (!signal?.aborted) throw scrubbed(api, err);
    }
    stats.following = followed.size;
    stats.aborted = signal?.aborted === true;
  }

  /** Longer than the interval when every invoice left waits for an automatic retry. */
  function sleepFor(): number {
    const now = serverNow();
    let soonest = Number.POSITIVE_INFINITY;
    for (const entry of followed.values()) soonest = Math.min(soonest, entry.notBefore - now);
    if (!(soonest > interval) || !Number.isFinite(soonest)) return interval;
    return Math.max(interval, rate.toLocal(soonest) ?? interval);
  }

  let started = false;
  const start = (): AsyncGenerator<WatchChange, void, undefined> => {
    if (started) throw scrubbed(api, new InvoicingError('watch: a watch can be iterated once; call watch() again for another.'));
    started = true;
    return run();
  };

  return {
    [Symbol.asyncIterator]: start,
    async finished(): Promise<WatchStats> {
      for await (const change of { [Symbol.asyncIterator]: start }) void change;
      return { ...stats };
    },
    get stats(): Readonly<WatchStats> {
      return { ...stats };
    },
  };
}

/** Resolves after pending promise callbacks: `setImmediate` where there is one, else a zero timer. */
function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate === undefined ? setTimeout(resolve, 0) : immediate(resolve)));
}
