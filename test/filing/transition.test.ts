import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvoicingClient } from '../../src/client.js';
import { isConflictError, isInvalidTransitionError } from '../../src/core/errors.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, sandboxClock, sends, startSandbox } from './helpers.js';

describe('filing/transition (client.invoices.validate / sign / submit)', () => {
  let sandbox: Sandbox;
  let client: InvoicingClient;

  beforeEach(async () => {
    sandbox = await startSandbox();
    client = clientOf(sandbox);
  });
  afterEach(() => sandbox.close());

  it('reads back after a dropped response to a committed sign and sends sign once', async () => {
    const validated = await draftThrough(client, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-after' });

    const signed = await client.invoices.sign(validated.id, { clock: sandboxClock(sandbox) });

    expect(signed.status).toBe('SIGNED');
    expect(sends(sandbox, 'sign', validated.id)).toHaveLength(1);
    const afterSign = sandbox.requests.slice(sandbox.requests.indexOf(sends(sandbox, 'sign')[0]!) + 1);
    expect(afterSign.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/invoices/${validated.id}`]);
  });

  it('sends again after a dropped request the service never acted on, once the read shows it did not', async () => {
    const validated = await draftThrough(client, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-before' });

    const signed = await client.invoices.sign(validated.id, { clock: sandboxClock(sandbox) });

    expect(signed.status).toBe('SIGNED');
    const signs = sends(sandbox, 'sign', validated.id);
    expect(signs.map((r) => r.committed)).toEqual([false, true]);
    // The second send came only after a read showed the invoice still Validated.
    const between = sandbox.requests.slice(sandbox.requests.indexOf(signs[0]!) + 1, sandbox.requests.indexOf(signs[1]!));
    expect(between.map((r) => r.method)).toEqual(['GET']);
  });

  it('counts a 5xx answer to a committed submit as done after reading back', async () => {
    const signed = await draftThrough(client, sandbox, 'signed');
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'status', status: 503, afterCommit: true });

    const submitted = await client.invoices.submit(signed.id, { clock: sandboxClock(sandbox) });

    expect(submitted.status).toBe('SUBMITTED');
    expect(sends(sandbox, 'submit', signed.id)).toHaveLength(1);
    expect(sandbox.invoices.get(signed.id)?.submissions).toBe(1);
  });

  it('counts an unreadable answer to a committed validate as done', async () => {
    const draft = await draftThrough(client, sandbox, 'draft');
    sandbox.faults.inject({ path: '/invoices/:id/validate', kind: 'malformed', variant: 'html', status: 200 });

    const validated = await client.invoices.validate(draft.id, { clock: sandboxClock(sandbox) });

    expect(validated.status).toBe('VALIDATED');
    expect(sends(sandbox, 'validate', draft.id)).toHaveLength(1);
  });

  it('gives up after maxRetries sends that never arrive, reading once more before it does', async () => {
    const validated = await draftThrough(client, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-before', times: Infinity });

    await expect(client.invoices.sign(validated.id, { maxRetries: 2, clock: sandboxClock(sandbox) })).rejects.toMatchObject({
      name: 'APIConnectionError',
    });
    expect(sends(sandbox, 'sign', validated.id)).toHaveLength(3);
    expect(sandbox.requests.at(-1)?.method).toBe('GET');
  });

  it("follows the client's maxRetries: with 0, an ambiguous failure of sign is read back but not resent", async () => {
    const strict = clientOf(sandbox, { maxRetries: 0 });
    const validated = await draftThrough(strict, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-before' });

    await expect(strict.invoices.sign(validated.id, { clock: sandboxClock(sandbox) })).rejects.toMatchObject({
      name: 'APIConnectionError',
    });

    const signs = sends(sandbox, 'sign', validated.id);
    expect(signs).toHaveLength(1);
    const after = sandbox.requests.slice(sandbox.requests.indexOf(signs[0]!) + 1);
    expect(after.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/invoices/${validated.id}`]);
    expect(sandbox.invoices.get(validated.id)?.status).toBe('Validated');
  });

  it("lets a per-call maxRetries override the client's", async () => {
    const strict = clientOf(sandbox, { maxRetries: 0 });
    const validated = await draftThrough(strict, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-before' });

    const signed = await strict.invoices.sign(validated.id, { maxRetries: 1, clock: sandboxClock(sandbox) });

    expect(signed.status).toBe('SIGNED');
    expect(sends(sandbox, 'sign', validated.id).map((r) => r.committed)).toEqual([false, true]);
  });

  it('turns a wrong-state 409 into InvalidTransitionError naming the current status, unretried', async () => {
    const draft = await draftThrough(client, sandbox, 'draft');

    const err = await client.invoices.sign(draft.id).catch((e: unknown) => e);

    expect(isInvalidTransitionError(err)).toBe(true);
    expect(isConflictError(err)).toBe(true);
    expect(err).toMatchObject({ invoiceId: draft.id, transition: 'sign', currentStatus: 'DRAFT', rawStatus: 'draft', status: 409 });
    expect((err as Error).message).toMatch(/it is draft/);
    expect((err as { hint: string }).hint).toMatch(/next step .* is validate/);
    expect(sends(sandbox, 'sign', draft.id)).toHaveLength(1);
  });

  it('counts a 409 for a step the invoice has already passed as done', async () => {
    const signed = await draftThrough(client, sandbox, 'signed');

    const again = await client.invoices.validate(signed.id);

    expect(again.status).toBe('SIGNED');
    expect(sends(sandbox, 'validate', signed.id)).toHaveLength(2); // the original and the refused one
  });

  it('does not retry a 400 that is not about the state', async () => {
    const draft = await draftThrough(client, sandbox, 'draft');
    sandbox.faults.inject({ path: '/invoices/:id/validate', kind: 'status', status: 400, body: { statusCode: 400, message: 'buyer.tin is not registered', error: 'Bad Request' } });

    await expect(client.invoices.validate(draft.id)).rejects.toMatchObject({ name: 'BadRequestError', status: 400 });
    expect(sends(sandbox, 'validate', draft.id)).toHaveLength(1);
  });

  it('waits out a 429 for its Retry-After and sends again', async () => {
    const signed = await draftThrough(client, sandbox, 'signed');
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'status', status: 429, retryAfter: 7 });
    const clock = sandboxClock(sandbox);

    const submitted = await client.invoices.submit(signed.id, { clock });

    expect(submitted.status).toBe('SUBMITTED');
    const submits = sends(sandbox, 'submit', signed.id);
    expect(submits.map((r) => r.status)).toEqual([429, 200]);
    expect(Date.parse(submits[1]!.time) - Date.parse(submits[0]!.time)).toBeGreaterThanOrEqual(7_000);
  });

  it('refuses a re-submit locally with RecoveryInProgressError while automatic recovery is in progress', async () => {
    sandbox.setScenario({ name: 'offline', recoversOnAttempt: 'never' });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(5_000); // the authority answers: Error
    const submitsBefore = sends(sandbox, 'submit', submitted.id).length;

    const err = await client.invoices.submit(submitted.id).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'RecoveryInProgressError', invoiceId: submitted.id });
    expect((err as { hint: string }).hint).toMatch(/does not speed it up/);
    expect(sends(sandbox, 'submit', submitted.id)).toHaveLength(submitsBefore);
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(1);
  });

  it('sends a deliberate re-submit again only when the record proves the first never arrived', async () => {
    sandbox.setScenario({ name: 'offline', recoversOnAttempt: 'never' });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(25 * HOUR); // recovery over: three attempts used
    sandbox.setScenario(submitted.id, 'accepted');
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before' });

    const { invoice } = await client.invoices.resumeFiling(submitted.id, { clock: sandboxClock(sandbox) });

    expect(invoice.status).toBe('SUBMITTED');
    expect(sends(sandbox, 'submit', submitted.id).map((r) => r.committed)).toEqual([true, false, true]);
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(2);
  });
  it('re-sends a direct submit() of an invoice in ERROR whose first send never arrived, and files it once', async () => {
    sandbox.setScenario({ name: 'offline', recoversOnAttempt: 'never' });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(25 * HOUR); // recovery over: a deliberate re-submit is due
    sandbox.setScenario(submitted.id, 'accepted');
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before' });
    sandbox.clearRequests();

    const invoice = await client.invoices.submit(submitted.id, { clock: sandboxClock(sandbox) });

    // Read first (ERROR), the send lost before it arrived, read back (untouched), sent again.
    expect(sandbox.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'POST']);
    expect(sends(sandbox, 'submit', submitted.id).map((r) => r.committed)).toEqual([false, true]);
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(2);
    expect(invoice.status).toBe('SUBMITTED');
  });

  it('does not count a direct re-submit as done when its answer is lost and the record moved', async () => {
    sandbox.setScenario({ name: 'offline', recoversOnAttempt: 'never' });
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(25 * HOUR);
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-after' });

    // The re-submit arrived (and failed again at once): the record moved, so it is done, once.
    const invoice = await client.invoices.submit(submitted.id, { clock: sandboxClock(sandbox) });

    expect(sends(sandbox, 'submit', submitted.id)).toHaveLength(2); // the first submit and this one
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(2);
    expect(invoice.status).not.toBe('SIGNED');
  });

  it('answers a submit() of an invoice already submitted from the read, without sending', async () => {
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clearRequests();

    const invoice = await client.invoices.submit(submitted.id);

    expect(sandbox.requests.map((r) => r.method)).toEqual(['GET']);
    expect(invoice.status).toBe('SUBMITTED');
    expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(1);
  });

  it('sends nothing when the read before a submit fails for good', async () => {
    const signed = await draftThrough(client, sandbox, 'signed');
    sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'status', status: 404, times: Infinity });
    // A 404 for an invoice the client created reads as a missing route: the listing is read next.
    sandbox.faults.inject({ method: 'GET', path: '/invoices', kind: 'status', status: 404, times: Infinity });

    const err = await client.invoices.submit(signed.id, { clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'NotFoundError' });
    expect(sends(sandbox, 'submit', signed.id)).toHaveLength(0);
  });

  it('counts submit as done for a filing whose submit was refused because another process submitted first', async () => {
    // A submit that fails at once (the buyer's access points are offline, the authority answering
    // without delay) puts the invoice in ERROR right after it: the second of two concurrent
    // resumptions sends its submit during automatic recovery, which the service accepts with no
    // effect ("another submit does not speed it up"): the invoice is filed once.
    sandbox.close();
    sandbox = await startSandbox({ responseDelayMs: 0, scenario: 'offline' });
    client = clientOf(sandbox);
    const signed = await draftThrough(client, sandbox, 'signed');

    const results = await Promise.allSettled([1, 2].map(() => client.invoices.resumeFiling(signed.id, { clock: sandboxClock(sandbox) })));

    // The first has the submit's own answer (Submitted), the second the record it read (Error).
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.invoice.status : r.reason))).toEqual(['SUBMITTED', 'ERROR']);
    const second = results[1]?.status === 'fulfilled' ? results[1].value : undefined;
    expect(second?.steps.find((s) => s.step === 'submit')).toMatchObject({ outcome: 'done', sends: 1 });
    expect(sends(sandbox, 'submit', signed.id).map((r) => r.status)).toEqual([200, 200]);
    expect(sandbox.invoices.get(signed.id)?.submissions).toBe(1);
  });

  it.each([
    [0, 1],
    [2, 3],
  ])('retries a transition refused with 429 no more than maxRetries (%i): %i sends', async (maxRetries, expected) => {
    const validated = await draftThrough(client, sandbox, 'validated');
    sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'status', status: 429, retryAfter: 1, times: Infinity });

    const err = await client.invoices.sign(validated.id, { maxRetries, clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'RateLimitError', status: 429 });
    expect(sends(sandbox, 'sign', validated.id)).toHaveLength(expected);
  });
  it('names the request an abort hit in flight', async () => {
    const draft = await draftThrough(client, sandbox, 'draft');
    sandbox.faults.inject({ path: '/invoices/:id/validate', kind: 'delay', ms: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);

    const err = await client.invoices.validate(draft.id, { signal: controller.signal }).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'APIUserAbortError', method: 'POST', path: `/api/v1/invoices/${draft.id}/validate` });
  });
});
