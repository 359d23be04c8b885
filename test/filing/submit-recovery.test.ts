import { afterEach, describe, expect, it } from 'vitest';
import { isRecoveryInProgressError } from '../../src/core/errors.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, MINUTE, sends, startSandbox } from './helpers.js';

describe('filing/transition (submit during automatic recovery)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  async function inRecovery(attempts: number, touchedAgo = 4 * MINUTE) {
    sandbox = await startSandbox();
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');
    sandbox.invoices.update(submitted.id, {
      status: 'Error',
      errorMessage: 'Access points are offline',
      attempts,
      updatedAt: sandbox.clock.now() - touchedAgo,
      automaticRetries: false,
    });
    sandbox.clearRequests();
    return { client, id: submitted.id };
  }

  it('refuses locally with RecoveryInProgressError, sending no submit, while recovery is in play', async () => {
    const { client, id } = await inRecovery(1);

    const err = await client.invoices.submit(id).catch((e: unknown) => e);

    expect(isRecoveryInProgressError(err)).toBe(true);
    const touched = sandbox.clock.now() - 4 * MINUTE;
    expect(err).toMatchObject({ invoiceId: id, attemptsLeft: 2, nextAttemptAt: new Date(touched + 10 * MINUTE).toISOString() });
    expect((err as Error).message).toMatch(/next automatic attempt is due by .* \(2 automatic attempts left\)/);
    expect((err as { hint?: string }).hint).toMatch(/force: true/);
    expect(sends(sandbox, 'submit')).toHaveLength(0);
    expect(sends(sandbox, 'GET', id)).toHaveLength(1);
  });

  it('sends anyway with { force: true }', async () => {
    const { client, id } = await inRecovery(1);

    // The service accepts it, and it does not speed recovery up: the invoice stays as it was.
    const invoice = await client.invoices.submit(id, { force: true });

    expect(invoice).toMatchObject({ status: 'ERROR', attempts: 1 });
    expect(sends(sandbox, 'submit', id)).toHaveLength(1);
    expect(sandbox.invoices.get(id)?.submissions).toBe(1);
  });

  it('re-submits once recovery is over (three attempts used)', async () => {
    const { client, id } = await inRecovery(3);

    await client.invoices.submit(id);

    expect(sends(sandbox, 'submit', id)).toHaveLength(1);
  });

  it('re-submits once the invoice has been in Error for over 24 hours', async () => {
    const { client, id } = await inRecovery(1, 25 * HOUR);

    await client.invoices.submit(id);

    expect(sends(sandbox, 'submit', id)).toHaveLength(1);
  });

  it('resumeFiling sends no submit while recovery is in play', async () => {
    const { client, id } = await inRecovery(0);

    const { invoice } = await client.invoices.resumeFiling(id);

    expect(invoice.status).toBe('ERROR');
    expect(sends(sandbox, 'submit')).toHaveLength(0);
  });
});
