/**
 * Follow the tax authority's answers: many invoices with `watch`, one with `waitFor`, and what
 * happens while the service's automatic recovery is at work.
 *
 * The service has no webhooks: the answer to a submitted invoice is read by polling it.
 *
 * 1. `client.invoices.watch(ids)` follows a batch in one loop (one GET per invoice or listing
 *    pages, whichever costs fewer requests) and reports every status change until each invoice
 *    settles: a final status (`finalStatuses`, by default ACCEPTED, REJECTED, CANCELLED), or ERROR
 *    that automatic recovery will no longer pick up.
 * 2. Recovery, shown on a sandbox started by this script, whose clock jumps forward (10-minute retries take
 *    no real time): an invoice whose buyer's access points are offline goes to ERROR; the service
 *    retries it on its own. `submit()` then refuses locally with `RecoveryInProgressError`, sending
 *    nothing, and `waitFor()` waits for the retry instead of re-submitting.
 * 3. A rejection is a failure: `waitFor` returns it with `failure.kind === 'rejected'` and the
 *    service's reason.
 * 4. `finalStatuses`: a service that answers with a status the SDK does not know ('Archived')
 *    keeps `waitFor` polling (an unknown status is never final) until the client is told it is;
 *    a final status that is not an acceptance then comes with a `not-accepted` failure.
 *
 * Environment (part 1):
 *   INVOICING_BASE_URL, INVOICING_API_KEY, INVOICING_BUSINESS_ID
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- follow-outcomes
 * Guide: docs/follow-outcomes.md
 */
import {
  DEFAULT_FINAL_STATUSES,
  InvoicingClient,
  isRecoveryInProgressError,
  isWaitTimeoutError,
  type InvoiceCreateParams,
  type WaitClock,
} from 'invoicing-sdk';
import { createSandbox } from 'invoicing-sdk/testing';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

function invoiceFor(businessId: string, buyerName: string, amount: number): InvoiceCreateParams {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: buyerName },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description: 'Consulting, November', quantity: 1, unitPrice: amount, taxRate: 7.5, isicCode: '6202' }],
  };
}

/** Part 1: submit a few invoices without waiting, then follow them all with one watch. */
async function watchABatch(): Promise<void> {
  const client = new InvoicingClient();
  const businessId = requireEnv('INVOICING_BUSINESS_ID');
  const inputs = [1, 2, 3, 4].map((n) => invoiceFor(businessId, `Customer ${n}`, 100 * n));
  const filed = await client.invoices.fileMany(inputs, { externalRef: (_input, i) => `FOLLOW-2026-${i + 1}` });
  const ids = filed.flatMap((r) => (r.ok ? [r.invoice.id] : []));
  console.log(`Submitted ${ids.length} invoices; watching them.`);

  let settled = 0;
  const watch = client.invoices.watch(ids, { interval: 250, signal: AbortSignal.timeout(5 * 60_000) });
  for await (const change of watch) {
    if (change.kind === 'gone') {
      console.log(`  ${change.id} can no longer be read: ${change.error instanceof Error ? change.error.message : String(change.error)}`);
      continue;
    }
    console.log(`  ${change.id} ${change.previous?.status ?? '(first read)'} → ${change.invoice.status}${change.final ? ' (settled)' : ''}`);
    if (change.final) settled += 1;
  }
  console.log(`${settled} of ${ids.length} settled, in ${watch.stats.requests} requests.`);
  if (settled !== ids.length) process.exitCode = 1;
}

/** Parts 2 and 3, on a sandbox of this process (a loopback server) whose clock the example moves. */
async function recoveryAndFinalStatuses(): Promise<void> {
  const sandbox = await createSandbox({
    // The buyer named 'Offline Buyer' has its access points offline until the service's second
    // automatic retry; 'Rejected Buyer' is turned down; every other invoice is answered with a
    // status the SDK does not know.
    scenario: (invoice) =>
      invoice.buyer.name === 'Offline Buyer'
        ? { name: 'offline', recoversOnAttempt: 2 }
        : invoice.buyer.name === 'Rejected Buyer'
          ? { name: 'rejected', reason: 'Duplicate invoice number' }
          : { name: 'accepted', status: 'Archived' },
  });
  try {
    // Every pause of waitFor moves the sandbox's clock instead of sleeping.
    const clock: WaitClock = { now: () => sandbox.clock.now(), sleep: async (ms) => sandbox.clock.advance(ms) };
    const client = sandbox.client();

    console.log('\nAutomatic recovery:');
    const { invoice: submitted } = await client.invoices.createAndFile(invoiceFor(sandbox.businessId, 'Offline Buyer', 500));
    const { invoice: failed, failure } = await client.invoices.waitFor(submitted.id, { until: ['ERROR'], clock });
    console.log(`  ${failed.id} ${failed.status}: ${failed.errorMessage} (recovery ${failure?.recovery})`);
    try {
      await client.invoices.submit(failed.id);
      console.log('  submit was sent (unexpected)');
      process.exitCode = 1;
    } catch (err) {
      if (!isRecoveryInProgressError(err)) throw err;
      console.log(`  submit refused locally: RecoveryInProgressError, ${err.attemptsLeft} automatic attempt(s) left, next due ${err.nextAttemptAt}`);
    }
    const { invoice: recovered } = await client.invoices.waitFor(failed.id, {
      clock,
      onStatus: (current, previous) => console.log(`  waitFor: ${previous?.status ?? '…'} → ${current.status}`),
    });
    const submits = sandbox.invoices.get(failed.id)?.submissions;
    console.log(`  ${recovered.id} ${recovered.status} after the service's own retry; submits sent by the SDK: ${submits}`);

    console.log('\nA rejection:');
    const rejected = await client.invoices.createAndFile(invoiceFor(sandbox.businessId, 'Rejected Buyer', 600), { wait: { clock } });
    console.log(`  ${rejected.invoice.id} ${rejected.invoice.status}: failure ${rejected.failure?.kind}: ${rejected.failure?.message}`);

    console.log('\nfinalStatuses:');
    const { invoice: archived } = await client.invoices.createAndFile(invoiceFor(sandbox.businessId, 'Acme Ltd', 700));
    const early = await client.invoices
      .waitFor(archived.id, { clock, timeout: 60_000 })
      .then((r) => `returned ${r.invoice.status}`)
      .catch((err: unknown) => {
        if (!isWaitTimeoutError(err)) throw err;
        return `WaitTimeoutError after a minute at ${err.lastInvoice?.status}: an unknown status is not final`;
      });
    console.log(`  default finalStatuses (${DEFAULT_FINAL_STATUSES.join(', ')}): ${early}`);
    const told = sandbox.client({ finalStatuses: [...DEFAULT_FINAL_STATUSES, 'Archived'] });
    const { invoice, failure: notAccepted } = await told.invoices.waitFor(archived.id, { clock });
    console.log(`  with finalStatuses + 'Archived': returned ${invoice.status} (raw '${invoice.rawStatus}'), failure ${notAccepted?.kind}`);
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  await watchABatch();
  await recoveryAndFinalStatuses();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
