/**
 * A deployment without `GET /api/v1/invoices/{id}` (the document lists the read endpoint as "not
 * shown"): a 404 there for an invoice the client was given reads as a missing route, and from then on
 * this client reads invoices through the list route, saying so once. A missing invoice is still a
 * NotFoundError.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isNotFoundError } from '../../src/core/errors.js';
import type { InvoiceWatch, WatchChange } from '../../src/filing/watch.js';
import type { Sandbox } from '../../src/testing/index.js';
import { recordingLogger } from '../core/support.js';
import { clientOf, draftThrough, HOUR, sampleInput, sandboxClock, sends, startSandbox } from '../filing/helpers.js';

const ROUTE_WARNING = /no single-invoice read route/;

function listings(sandbox: Sandbox) {
  return sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/invoices');
}

function warnedClient(sandbox: Sandbox) {
  const logger = recordingLogger();
  return { logger, client: clientOf(sandbox, { logger, logLevel: 'warn' }) };
}

const warnings = (lines: string[]) => lines.filter((line) => ROUTE_WARNING.test(line));

describe('resources/read-fallback (client.invoices.retrieve without the read route)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('reads a created invoice through the list route, with one warning, and keeps doing so', async () => {
    sandbox = await startSandbox({ routes: { retrieve: false } });
    const { client, logger } = warnedClient(sandbox);
    const draft = await draftThrough(client, sandbox, 'draft');

    const first = await client.invoices.retrieve(draft.id);
    const second = await client.invoices.retrieve(draft.id);

    expect(first).toMatchObject({ id: draft.id, status: 'DRAFT' });
    expect(second.id).toBe(draft.id);
    // The route was tried once; the second read went straight to the listing.
    expect(sends(sandbox, 'GET', draft.id)).toHaveLength(1);
    expect(listings(sandbox)).toHaveLength(2);
    expect(warnings(logger.lines)).toHaveLength(1);
  });

  it('walks the listing pages to the invoice', async () => {
    sandbox = await startSandbox({ routes: { retrieve: false } });
    const client = clientOf(sandbox);
    let last = await draftThrough(client, sandbox, 'draft');
    for (let n = 2; n <= 105; n++) last = await client.invoices.create(sampleInput(sandbox, n));
    sandbox.clearRequests();

    const invoice = await client.invoices.retrieve(last.id);

    expect(invoice.id).toBe(last.id);
    // 105 invoices at 100 a page: the first page, then the second holding it.
    expect(listings(sandbox).map((r) => [r.query.limit, r.query.page])).toEqual([
      ['100', undefined],
      ['100', '2'],
    ]);
  });

  it('follows a filing with waitFor and watch through the list route', async () => {
    sandbox = await startSandbox({ routes: { retrieve: false } });
    const { client, logger } = warnedClient(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    const other = await draftThrough(client, sandbox, 'submitted', 2);

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, { timeout: HOUR, clock: sandboxClock(sandbox) });
    expect(invoice.rawStatus).toBe('Accepted');
    expect(failure).toBeUndefined();

    const watch: InvoiceWatch = client.invoices.watch([other.id], { clock: sandboxClock(sandbox) });
    const changes: WatchChange[] = [];
    for await (const change of watch) changes.push(change);
    const last = changes.at(-1);
    expect(last?.kind === 'status' && last.invoice.rawStatus).toBe('Accepted');

    expect(warnings(logger.lines)).toHaveLength(1);
  });

  it('still rejects an invoice that does not exist with NotFoundError, before and after the route is known missing', async () => {
    sandbox = await startSandbox({ routes: { retrieve: false } });
    const { client, logger } = warnedClient(sandbox);

    const before = await client.invoices.retrieve('inv_missing').catch((e: unknown) => e);
    expect(isNotFoundError(before)).toBe(true);

    const draft = await draftThrough(client, sandbox, 'draft');
    await client.invoices.retrieve(draft.id);
    const after = await client.invoices.retrieve('inv_missing_too').catch((e: unknown) => e);
    expect(isNotFoundError(after)).toBe(true);
    expect((after as Error).message).toMatch(/inv_missing_too/);
    expect(warnings(logger.lines)).toHaveLength(1);
  });

  it('keeps a real 404 for an unknown id as NotFoundError, without walking the listing, where the route exists', async () => {
    sandbox = await startSandbox();
    const { client, logger } = warnedClient(sandbox);
    await draftThrough(client, sandbox, 'draft');
    sandbox.clearRequests();

    const error = await client.invoices.retrieve('inv_unknown').catch((e: unknown) => e);

    expect(isNotFoundError(error)).toBe(true);
    expect(listings(sandbox)).toHaveLength(0);
    expect(warnings(logger.lines)).toHaveLength(0);
  });

  it('takes a plain 404 for an invoice it listed as a missing route, but not for one it never saw', async () => {
    sandbox = await startSandbox();
    const seeding = clientOf(sandbox);
    const draft = await draftThrough(seeding, sandbox, 'draft');
    const { client, logger } = warnedClient(sandbox);
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 404, times: Infinity });

    const unseen = await client.invoices.retrieve(draft.id).catch((e: unknown) => e);
    expect(isNotFoundError(unseen)).toBe(true);
    expect(warnings(logger.lines)).toHaveLength(0);

    await client.invoices.list();
    expect((await client.invoices.retrieve(draft.id)).id).toBe(draft.id);
    expect(warnings(logger.lines)).toHaveLength(1);
  });

  it('remembers per client: another client tries the route itself', async () => {
    sandbox = await startSandbox({ routes: { retrieve: false } });
    const a = clientOf(sandbox);
    const draft = await draftThrough(a, sandbox, 'draft');
    await a.invoices.retrieve(draft.id);
    sandbox.clearRequests();

    const b = clientOf(sandbox);
    await b.invoices.list();
    await b.invoices.retrieve(draft.id);

    expect(sends(sandbox, 'GET', draft.id)).toHaveLength(1);
  });
});
