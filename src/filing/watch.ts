/**
 * `watch`: following many invoices at once. Each tick reads every due invoice the cheaper way: one
 * GET each, or the listing pages where they were last seen (every page while a position is
 * unknown; one missing from its page is read with a GET in the same tick). Per invoice it keeps
 * `waitFor`'s rules: in recovery it is read only when a retry can have landed, nothing is ever
 * submitted, and once settled it is reported and dropped. Every request waits at one shared
 * {@link RateGate}, so a 429 anywhere pauses all reads.
 */
import { InvoicingError } from '../core/errors.js';
import { isErrorKind } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Redactor } from '../core/redact.js';
import type { Invoice } from '../model/invoice.js';
import { isFinalStatus, recoveryVerdict, type InvoiceStatus } from '../model/status.js';
import type { CallOptions } from './api.js';
import { notify } from './callbacks.js';
import { scrubbed } from './redact.js';
import { pause, realClock, ServerClockRate, type WaitClock } from './clock.js';
import { describeFailure, serverTime, type FilingFailure } from './failure.js';
import { nextDelay, RateGate, resolvePolicy, statusOf, type RetryCounters, type RetryPolicy } from './retry.js';
import { nextRecoveryRead } from './wait.js';

/**
 * What `watch` needs from `client.invoices`: reading one invoice and reading one listing page.
 */
export interface WatchInvoicesApi {
  retrieve(id: string, opts?: CallOptions): Promise<Invoice>;
  list(
    params: { page: number; limit: number; businessId?: string | undefined },
    opts?: CallOptions,
  ): PromiseLike<{ data: readonly Invoice[]; meta: { totalPages?: number | undefined } | undefined }>;
  readonly _logger?: Logger | undefined;
  /** The client's `finalStatuses`, the default of `opts.finalStatuses`. */
  readonly _finalStatuses?: readonly string[] | undefined;
  /** The client's redactor: every error the watch throws is scrubbed with it. */
  readonly _redactor?: Redactor | undefined;
}

/**
 * Options of `client.invoices.watch(ids, opts)`.
 *
 * @example
 * ```ts
 * const ids = ['inv_1001', 'inv_1002']; // the invoices you submitted
 * const controller = new AbortController();
 * const watch = client.invoices.watch(ids, {
 *   interval: 5_000,
 *   signal: controller.signal,
 *   onChange: (change) => {
 *     if (change.kind === 'status') console.log(change.id, change.invoice.rawStatus);
 *   },
 * });
 * const summary = await watch.finished();
 * ```
 */
export interface WatchOptions {
  /** Local milliseconds between two ticks (default 2000). Every due invoice is read once a tick. */
  interval?: number | undefined;
  /** Ends the watch: the iteration finishes without an error and `finished()` resolves with `aborted: true`. */
  signal?: AbortSignal | undefined;
  /** Called for every change, in order, whether or not the watch is also iterated. */
  onChange?: ((change: WatchChange) => void) | undefined;
  /**
   * Statuses after which an invoice is no longer followed (canonical or as the service spells them).
   * Default: the client's `finalStatuses` (`ACCEPTED`, `REJECTED`, `CANCELLED` unless set); an
   * unknown status after `SUBMITTED` keeps it followed. `ERROR` with automatic recovery over always
   * ends following.
   */
  finalStatuses?: readonly (InvoiceStatus | (string & {}))[] | undefined;
  /** Restrict listing pages to one business (fewer pages for a USER key that spans businesses). */
  businessId?: string | undefined;
  /** Records per listing page (default and most 100). */
  pageSize?: number | undefined;
  /** Per-invoice reads in flight at once in per-invoice mode (default 4). */
  concurrency?: number | undefined;
  /** Further tries of a read after a connection failure, timeout or 5xx within one tick (default 2); then it waits for the next tick. */
  maxRetries?: number | undefined;
  /** Per-request timeout in ms (the client's `timeout` by default). */
  requestTimeout?: number | undefined;
  /** Server milliseconds per local millisecond, when known (a sped-up sandbox); measured otherwise. */
  timeScale?: number | undefined;
  /** The clock to read and sleep on (default the real clock); tests pass a simulated one. */
  clock?: WaitClock | undefined;
}

