import { afterEach, describe, expect, it } from 'vitest';
import { isRecoveryInProgressError } from '../../src/core/errors.js';
import { AUTOMATIC_RECOVERY, recoveryVerdict } from '../../src/model/status.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, MINUTE, sandboxClock, sends, startSandbox } from './helpers.js';

describe('model/status recoveryVerdict: recovery judged from what the document gives', () => {
  const t0 = Date.parse('2026-03-02T09:00:00Z');
  const at = (minutes: number) => t0 + minutes * MINUTE;
  const error = (touchedAt: number, attempts?: number) => ({ status: 'Error', updatedAt: new Date(touchedAt).toISOString(), attempts });

  it('without a count: in progress within 10 minutes of the last touch, over after (every retry touches the invoice)', () => {
    expect(recoveryVerdict(error(at(0)), at(10))).toEqual({ state: 'in-progress', evidence: 'quiet' });
    expect(recoveryVerdict(error(at(0)), at(10) + 1)).toEqual({ state: 'over', evidence: 'quiet' });
  });

  it('without a count or a timestamp: over 40 minutes after it was first seen in Error', () => {
    const untimed = { status: 'Error' };
    expect(recoveryVerdict(untimed, at(39), at(0))).toEqual({ state: 'in-progress', evidence: 'none' });
    expect(recoveryVerdict(untimed, at(40), at(0))).toEqual({ state: 'over', evidence: 'elapsed' });
    expect(AUTOMATIC_RECOVERY.latestEndMs).toBe(40 * MINUTE);
  });

  it('keeps using a count where the record shows one', () => {
    expect(recoveryVerdict(error(at(0), 2), at(15))).toEqual({ state: 'in-progress', evidence: 'attempts' });
    expect(recoveryVerdict(error(at(0), 3), at(1))).toEqual({ state: 'over', evidence: 'attempts' });
  });

  it('is over 24 hours after the last touch, count or not', () => {
    expect(recoveryVerdict(error(at(0), 1), at(24 * 60))).toEqual({ state: 'over', evidence: 'window' });
  });
});

describe('filing: recovery without an attempt count on the record (sandbox attemptCount: false)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  async function failed(options: Parameters<typeof startSandbox>[0] = {}) {
    sandbox = await startSandbox({ attemptCount: false, scenario: { name: 'offline', recoversOnAttempt: 'never' }, ...options });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.clock.advance(2_000); // the authority's answer: Error
    return { client, id: submitted.id, erroredAt: sandbox.clock.now() };
  }

  it('serves records without the count', async () => {
    const { client, id } = await failed();
    const invoice = await client.invoices.retrieve(id);
    expect(invoice.status).toBe('ERROR');
    expect(invoice.attempts).toBeUndefined();
    expect('attempts' in invoice.raw).toBe(false);
  });

  it('waitFor returns once the retries have run out, within 40 minutes of the error, saying which evidence it used', async () => {
    const { client, id, erroredAt } = await failed();

    const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 2 * HOUR, clock: sandboxClock(sandbox) });

    expect(invoice.status).toBe('ERROR');
    expect(failure).toMatchObject({ recovery: 'over', resubmitRequired: true, recoveryEvidence: 'quiet', attempts: undefined });
    expect(failure?.hint).toMatch(/time since the last touch/);
    // The three retries ran (the service's own count), and the wait ended within 40 minutes of the error.
    expect(sandbox.invoices.get(id)?.attempts).toBe(3);
    expect(sandbox.clock.now() - erroredAt).toBeLessThanOrEqual(40 * MINUTE + MINUTE);
    expect(sends(sandbox, 'submit', id)).toHaveLength(1);
  });

  it('submit() refuses while the last touch is recent, naming the evidence, and sends once recovery ran out', async () => {
    const { client, id } = await failed();

    const early = await client.invoices.submit(id).catch((e: unknown) => e);
    expect(isRecoveryInProgressError(early)).toBe(true);
    expect((early as { hint: string }).hint).toMatch(/^Judged from the time since the last touch/);
    expect(sends(sandbox, 'submit', id)).toHaveLength(1);

    sandbox.clock.advance(45 * MINUTE); // three retries, 10 minutes apart, then a run that no longer takes it
    sandbox.setScenario(id, 'accepted');
    const invoice = await client.invoices.submit(id);

    expect(invoice.status).toBe('SUBMITTED');
    expect(sends(sandbox, 'submit', id)).toHaveLength(2);
  });

  it('resumeFiling re-submits deliberately once recovery ran out, and waits for recovery first with wait', async () => {
    const { client, id } = await failed();
    sandbox.setScenario(id, { name: 'offline', recoversOnAttempt: 'never' });
    const clock = sandboxClock(sandbox);

    const resumed = await client.invoices.resumeFiling(id, { wait: { timeout: 2 * HOUR, clock }, clock, duringRecovery: 'wait' });

    // Waited through the recovery, re-submitted once, and waited again for that submit's outcome.
    expect(resumed.steps.filter((s) => s.step === 'submit' && s.outcome === 'done')).toHaveLength(1);
    expect(sandbox.invoices.get(id)?.submissions).toBe(2);
    expect(resumed.failure).toMatchObject({ recovery: 'over', recoveryEvidence: 'quiet' });
  });

  it('watch settles such an invoice as recovery over', async () => {
    const { client, id } = await failed();

    const changes = [];
    for await (const change of client.invoices.watch([id], { clock: sandboxClock(sandbox) })) changes.push(change);

    const last = changes.at(-1);
    expect(last).toMatchObject({ kind: 'status', final: true, failure: { recovery: 'over', recoveryEvidence: 'quiet' } });
  });

  it('with the count shown, says the count decided', async () => {
    const { client, id } = await failed({ attemptCount: true });

    const { failure } = await client.invoices.waitFor(id, { timeout: 2 * HOUR, clock: sandboxClock(sandbox) });

    expect(failure).toMatchObject({ recovery: 'over', recoveryEvidence: 'attempts', attempts: 3 });
  });
});
