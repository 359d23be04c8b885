import { afterEach, describe, expect, it } from 'vitest';
import { isWaitTimeoutError } from '../../src/core/errors.js';
import type { Invoice } from '../../src/model/invoice.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, MINUTE, sandboxClock, sends, startSandbox } from './helpers.js';

describe('filing/wait (client.invoices.waitFor)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('returns once the tax authority answers, reporting every status change', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    const seen: string[] = [];

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, {
      timeout: 60_000,
      clock: sandboxClock(sandbox),
      onStatus: (inv) => seen.push(inv.rawStatus ?? '?'),
    });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(failure).toBeUndefined();
    expect(seen).toEqual(['Submitted', 'Accepted']);
  });

  it('waits through the 10-minute automatic retry without ever submitting', async () => {
    sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 1 } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    const submitsBefore = sends(sandbox, 'submit').length;
    const seen: Invoice[] = [];

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, {
      timeout: HOUR,
      clock: sandboxClock(sandbox),
      onStatus: (inv) => seen.push(inv),
    });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(failure).toBeUndefined();
    expect(seen.map((i) => i.status)).toEqual(['SUBMITTED', 'ERROR', 'ACCEPTED']);
    expect(sends(sandbox, 'submit')).toHaveLength(submitsBefore);
    // Paced at one read a minute (the job runs on its own schedule), not by the 2-second interval.
    expect(sends(sandbox, 'GET', submitted.id).length).toBeLessThanOrEqual(16);
  });

  it('follows a whole 30-minute recovery in far fewer than 60 reads, then says a re-submit is needed', async () => {
    sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    const attemptsSeen: (number | undefined)[] = [];

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, {
      timeout: HOUR,
      clock: sandboxClock(sandbox),
      onStatus: (inv) => attemptsSeen.push(inv.attempts),
    });

    expect(invoice.status).toBe('ERROR');
    expect(invoice.attempts).toBe(3);
    expect(failure).toMatchObject({ kind: 'access-points-offline', recovery: 'over', resubmitRequired: true, attempts: 3 });
    expect(failure?.hint).toMatch(/buyer's provider must recover/);
    expect(attemptsSeen).toEqual([0, 0, 1, 2, 3]);
    // About one read a minute over 30 minutes of recovery.
    expect(sends(sandbox, 'GET', submitted.id).length).toBeLessThanOrEqual(40);
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(1);
  });

  it('returns at once with the failure for an invoice in Error untouched for over 24 hours', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.invoices.update(submitted.id, {
      status: 'Error',
      errorMessage: 'Access points are offline',
      attempts: 1,
      updatedAt: sandbox.clock.now() - 25 * HOUR,
      automaticRetries: false,
    });
    sandbox.clearRequests();

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, { timeout: HOUR, clock: sandboxClock(sandbox) });

    expect(invoice.status).toBe('ERROR');
    expect(failure).toMatchObject({ kind: 'access-points-offline', recovery: 'over', resubmitRequired: true });
    expect(sandbox.requests).toHaveLength(1);
  });

  it('judges the 24-hour window on the service clock, not the local one', async () => {
    // The service's clock says 2020: by the local clock the invoice was touched years ago.
    sandbox = await startSandbox({ now: '2020-01-01T00:00:00Z' });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.invoices.update(submitted.id, { status: 'Error', errorMessage: 'Access points are offline', attempts: 0, automaticRetries: false });
    sandbox.clock.advance(HOUR);

    const result = client.invoices.waitFor(submitted.id, { timeout: 30 * MINUTE, clock: sandboxClock(sandbox) });

    // Touched an hour ago by the service's clock: recovery is in progress, so no early return.
    await expect(result).rejects.toSatisfy(isWaitTimeoutError);
  });

  it('names the field of a single-field validation failure', async () => {
    sandbox = await startSandbox({ scenario: { name: 'field-error', field: 'buyer.tin' } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { failure } = await client.invoices.waitFor(submitted.id, { timeout: 2 * HOUR, clock: sandboxClock(sandbox) });

    expect(failure).toMatchObject({ kind: 'field-validation', field: 'buyer.tin', resubmitRequired: true });
    expect(failure?.hint).toMatch(/may reveal the next/);
  });

  it('stops at statuses given in until, in any spelling', async () => {
    sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, { until: ['error'], timeout: HOUR, clock: sandboxClock(sandbox) });

    expect(invoice.status).toBe('ERROR');
    expect(failure).toMatchObject({ recovery: 'in-progress', resubmitRequired: false });
  });

  it('throws WaitTimeoutError carrying the last invoice when the time is up', async () => {
    sandbox = await startSandbox({ scenario: 'pending' });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const err = await client.invoices.waitFor(submitted.id, { timeout: 30_000, clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

    expect(isWaitTimeoutError(err)).toBe(true);
    expect(err).toMatchObject({ invoiceId: submitted.id, timeoutMs: 30_000, lastInvoice: { status: 'SUBMITTED' } });
  });

  it.each([Infinity, Number.NaN, -1, '60000' as unknown as number])('refuses timeout %s before any request', async (timeout) => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);

    await expect(client.invoices.waitFor('inv_1', { timeout })).rejects.toMatchObject({
      name: 'InvoicingError',
      message: expect.stringMatching(/timeout must be a finite number/),
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('aborts at once in the middle of a pause', async () => {
    sandbox = await startSandbox({ scenario: 'pending' });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clearRequests();
    const controller = new AbortController();

    // Real clock, one read then a one-minute pause: only an abort mid-sleep ends this in time.
    const waiting = client.invoices.waitFor(submitted.id, {
      timeout: 10 * MINUTE,
      interval: MINUTE,
      maxInterval: MINUTE,
      signal: controller.signal,
      onStatus: () => setTimeout(() => controller.abort(new Error('user cancelled')), 10),
    });

    await expect(waiting).rejects.toMatchObject({ name: 'APIUserAbortError', cause: new Error('user cancelled') });
    expect(sends(sandbox, 'GET', submitted.id)).toHaveLength(1);
  });

  it('honours Retry-After on a read refused with 429', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { maxRetries: 0 });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clearRequests();
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 429, retryAfter: 20 });

    const { invoice } = await client.invoices.waitFor(submitted.id, { timeout: MINUTE, clock: sandboxClock(sandbox) });

    expect(invoice.rawStatus).toBe('Accepted');
    const reads = sends(sandbox, 'GET', submitted.id);
    expect(reads[0]?.status).toBe(429);
    expect(Date.parse(reads[1]!.time) - Date.parse(reads[0]!.time)).toBeGreaterThanOrEqual(20_000);
  });

  it('honours Retry-After on a read refused with 429 on real timers too (0.25 s)', async () => {
    // The sandbox's clock runs with real time here, so the request log's times are real.
    sandbox = await startSandbox({ timeScale: 1 });
    const client = clientOf(sandbox, { maxRetries: 0 });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clearRequests();
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 429, retryAfter: 0.25 });

    // Whether the authority answers within the second does not matter here: the pause after the 429 does.
    await client.invoices.waitFor(submitted.id, { timeout: 1_000, interval: 20, maxInterval: 50 }).catch(() => undefined);

    const reads = sends(sandbox, 'GET', submitted.id);
    expect(reads[0]?.status).toBe(429);
    expect(Date.parse(reads[1]!.time) - Date.parse(reads[0]!.time)).toBeGreaterThanOrEqual(249);
  });

  it('keeps waiting through reads that fail for a passing reason', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { maxRetries: 0 });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'drop-before', times: 2 });
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 502 });

    const { invoice } = await client.invoices.waitFor(submitted.id, { timeout: MINUTE, clock: sandboxClock(sandbox) });

    expect(invoice.rawStatus).toBe('Accepted');
  });

  it('rejects at once when the invoice does not exist', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);

    await expect(client.invoices.waitFor('inv_missing', { timeout: MINUTE })).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(sandbox.requests).toHaveLength(1);
  });

  it('follows a sandbox running 3000 times faster than real time within seconds, measuring its pace', async () => {
    sandbox = await startSandbox({ timeScale: 3000, scenario: { name: 'offline', recoversOnAttempt: 'never' } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    // Real clock; 30 service minutes are 0.6 real seconds.
    const { failure } = await client.invoices.waitFor(submitted.id, { timeout: 15_000 });

    expect(failure).toMatchObject({ recovery: 'over', attempts: 3 });
    expect(sends(sandbox, 'GET', submitted.id).length).toBeLessThanOrEqual(45);
  });
});