/**
 * The status part of an invoice as last read, kept per followed invoice.
 *
 * @example
 * ```ts
 * const before: WatchedStatus = { status: 'SUBMITTED', rawStatus: 'Submitted', attempts: 0 };
 * ```
 */
export interface WatchedStatus {
  /** Canonical status. */
  status: InvoiceStatus | (string & {});
  /** The status as the server spelled it. */
  rawStatus: string | undefined;
  /** Automatic-recovery attempts used, where the record carries a count. */
  attempts: number | undefined;
}

/**
 * One event of a watch: an invoice read for the first time or with a new status (raw status or
 * attempt count), or an invoice that can no longer be read.
 *
 * @example
 * ```ts
 * const ids = ['inv_1001', 'inv_1002']; // the invoices you submitted
 * for await (const change of client.invoices.watch(ids)) {
 *   if (change.kind === 'gone') console.warn(change.id, 'cannot be read:', change.error);
 *   else if (change.final) console.log(change.id, 'settled as', change.invoice.rawStatus, change.failure?.hint ?? '');
 * }
 * ```
 */
export type WatchChange =
  | {
      /** An invoice read: for the first time, or with a new status, raw status or attempt count. */
      kind: 'status';
      /** The invoice's id, as passed to `watch`. */
      id: string;
      /** The invoice as just read. */
      invoice: Invoice;
      /** What was read before; `undefined` at the first reading. */
      previous: WatchedStatus | undefined;
      /** True when the invoice settled (final status, or `ERROR` with recovery over) and is no longer followed. */
      final: boolean;
      /**
       * Unless the invoice was accepted or is still on its way: `rejected`, `cancelled`, another final
       * status, or `ERROR` (what failed and whether a deliberate re-submit is needed).
       */
      failure: FilingFailure | undefined;
      /** The tick that saw it, from 1. */
      tick: number;
    }
  | {
      /** An invoice that can no longer be read. */
      kind: 'gone';
      /** The invoice's id, as passed to `watch`. */
      id: string;
      /** Why it cannot be read (a 404 `NotFoundError`); it is no longer followed. */
      error: unknown;
      /** The tick that found it gone, from 1. */
      tick: number;
    };

/**
 * Counters of a watch so far.
 *
 * @example
 * ```ts
 * const ids = ['inv_1001', 'inv_1002']; // the invoices you submitted
 * const watch = client.invoices.watch(ids);
 * const summary = await watch.finished();
 * console.log(`${summary.requests} requests over ${summary.ticks} ticks`);
 * ```
 */
export interface WatchStats {
  /** Ticks run. */
  ticks: number;
  /** Requests sent, retries included. */
  requests: number;
  /** Requests of the last tick. */
  lastTickRequests: number;
  /** How the last tick read: `list`, `get`, or `idle` (nothing due). */
  lastMode: 'list' | 'get' | 'idle';
  /** Invoices still followed. */
  following: number;
  /** Invoices no longer followed (settled or gone). */
  settled: number;
  /** True when the watch ended by its signal. */
  aborted: boolean;
}

/**
 * A running watch: iterate it with `for await`, or call `finished()` to run it through its
 * `onChange` callback. It can be iterated once.
 *
 * @example
 * ```ts
 * const ids = ['inv_1001', 'inv_1002']; // the invoices you submitted
 * const watch = client.invoices.watch(ids, { signal: AbortSignal.timeout(3_600_000) });
 * for await (const change of watch) {
 *   if (change.kind === 'status' && change.final) console.log(change.id, change.invoice.rawStatus);
 * }
 * console.log(watch.stats);
 * ```
 */
export interface InvoiceWatch extends AsyncIterable<WatchChange> {
  /** Runs the watch to its end (every invoice settled, or aborted), calling `onChange`; resolves with the counters. */
  finished(): Promise<WatchStats>;
  /** Counters so far. */
  readonly stats: Readonly<WatchStats>;
}

/**
 * The defaults of {@link WatchOptions}.
 *
 * @example
 * ```ts
 * import { WATCH_DEFAULTS } from 'invoicing-sdk';
 * WATCH_DEFAULTS.pageSize; // 100
 * ```
 */
export const WATCH_DEFAULTS = {
  interval: 2_000,
  /** The largest page the listing serves. */
  pageSize: 100,
  concurrency: 4,
  maxRetries: 2,
} as const;

