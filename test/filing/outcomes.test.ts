import { afterEach, describe, expect, it } from 'vitest';
import { isNotSubmittedError } from '../../src/core/errors.js';
import type { FilingInvoicesApi } from '../../src/filing/api.js';
import { performTransition } from '../../src/filing/transition.js';
import type { Invoice } from '../../src/model/invoice.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, MINUTE, sampleInput, sandboxClock, sends, startSandbox } from './helpers.js';

const REASON = 'Duplicate invoice number';

describe('filing outcomes: a final status other than acceptance is a failure', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('waitFor: a rejection comes back as failure.kind rejected, with the reason and a hint', async () => {
    sandbox = await startSandbox({ scenario: { name: 'rejected', reason: REASON } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { invoice, failure } = await client.invoices.waitFor(submitted.id, { timeout: MINUTE, clock: sandboxClock(sandbox) });

    expect(invoice.status).toBe('REJECTED');
    expect(failure).toMatchObject({ kind: 'rejected', message: REASON, recovery: 'not-applicable', resubmitRequired: false });
    expect(failure?.hint).toMatch(/not filed/);
  });

  it('waitFor: a rejection ends the wait even when until names only acceptance', async () => {
    sandbox = await startSandbox({ scenario: { name: 'rejected', reason: REASON } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { failure } = await client.invoices.waitFor(submitted.id, { until: ['ACCEPTED'], timeout: MINUTE, clock: sandboxClock(sandbox) });

    expect(failure?.kind).toBe('rejected');
  });

  it('waitFor: CANCELLED and a finalStatuses entry that is not an acceptance are failures too; acceptance is not', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { finalStatuses: ['ACCEPTED', 'REJECTED', 'CANCELLED', 'Archived'] });
    const voided = await draftThrough(client, sandbox, 'submitted', 1);
    const archived = await draftThrough(client, sandbox, 'submitted', 2);
    const accepted = await draftThrough(client, sandbox, 'submitted', 3);
    sandbox.setScenario(voided.id, { name: 'rejected', status: 'Voided', reason: 'Withdrawn' });
    sandbox.setScenario(archived.id, { name: 'accepted', status: 'Archived' });
    const clock = sandboxClock(sandbox);

    const results = await Promise.all([voided, archived, accepted].map((s) => client.invoices.waitFor(s.id, { timeout: MINUTE, clock })));

    expect(results.map((r) => r.failure?.kind)).toEqual(['cancelled', 'not-accepted', undefined]);
    expect(results[0]?.failure?.message).toBe('Withdrawn');
  });

  it('createAndFile and resumeFiling report the rejection as failure; resumeFiling sends nothing to a rejected invoice', async () => {
    sandbox = await startSandbox({ scenario: { name: 'rejected', reason: REASON } });
    const client = clientOf(sandbox);
    const clock = sandboxClock(sandbox);

    const filed = await client.invoices.createAndFile(sampleInput(sandbox), { wait: { timeout: MINUTE, clock }, clock });
    expect(filed.failure).toMatchObject({ kind: 'rejected', message: REASON });

    sandbox.clearRequests();
    const resumed = await client.invoices.resumeFiling(filed.invoice.id, { clock });
    expect(resumed.failure).toMatchObject({ kind: 'rejected', message: REASON });
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('fileMany: a rejected invoice is ok: false with its invoice, failure and an error that says why', async () => {
    sandbox = await startSandbox({ scenario: (subject) => (subject.buyer.name === 'Buyer 2' ? { name: 'rejected', reason: REASON } : undefined) });
    const client = clientOf(sandbox);
    const clock = sandboxClock(sandbox);

    const results = await client.invoices.fileMany([sampleInput(sandbox, 1), sampleInput(sandbox, 2)], { wait: { timeout: MINUTE, clock }, clock });

    expect(results[0]).toMatchObject({ ok: true });
    expect(results[1]).toMatchObject({ ok: false, failure: { kind: 'rejected', message: REASON }, invoice: { status: 'REJECTED' } });
    const failed = results[1];
    if (failed?.ok !== false || failed.notStarted) throw new Error('expected a failure');
    expect(failed.invoiceId).toBe(failed.invoice?.id);
    expect(failed.error.message).toContain(REASON);
    expect(failed.error.message).toMatch(/rejected/);
  });

  it('watch: the final event of a rejected invoice carries the failure', async () => {
    sandbox = await startSandbox({ scenario: { name: 'rejected', reason: REASON } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(5_000);

    const changes = [];
    for await (const change of client.invoices.watch([submitted.id], { clock: sandboxClock(sandbox) })) changes.push(change);

    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: 'status', final: true, failure: { kind: 'rejected', message: REASON } });
  });
});

describe('filing outcomes: what only the caller moves, and transitions out of final statuses', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it.each([
    ['draft', 'validate'],
    ['validated', 'sign'],
    ['signed', 'submit'],
  ] as const)('waitFor on a %s invoice answers at once with NotSubmittedError naming %s', async (upTo, next) => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const invoice = await draftThrough(client, sandbox, upTo);
    sandbox.clearRequests();

    const err = await client.invoices.waitFor(invoice.id, { timeout: 40 * MINUTE, clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

    expect(isNotSubmittedError(err)).toBe(true);
    expect(err).toMatchObject({ invoiceId: invoice.id, nextStep: next });
    expect((err as { hint: string }).hint).toContain(`client.invoices.${next}('${invoice.id}')`);
    expect(sends(sandbox, 'GET', invoice.id)).toHaveLength(1);
  });

  it('waitFor keeps polling a status before Submitted that until names (another process may move it)', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const validated = await draftThrough(client, sandbox, 'validated');
    const clock = sandboxClock(sandbox);
    const waiting = client.invoices.waitFor(validated.id, { until: ['SIGNED'], timeout: MINUTE, clock });
    await client.invoices.sign(validated.id);

    await expect(waiting).resolves.toMatchObject({ invoice: { status: 'SIGNED' } });
  });

  it('submit on a REJECTED invoice sends the request and reports what the service answers', async () => {
    sandbox = await startSandbox({ scenario: { name: 'rejected', reason: REASON } });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(5_000);
    sandbox.clearRequests();

    const err = await client.invoices.submit(submitted.id).catch((e: unknown) => e);

    expect(sends(sandbox, 'submit', submitted.id)).toHaveLength(1);
    expect(err).toMatchObject({ name: 'InvalidTransitionError', status: 409, currentStatus: 'REJECTED' });
    expect((err as Error).message).toMatch(/service: Invoice .* cannot be submitted/);
  });

  it('submit on an invoice after Submitted returns what the service answers when it takes the request', async () => {
    const record = (status: string) => ({ id: 'inv_1', status: status.toUpperCase(), rawStatus: status, attempts: undefined }) as unknown as Invoice;
    const sent: string[] = [];
    const api = {
      create: async () => record('Draft'),
      retrieve: async () => record('Rejected'),
      _transition: async (_id: string, step: string) => {
        sent.push(step);
        return record('Submitted');
      },
    } as unknown as FilingInvoicesApi;

    const result = await performTransition(api, 'inv_1', 'submit');

    expect(sent).toEqual(['submit']);
    expect(result).toMatchObject({ outcome: 'sent', sends: 1, invoice: { rawStatus: 'Submitted' } });
  });
});
