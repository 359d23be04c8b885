/**
 * Quick start: file one invoice with the tax authority and wait for its answer.
 *
 * `createAndFile()` runs the whole filing in one call: local checks → create → reconcile the
 * service's totals with the lines → validate → sign → submit → wait. Passing your own document
 * number as `externalRef` makes the call safe to repeat: the idempotency key is derived from it, so
 * a second run (after a crash, or from another process) finds the same invoice instead of filing
 * a new one.
 *
 * Environment:
 *   INVOICING_BASE_URL     origin of the service (the SDK adds /api/v1)
 *   INVOICING_API_KEY      a USER key with invoices:write
 *   INVOICING_BUSINESS_ID  the business the invoice belongs to
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- quick-start
 */
import { InvoicingClient, isInvoicingError, type InvoiceCreateParams } from 'invoicing-sdk';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

async function main(): Promise<void> {
  // Reads INVOICING_BASE_URL and INVOICING_API_KEY from the environment.
  const client = new InvoicingClient();

  const invoice: InvoiceCreateParams = {
    businessId: requireEnv('INVOICING_BUSINESS_ID'),
    // Send the buyer's real TIN: the tax authority accepts a placeholder and files for the wrong party.
    buyer: { type: 'B2B', tin: '20456789-0001', name: 'Acme Ltd', email: 'accounts@acme.example' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      // A good carries an HS code (NNNN.NN), a service a four-digit ISIC code; taxRate 7.5 means 7.5 %.
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Setup and configuration', quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
    ],
  };

  const { invoice: filed, steps, failure } = await client.invoices.createAndFile(invoice, {
    externalRef: 'ORDER-2026-0042',
    wait: { timeout: 5 * 60_000 },
    onStep: (event) => {
      if (event.state !== 'started') console.log(`${event.step.padEnd(9)} ${event.state}${event.invoice ? ` (${event.invoice.rawStatus})` : ''}`);
    },
  });

  console.log(`\nInvoice ${filed.id}: ${filed.rawStatus}, total ${filed.total}`);
  console.log(`Steps: ${steps.map((s) => s.step).join(' → ')}`);
  if (failure !== undefined) {
    // Not accepted: rejected (the service's reason), or in Error (`hint`: wait or re-submit).
    console.log(`Not filed (${failure.kind}): ${failure.message}\n${failure.hint}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(isInvoicingError(err) && err.hint ? `${err.message}\nhint: ${err.hint}` : err);
  process.exitCode = 1;
});