/** What is kept per followed invoice: a fixed-size record, updated in place. */
interface Followed {
  last: WatchedStatus | undefined;
  /** Server time before which the invoice is not read on purpose (automatic recovery); 0 when due every tick. */
  notBefore: number;
  /** The listing page it was last seen on. */
  page: number | undefined;
  /** Server time it was first seen in its current stretch of `ERROR`. */
  errorSince: number | undefined;
}

/** A read that failed transiently past its retries: tried again next tick. */
const SKIPPED = Symbol('skipped');

function checkPositive(name: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new InvoicingError(`watch: ${name} must be a finite ${integer ? 'integer' : 'number'} > 0, got ${String(value)}`);
  }
  return value;
}


function differs(before: WatchedStatus | undefined, after: Invoice): boolean {
  return (
    before === undefined ||
    before.status !== after.status ||
    before.rawStatus !== after.rawStatus ||
    before.attempts !== after.attempts
  );
}

/**
 * Follows `ids` until each settles (see the module comment). Returns an {@link InvoiceWatch}: an async
 * iterable of {@link WatchChange}s that also runs through `opts.onChange` with `finished()`. Throws
 * from the iteration only for a failure no tick can fix (401, 403, a malformed answer after its
 * retries); transient failures are retried within the tick, then at the next one.
 */
export function watchInvoices(api: WatchInvoicesApi, ids: Iterable<string>, opts: WatchOptions = {}): InvoiceWatch {
  try {
    return watch(api, ids, opts);
  } catch (err) {
    throw scrubbed(api, err);
  }
}

