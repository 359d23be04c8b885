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
});
