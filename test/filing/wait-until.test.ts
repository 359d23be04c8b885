import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, MINUTE, sandboxClock, startSandbox } from './helpers.js';

describe('filing/wait (until)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it.each(['ACCEPTED', 'accepted', ' Accepted '])(
    'stops at an unpublished status in until whatever its case: %s for the service spelling Accepted',
    async (wanted) => {
      sandbox = await startSandbox({ acceptedStatus: 'Accepted' });
      const client = clientOf(sandbox);
      const submitted = await draftThrough(client, sandbox, 'submitted');

      const { invoice } = await client.invoices.waitFor(submitted.id, { until: [wanted], timeout: MINUTE, clock: sandboxClock(sandbox) });

      expect(invoice.rawStatus).toBe('Accepted');
    },
  );

  it('does not stop at a different unpublished status', async () => {
    sandbox = await startSandbox({ acceptedStatus: 'Accepted' });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    await expect(
      client.invoices.waitFor(submitted.id, { until: ['Accepted-Pending'], timeout: MINUTE, clock: sandboxClock(sandbox) }),
    ).rejects.toMatchObject({ name: 'WaitTimeoutError' });
  });

  it.each(['Registered', 'Processing'])('keeps polling by default at %s: an unrecognised or non-final status after Submitted is not final', async (status) => {
    sandbox = await startSandbox({ acceptedStatus: status });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    await expect(client.invoices.waitFor(submitted.id, { timeout: MINUTE, clock: sandboxClock(sandbox) })).rejects.toMatchObject({
      name: 'WaitTimeoutError',
    });
  });

  it('stops at an unrecognised status after Submitted once until names it in the server spelling', async () => {
    sandbox = await startSandbox({ acceptedStatus: 'Registered' });
    const client = clientOf(sandbox);
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { invoice } = await client.invoices.waitFor(submitted.id, { until: ['registered'], timeout: MINUTE, clock: sandboxClock(sandbox) });

    expect(invoice).toMatchObject({ status: 'UNKNOWN', rawStatus: 'Registered' });
  });
});
