/**
 * Resuming after a crash, without filing anything twice.
 *
 * A process can die anywhere in the middle of a filing: after the invoice was created, or signed,
 * but before it was submitted. Two things make the retry safe:
 * - a deterministic idempotency key: `externalRef` (your own document number) derives it, so the
 *   re-run's create returns the invoice the crashed run created, in whatever state it reached;
 * - `createAndFile` and `resumeFiling` read where the invoice stands and perform only the steps left.
 *
 * This script runs a first attempt in a child process and kills it (SIGKILL, no clean-up) right
 * after the invoice is signed. It then files the same document again: same invoice, validate and
 * sign skipped, submit sent once. Finally `resumeFiling(id)` on the finished invoice sends nothing.
 *
 * Environment:
 *   INVOICING_BASE_URL, INVOICING_API_KEY, INVOICING_BUSINESS_ID
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- resume-after-crash
 */
import { spawnSync } from 'node:child_process';
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InvoicingClient, type InvoiceCreateParams } from 'invoicing-sdk';

/** Your document number: the same order always maps to the same invoice. */
const EXTERNAL_REF = 'ORDER-2026-0107';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

/** The document, built the same way on every run (a replayed create must send the same body). */
function order(): InvoiceCreateParams {
  return {
    businessId: requireEnv('INVOICING_BUSINESS_ID'),
    buyer: { type: 'B2B', tin: '40112233-0001', name: 'Blue Harbour Logistics' },
    dueDate: '2027-01-31T00:00:00Z',
    lines: [{ description: 'Software maintenance, January', quantity: 1, unitPrice: 1200, taxRate: 7.5, isicCode: '6202' }],
  };
}

/** The first attempt: files until the invoice is signed, then dies as abruptly as a process can. */
async function crashingAttempt(): Promise<void> {
  const client = new InvoicingClient();
  await client.invoices.createAndFile(order(), {
    externalRef: EXTERNAL_REF,
    onStep: (event) => {
      if (event.state === 'started') return;
      // writeSync: the line must be out before the kill, whatever stdout is connected to.
      writeSync(1, `  [attempt 1] ${event.step} ${event.state}${event.invoiceId ? ` (${event.invoiceId})` : ''}\n`);
      if (event.step === 'sign') process.kill(process.pid, 'SIGKILL');
    },
  });
}

async function main(): Promise<void> {
  if (process.argv.includes('--crashing-attempt')) return crashingAttempt();

  console.log('Attempt 1, in a child process that is killed once the invoice is signed:');
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--crashing-attempt'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  process.stdout.write(child.stdout);
  if (child.signal !== 'SIGKILL') throw new Error(`The first attempt should have been killed; it exited with ${child.status}.`);
  const crashedId = /\(([^)]+)\)\s*$/m.exec(child.stdout.trim())?.[1];
  console.log(`  [attempt 1] killed (${child.signal})\n`);

  console.log('Attempt 2, the same code and the same externalRef:');
  const client = new InvoicingClient();
  const { invoice, steps } = await client.invoices.createAndFile(order(), {
    externalRef: EXTERNAL_REF,
    wait: { timeout: 5 * 60_000 },
  });
  for (const step of steps) console.log(`  [attempt 2] ${step.step} ${step.outcome}${step.detail ? `: ${step.detail}` : ''}`);
  console.log(`  [attempt 2] invoice ${invoice.id} is ${invoice.rawStatus}`);

  if (crashedId !== undefined && crashedId !== invoice.id) {
    throw new Error(`Attempt 2 filed a second invoice (${invoice.id}) instead of finishing ${crashedId}.`);
  }
  const redone = steps.filter((s) => (s.step === 'validate' || s.step === 'sign') && s.outcome === 'done');
  if (redone.length > 0) throw new Error(`Attempt 2 repeated ${redone.map((s) => s.step).join(' and ')}.`);

  // Resuming a finished filing is safe too: every step is already done, nothing is sent.
  const resumed = await client.invoices.resumeFiling(invoice.id);
  console.log(`\nresumeFiling(${invoice.id}): ${resumed.steps.map((s) => `${s.step} ${s.outcome}`).join(', ')}`);
  console.log('One invoice, each step sent once.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