function watch(api: WatchInvoicesApi, ids: Iterable<string>, opts: WatchOptions): InvoiceWatch {
  const interval = checkPositive('interval', opts.interval ?? WATCH_DEFAULTS.interval, false);
  const pageSize = checkPositive('pageSize', opts.pageSize ?? WATCH_DEFAULTS.pageSize, true);
  const concurrency = checkPositive('concurrency', opts.concurrency ?? WATCH_DEFAULTS.concurrency, true);
  if (opts.timeScale !== undefined) checkPositive('timeScale', opts.timeScale, false);
  const followed = new Map<string, Followed>();
  for (const id of ids) {
    if (typeof id !== 'string' || id.trim() === '') {
      throw new InvoicingError(`watch: every id must be a non-empty string, got ${JSON.stringify(id) ?? String(id)}`);
    }
    if (!followed.has(id)) followed.set(id, { last: undefined, notBefore: 0, page: undefined, errorSince: undefined });
  }
  const finalStatuses = opts.finalStatuses ?? api._finalStatuses;
  const clock = opts.clock ?? realClock;
  const signal = opts.signal;
  const policy: RetryPolicy = resolvePolicy(
    { signal, maxRetries: opts.maxRetries ?? WATCH_DEFAULTS.maxRetries, maxRateLimitRetries: Number.MAX_SAFE_INTEGER },
    clock,
    new RateGate(clock),
  );
  const call: CallOptions = { signal, timeout: opts.requestTimeout, maxRetries: 0 };
  const rate = new ServerClockRate(clock, opts.timeScale, 250);
  const stats: WatchStats = {
    ticks: 0,
    requests: 0,
    lastTickRequests: 0,
    lastMode: 'idle',
    following: followed.size,
    settled: 0,
    aborted: false,
  };

  // Learned from earlier ticks.
  let totalPages: number | undefined;
  let lastListMisses = 0;
  let listUnavailable = false;
  // Latest server time seen, and the local time it was seen at.
  let serverAnchor: { server: number; local: number } | undefined;

  const serverNow = (): number => {
    if (serverAnchor === undefined) return Number.NEGATIVE_INFINITY;
    return serverAnchor.server + (clock.now() - serverAnchor.local) * (rate.rate ?? 1);
  };

  /** One request through the shared gate, retried within the tick; SKIPPED when it keeps failing transiently. */
  async function read<T>(send: () => PromiseLike<T>): Promise<T | typeof SKIPPED> {
    const counters: RetryCounters = { failures: 0, rateLimited: 0 };
    for (;;) {
      // Let every answer that has already arrived be handled first, so that a 429 another read just
      // got closes the gate before this read is sent.
      await nextTurn();
      await policy.gate.wait(signal);
      stats.requests += 1;
      try {
        return await send();
      } catch (err) {
        if (signal?.aborted) throw err;
        const delay = nextDelay(policy, err, counters);
        if (delay === undefined) {
          if (counters.failures > policy.maxRetries) return SKIPPED;
          throw err;
        }
        if (delay > 0) await pause(clock, delay, signal);
      }
    }
  }

  /** Records a reading; returns the change to report, if any. Drops the invoice once settled. */
  function observe(id: string, entry: Followed, invoice: Invoice, tick: number): WatchChange | undefined {
    rate.observe(invoice.observedAt);
    const server = serverTime(invoice.observedAt, Number.NaN);
    if (Number.isFinite(server) && (serverAnchor === undefined || server >= serverAnchor.server)) {
      serverAnchor = { server, local: clock.now() };
    }
    const now = Number.isFinite(server) ? server : serverNow();
    if (invoice.status !== 'ERROR') entry.errorSince = undefined;
    else if (entry.errorSince === undefined) entry.errorSince = Math.min(now, touchedAt(invoice, now));
    const recovery = recoveryVerdict(invoice, now, entry.errorSince).state;
    // Settled: a final status (a rejection or cancellation whatever the list says), or ERROR recovery will not pick up.
    const settled =
      isFinalStatus(invoice.rawStatus ?? invoice.status, finalStatuses) ||
      recovery === 'over' ||
      invoice.status === 'REJECTED' ||
      invoice.status === 'CANCELLED';
    const changed = differs(entry.last, invoice);
    const previous = entry.last;
    entry.last = { status: invoice.status, rawStatus: invoice.rawStatus, attempts: invoice.attempts };
    entry.notBefore = recovery === 'in-progress' ? now + nextRecoveryRead(invoice, now) : 0;
    if (settled) {
      followed.delete(id);
      stats.settled += 1;
    }
    if (!changed && !settled) return undefined;
    const failure = describeFailure(invoice, now, { finalStatuses, errorSince: entry.errorSince });
    return { kind: 'status', id, invoice, previous, final: settled, failure, tick };
  }

  function gone(id: string, error: unknown, tick: number): WatchChange {
    followed.delete(id);
    stats.settled += 1;
    return { kind: 'gone', id, error, tick };
  }

  async function getOne(id: string, tick: number): Promise<WatchChange | undefined> {
    const entry = followed.get(id);
    if (entry === undefined) return undefined;
    try {
      const invoice = await read(() => api.retrieve(id, call));
      if (invoice === SKIPPED) return undefined;
      return observe(id, entry, invoice, tick);
    } catch (err) {
      if (!signal?.aborted && statusOf(err) === 404 && isErrorKind(err, 'APIError')) return gone(id, err, tick);
      throw err;
    }
  }

  /** Per-invoice reads of `due`, `concurrency` at a time; changes in the order of `due`. */
  async function readEach(due: readonly string[], tick: number, out: WatchChange[]): Promise<void> {
    const results: (WatchChange | undefined)[] = new Array(due.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < due.length) {
        const i = next++;
        results[i] = await getOne(due[i]!, tick);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
    for (const change of results) if (change !== undefined) out.push(change);
  }

  /** Reads listing pages until every due invoice is found; returns those not found. */
  async function readPages(due: Set<string>, pages: Iterable<number> | 'all', tick: number, out: WatchChange[]): Promise<string[]> {
    const missing = new Set(due);
    const readPage = async (page: number): Promise<boolean> => {
      const params = opts.businessId === undefined ? { page, limit: pageSize } : { page, limit: pageSize, businessId: opts.businessId };
      let listing;
      try {
        listing = await read(() => api.list(params, call));
      } catch (err) {
        // A listing this key may not read (403) or a route that is not there (404): the invoices
        // can still be read one by one, so the watch goes on without pages.
        const status = statusOf(err);
        if (signal?.aborted || status === undefined || (status !== 403 && status !== 404 && status !== 405)) throw err;
        listUnavailable = true;
        api._logger?.warn(`watch: the invoice listing answered ${status}; reading each invoice instead.`);
        return false;
      }
      if (listing === SKIPPED) return false;
      if (listing.meta?.totalPages !== undefined) totalPages = listing.meta.totalPages;
      for (const invoice of listing.data) {
        const entry = followed.get(invoice.id);
        // A listing record without a status (a summary row) tells nothing: the GET will.
        if (entry === undefined || invoice.rawStatus === undefined) continue;
        // Any followed invoice on the page is a fresh reading, due or not: it costs nothing more.
        entry.page = page;
        missing.delete(invoice.id);
        const change = observe(invoice.id, entry, invoice, tick);
        if (change !== undefined) out.push(change);
      }
      return true;
    };
    if (pages === 'all') {
      for (let page = 1; missing.size > 0 && !listUnavailable && (page === 1 || page <= (totalPages ?? 0)); page += 1) {
        await readPage(page);
      }
    } else {
      for (const page of pages) {
        if (missing.size === 0 || listUnavailable) break;
        await readPage(page);
      }
    }
    return [...missing];
  }

  async function* run(): AsyncGenerator<WatchChange, void, undefined> {
    const out: WatchChange[] = [];
    try {
      while (followed.size > 0) {
        if (signal?.aborted) break;
        stats.ticks += 1;
        const tick = stats.ticks;
        const before = stats.requests;
        const now = serverNow();
        const due = new Set<string>();
        const duePages = new Set<number>();
        let unplaced = 0;
        for (const [id, entry] of followed) {
          if (entry.notBefore !== 0 && entry.notBefore > now) continue;
          due.add(id);
          if (entry.page === undefined) unplaced += 1;
          else duePages.add(entry.page);
        }

        if (due.size === 0) {
          stats.lastMode = 'idle';
        } else if (totalPages === undefined && due.size > 1 && !listUnavailable) {
          // Nothing learned yet: one listing page costs one request and tells how many there are.
          stats.lastMode = 'list';
          const missing = await readPages(due, [1], tick, out);
          const left = new Set(missing.filter((id) => followed.has(id)));
          const pages = totalPages ?? 1;
          if (left.size > 0 && pages - 1 < left.size) {
            const stillMissing = await readPages(left, range(2, pages), tick, out);
            await readEach(stillMissing.filter((id) => followed.has(id)), tick, out);
          } else {
            await readEach([...left], tick, out);
          }
        } else {
          const listCost =
            totalPages === undefined || listUnavailable ? Number.POSITIVE_INFINITY : unplaced > 0 ? totalPages + lastListMisses : duePages.size + lastListMisses;
          if (listCost < due.size) {
            stats.lastMode = 'list';
            const pages = unplaced > 0 ? 'all' : [...duePages].sort((a, b) => a - b);
            const missing = (await readPages(due, pages, tick, out)).filter((id) => followed.has(id));
            lastListMisses = missing.length;
            await readEach(missing, tick, out);
          } else {
            stats.lastMode = 'get';
            await readEach([...due], tick, out);
          }
        }
        stats.lastTickRequests = stats.requests - before;
        stats.following = followed.size;

        for (const change of out) {
          const onChange = opts.onChange;
          if (onChange !== undefined) notify('onChange', api._logger, () => onChange(change));
          yield change;
        }
        out.length = 0;
        if (followed.size === 0) break;
        await pause(clock, sleepFor(), signal);
      }
    } catch (err) {
      // An abort ends the watch cleanly, wherever it lands (mid-request or mid-sleep).
      if (!signal?.aborted) throw scrubbed(api, err);
    }
    stats.following = followed.size;
    stats.aborted = signal?.aborted === true;
  }

  /** The tick interval, or longer when every invoice left waits for an automatic retry. */
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

/** The last touch of `invoice` (server ms), or `fallback` when it has none readable. */
function touchedAt(invoice: Invoice, fallback: number): number {
  const touched = invoice.updatedAt === undefined ? Number.NaN : Date.parse(invoice.updatedAt);
  return Number.isNaN(touched) ? fallback : touched;
}

function* range(from: number, to: number): Generator<number> {
  for (let page = from; page <= to; page += 1) yield page;
}

/**
 * Resolves on a later turn of the event loop, after the pending promise callbacks: `setImmediate`
 * where the runtime has it (no timer's 1 ms floor per read), a zero timer elsewhere.
 */
function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate === undefined ? setTimeout(resolve, 0) : immediate(resolve)));
}
