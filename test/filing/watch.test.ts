import { afterEach, describe, expect, it } from 'vitest';
import type { InvoicingClient } from '../../src/client.js';
import type { WaitClock } from '../../src/filing/clock.js';
import type { InvoiceWatch, WatchChange } from '../../src/filing/watch.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, sandboxClock, sends, startSandbox } from './helpers.js';

const TICK = 2_000;

/** Listing reads (`GET /api/v1/invoices?page=…`) in the sandbox's log. */
function listReads(sandbox: Sandbox) {
  return sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/invoices');
}

/** Creates `count` submitted invoices whose tax-authority answer never comes on its own. */
async function submitted(client: InvoicingClient, sandbox: Sandbox, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= count; n += 1) ids.push((await draftThrough(client, sandbox, 'submitted', n)).id);
  sandbox.clearRequests();
  return ids;
}

/**
 * A clock whose pauses advance the sandbox and, at the end of each tick, run `between(tick)`:
 * where a test changes invoices behind the watch's back.
 */
function tickClock(sandbox: Sandbox, watch: () => InvoiceWatch | undefined, between: (tick: number) => void): WaitClock {
  const base = sandboxClock(sandbox);
  let lastTick = 0;
  return {
    now: base.now,
    sleep: async (ms, signal) => {
      const tick = watch()?.stats.ticks ?? 0;
      if (tick !== lastTick) {
        lastTick = tick;
        between(tick);
      }
      await base.sleep(ms, signal);
    },
  };
}

