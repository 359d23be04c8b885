/**
 * File one invoice, step by step and then in one call.
 *
 * The filing is a chain of state changes on the service: check locally → create (a draft) →
 * validate → sign → submit → wait for the tax authority's answer. This script does it twice:
 *
 * 1. step by step, with one SDK call per step, reading the request id of the create from
 *    `.withResponse()` (quote it when you contact the service's support);
 * 2. with `createAndFile()`, which runs the same chain and also compares the service's totals
 *    with the lines. Run a second time with the same `externalRef`, it finds the invoice it
 *    filed and sends no step again.
 *
 * Environment:
 *   INVOICING_BASE_URL     origin of the service (the SDK adds /api/v1)
 *   INVOICING_API_KEY      a USER key with invoices:write
 *   INVOICING_BUSINESS_ID  the business the invoices belong to
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- file-one-invoice
 * Guide: docs/file-one-invoice.md
 */
import {
  checkInvoice,
  deriveIdempotencyKey,
  formatIssuePath,
  InvoicingClient,
  isInvoicingError,
  type InvoiceCreateParams,
} from 'invoicing-sdk';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

/** Stand-in for a document from your billing system. */
function invoiceFor(businessId: string, buyerName: string): InvoiceCreateParams {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: buyerName, email: 'accounts@acme.example' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Setup and configuration', quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
    ],
  };
}

async function stepByStep(client: InvoicingClient, input: InvoiceCreateParams, documentNumber: string): Promise<void> {
  // 1. Check locally: every problem at once, no network.
  const report = checkInvoice(input);
  for (const issue of [...report.errors, ...report.warnings]) {
    console.log(`check     ${issue.severity} ${formatIssuePath(issue.path)} ${issue.code}: ${issue.message}`);
  }
  if (!report.ok) throw new Error('The invoice has errors; nothing was sent.');
  console.log(`check     ok, total ${report.totals?.total}`);

  // 2. Create the draft. The key derived from your document number makes a repeated create
  //    (a retry, a re-run after a crash) return the same invoice instead of a second one.
  //    `skipChecks`: it was checked just above.
  const idempotencyKey = deriveIdempotencyKey(input.businessId, documentNumber);
  const { data: draft, requestId } = await client.invoices.create(input, { idempotencyKey, skipChecks: true }).withResponse();
  console.log(`create    ${draft.id} ${draft.status} (request id ${requestId ?? "none"})`);

  // 3-5. Each transition is sent at most once: after a lost answer the SDK reads the invoice back
  //      before it tries again.
  const validated = await client.invoices.validate(draft.id);
  console.log(`validate  ${validated.status}`);
  const signed = await client.invoices.sign(draft.id);
  console.log(`sign      ${signed.status}`);
  const submitted = await client.invoices.submit(draft.id);
  console.log(`submit    ${submitted.status}`);

  // 6. The tax authority answers asynchronously: poll until a final status.
  const { invoice, failure } = await client.invoices.waitFor(draft.id, {
    timeout: 5 * 60_000,
    onStatus: (current, previous) => console.log(`waitFor   ${previous?.status ?? '…'} → ${current.status}`),
  });
  console.log(`Invoice ${invoice.id}: ${invoice.status} (${invoice.rawStatus}), total ${invoice.total}`);
  if (failure !== undefined) console.log(`Not filed (${failure.kind}): ${failure.message}. ${failure.hint}`);
}

async function inOneCall(client: InvoicingClient, input: InvoiceCreateParams, documentNumber: string): Promise<string> {
  const { invoice, steps, failure } = await client.invoices.createAndFile(input, {
    externalRef: documentNumber,
    wait: { timeout: 5 * 60_000 },
  });
  const summary = steps.map((s) => `${s.step}${s.outcome === 'skipped' ? ' (skipped)' : ''}`).join(' → ');
  console.log(`createAndFile ${documentNumber}: ${invoice.id} ${invoice.status}; ${summary}`);
  if (failure !== undefined) console.log(`Not filed (${failure.kind}): ${failure.message}. ${failure.hint}`);
  return invoice.id;
}

async function main(): Promise<void> {
  // Reads INVOICING_BASE_URL and INVOICING_API_KEY from the environment.
  const client = new InvoicingClient();
  const businessId = requireEnv('INVOICING_BUSINESS_ID');

  console.log('Step by step:');
  await stepByStep(client, invoiceFor(businessId, 'Acme Ltd'), 'INV-2026-0101');

  console.log('\nIn one call, twice with the same externalRef:');
  const input = invoiceFor(businessId, 'Globex Ltd');
  const first = await inOneCall(client, input, 'INV-2026-0102');
  const second = await inOneCall(client, input, 'INV-2026-0102');
  console.log(first === second ? `Same invoice both times: ${first}.` : `Two invoices: ${first} and ${second}!`);
  if (first !== second) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(isInvoicingError(err) && err.hint ? `${err.message}\nhint: ${err.hint}` : err);
  process.exitCode = 1;
});