describe('filing/watch (client.invoices.watch)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('reports every change at the tick after it happens, and ends once every invoice is final', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const ids = await submitted(client, sandbox, 4);
    const outcomes = ['Accepted', 'Rejected', 'Accepted', 'Cancelled'];
    const changedAt = new Map<string, number>();
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(ids, {
      interval: TICK,
      clock: tickClock(sandbox, () => watch, (tick) => {
        // One invoice answered by the tax authority during each tick's pause.
        const i = tick - 1;
        if (i < ids.length) {
          sandbox.invoices.update(ids[i]!, { status: outcomes[i]! });
          changedAt.set(ids[i]!, tick);
        }
      }),
    });

    const changes: WatchChange[] = [];
    for await (const change of watch) changes.push(change);

    const first = changes.filter((c) => c.kind === 'status' && c.previous === undefined);
    expect(first.map((c) => c.id).sort()).toEqual([...ids].sort());
    const later = changes.filter((c) => c.kind === 'status' && c.previous !== undefined);
    expect(later).toHaveLength(4);
    for (const change of later) {
      if (change.kind !== 'status') throw new Error('unreachable');
      expect(change.tick).toBe(changedAt.get(change.id)! + 1);
      expect(change.final).toBe(true);
      expect(change.previous?.status).toBe('SUBMITTED');
      expect(change.invoice.rawStatus).toBe(outcomes[ids.indexOf(change.id)]);
    }
    expect(watch.stats).toMatchObject({ ticks: 5, following: 0, settled: 4, aborted: false });
  });

  it('stops reading an invoice once it is final', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    // Six invoices on three pages of two: following the first and the last costs two GETs a tick,
    // less than walking the pages, so each is read on its own.
    const all = await submitted(client, sandbox, 6);
    const [early, late] = [all[0]!, all[5]!];
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch([early, late], {
      interval: TICK,
      pageSize: 2,
      clock: tickClock(sandbox, () => watch, (tick) => {
        if (tick === 1) sandbox.invoices.update(early, { status: 'Accepted' });
        if (tick === 6) sandbox.invoices.update(late, { status: 'Accepted' });
      }),
    });

    const summary = await watch.finished();

    expect(summary).toMatchObject({ ticks: 7, following: 0, settled: 2 });
    // Tick 1 found `early` on the first page; tick 2 read it once more and saw it final.
    expect(sends(sandbox, 'GET', early)).toHaveLength(1);
    expect(sends(sandbox, 'GET', late)).toHaveLength(7);
    expect(listReads(sandbox)).toHaveLength(1);
  });

  it('walks listing pages when they cost fewer requests than one GET per invoice', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const all = await submitted(client, sandbox, 12);
    const ids = all.slice(0, 10);
    const perTick: number[] = [];
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(ids, {
      interval: TICK,
      pageSize: 5,
      clock: tickClock(sandbox, () => watch, (tick) => {
        perTick.push(watch!.stats.lastTickRequests);
        expect(watch!.stats.lastMode).toBe('list');
        if (tick === 3) for (const id of ids) sandbox.invoices.update(id, { status: 'Accepted' });
      }),
    });

    const summary = await watch.finished();

    // The first two pages of five hold all ten: two requests a tick instead of ten.
    expect(perTick).toEqual([2, 2, 2]);
    expect(summary.lastTickRequests).toBe(2);
    expect(sends(sandbox, 'GET')).toHaveLength(0);
    expect(listReads(sandbox).every((r) => r.query.limit === '5')).toBe(true);
    expect(summary).toMatchObject({ ticks: 4, following: 0, settled: 10 });
  });

  it('reads only the pages holding the invoices still followed', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const all = await submitted(client, sandbox, 12);
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(all, {
      interval: TICK,
      pageSize: 4,
      clock: tickClock(sandbox, () => watch, (tick) => {
        // Everything but the last page settles after the first tick.
        if (tick === 1) for (const id of all.slice(0, 8)) sandbox.invoices.update(id, { status: 'Accepted' });
        if (tick === 3) for (const id of all.slice(8)) sandbox.invoices.update(id, { status: 'Accepted' });
      }),
    });

    await watch.finished();

    expect(listReads(sandbox).map((r) => r.query.page)).toEqual(['1', '2', '3', '1', '2', '3', '3', '3']);
  });

  it('pauses every read once for the Retry-After of a 429, then carries on', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const all = await submitted(client, sandbox, 40);
    // Eight invoices spread over the pages of 5: GETs are cheaper, four in flight at once.
    const ids = all.filter((_, i) => i % 5 === 0);
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 429, retryAfter: 30, times: 1 });
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(ids, {
      interval: TICK,
      pageSize: 5,
      concurrency: 4,
      clock: tickClock(sandbox, () => watch, (tick) => {
        if (tick === 2) for (const id of ids) sandbox.invoices.update(id, { status: 'Accepted' });
      }),
    });

    const summary = await watch.finished();

    const log = sandbox.requests;
    const limited = log.findIndex((r) => r.status === 429);
    expect(log.filter((r) => r.status === 429)).toHaveLength(1);
    const at = Date.parse(log[limited]!.time);
    const after = log.slice(limited + 1).map((r) => Date.parse(r.time) - at);
    // Requests already in flight with it answered at the same instant; every later one waited 30 s.
    expect(after.filter((d) => d === 0).length).toBeLessThanOrEqual(3);
    expect(after.filter((d) => d > 0 && d < 30_000)).toEqual([]);
    expect(after.some((d) => d >= 30_000)).toBe(true);
    // One pause for everyone, not one per reader.
    expect(Math.max(...after)).toBeLessThan(30_000 + 3 * TICK);
    expect(summary).toMatchObject({ following: 0, settled: 8 });
  });

  it('ends the iteration cleanly when its signal aborts, sending nothing after', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const ids = await submitted(client, sandbox, 3);
    const controller = new AbortController();
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(ids, {
      interval: TICK,
      signal: controller.signal,
      clock: tickClock(sandbox, () => watch, (tick) => {
        if (tick === 3) controller.abort(new Error('shutting down'));
      }),
    });

    const seen: WatchChange[] = [];
    for await (const change of watch) seen.push(change);
    const sent = sandbox.requests.length;

    expect(seen).toHaveLength(3);
    expect(watch.stats).toMatchObject({ ticks: 3, aborted: true, following: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sandbox.requests.length).toBe(sent);
  });

  it('ends cleanly when aborted mid-iteration by the caller', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const ids = await submitted(client, sandbox, 2);
    const controller = new AbortController();
    const watch = client.invoices.watch(ids, { interval: TICK, signal: controller.signal, clock: sandboxClock(sandbox) });
    let count = 0;
    for await (const change of watch) {
      count += 1;
      if (change.kind === 'status') controller.abort();
    }
    expect(count).toBe(2); // the changes of the tick already read are still delivered
    expect(watch.stats.aborted).toBe(true);
  });

  it('keeps the recovery rules per invoice: waits for the automatic retry and never submits', async () => {
    sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 1 } });
    const client = clientOf(sandbox);
    const ids = await submitted(client, sandbox, 2);
    const statuses: string[] = [];

    const summary = await client.invoices
      .watch(ids.slice(0, 1), {
        interval: TICK,
        clock: sandboxClock(sandbox),
        onChange: (c) => {
          if (c.kind === 'status') statuses.push(`${c.invoice.status}${c.failure ? `:${c.failure.recovery}` : ''}`);
        },
      })
      .finished();

    expect(statuses).toEqual(['SUBMITTED', 'ERROR:in-progress', 'ACCEPTED']);
    expect(sends(sandbox, 'submit')).toHaveLength(0);
    // About one read a minute during recovery (the job runs on its own schedule), not 300 ticks' worth.
    expect(sends(sandbox, 'GET', ids[0]).length).toBeLessThanOrEqual(12);
    expect(summary.following).toBe(0);
  });

  it('reports an invoice in Error with recovery over as final, with the failure', async () => {
    sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
    const client = clientOf(sandbox);
    const [id] = await submitted(client, sandbox, 1);
    const finals: WatchChange[] = [];
    await client.invoices
      .watch([id!], { clock: sandboxClock(sandbox), onChange: (c) => c.kind === 'status' && c.final && finals.push(c) })
      .finished();
    expect(finals).toHaveLength(1);
    const last = finals[0]!;
    if (last.kind !== 'status') throw new Error('unreachable');
    expect(last.invoice.status).toBe('ERROR');
    expect(last.failure).toMatchObject({ recovery: 'over', resubmitRequired: true });
    expect(sends(sandbox, 'submit')).toHaveLength(0);
  });

  it('reports an invoice that cannot be read as gone and follows the others', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const [id] = await submitted(client, sandbox, 1);
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch([id!, 'inv_missing'], {
      clock: tickClock(sandbox, () => watch, () => sandbox.invoices.update(id!, { status: 'Accepted' })),
    });
    const changes: WatchChange[] = [];
    for await (const change of watch) changes.push(change);
    expect(changes.find((c) => c.id === 'inv_missing')).toMatchObject({ kind: 'gone', tick: 1 });
    expect(changes.filter((c) => c.id === id)).toHaveLength(2);
  });

  it('reads each invoice when the listing is refused, and does not ask for it again', async () => {
    sandbox = await startSandbox({ responseDelayMs: 100 * HOUR });
    const client = clientOf(sandbox);
    const ids = await submitted(client, sandbox, 3);
    sandbox.faults.inject({ method: 'GET', path: '/invoices', kind: 'status', status: 403, times: Number.POSITIVE_INFINITY });
    let watch: InvoiceWatch | undefined;
    watch = client.invoices.watch(ids, {
      clock: tickClock(sandbox, () => watch, (tick) => {
        if (tick === 2) for (const id of ids) sandbox.invoices.update(id, { status: 'Accepted' });
      }),
    });
    const changes: WatchChange[] = [];
    for await (const change of watch) changes.push(change);
    expect(listReads(sandbox)).toHaveLength(1);
    expect(sends(sandbox, 'GET')).toHaveLength(9);
    expect(changes.filter((c) => c.kind === 'status' && c.final)).toHaveLength(3);
  });

  it('refuses bad options before any request', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    expect(() => client.invoices.watch(['a'], { interval: 0 })).toThrow(/interval/);
    expect(() => client.invoices.watch(['a'], { pageSize: 2.5 })).toThrow(/pageSize/);
    expect(() => client.invoices.watch([''])).toThrow(/non-empty/);
    expect(sandbox.requests).toHaveLength(0);
  });
});
