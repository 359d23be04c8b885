/**
 * Bulk filing: a day's batch of invoices on a few workers.
 *
 * `fileMany()` files every input with `createAndFile`, `concurrency` at a time, and returns one
 * result per input, in input order: one invoice failing never stops the others. A 429 from the
 * service pauses every worker for its Retry-After (the batch slows down as a whole instead of each
 * worker hammering on its own). Each invoice's idempotency key is derived from `externalRef` (your
 * document number), so re-running the batch after a crash files nothing twice: finished invoices
 * are found and skipped, interrupted ones finished.
 *
 * Ctrl-C stops gracefully, as `invoicing file` does: `stopSignal` starts no new invoice and lets
 * those in flight finish; the rest come back `notStarted` (not failures) for the next run. A
 * second Ctrl-C aborts `signal`, which cuts the requests in flight.
 *
 * The orders here are generated; in real use they come from your billing system. The CLI does the
 * same from files: npx invoicing file invoices/*.json
 *
 * Environment:
 *   INVOICING_BASE_URL, INVOICING_API_KEY, INVOICING_BUSINESS_ID
 *   BATCH_SIZE   optional: how many invoices (default 25)
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- bulk-filing
 */
import { InvoicingClient, type FileManyProgress, type InvoiceCreateParams } from 'invoicing-sdk';

interface Order {
  number: string;
  invoice: InvoiceCreateParams;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

/** Stand-in for your billing system: `count` orders with document numbers and invoices. */
function loadOrders(businessId: string, count: number): Order[] {
  return Array.from({ length: count }, (_, i) => ({
    number: `ORDER-2026-${String(2000 + i).padStart(5, '0')}`,
    invoice: {
      businessId,
      buyer: { type: 'B2B', tin: `5${String(1000000 + i)}-0001`, name: `Customer ${i + 1}` },
      dueDate: '2027-02-28T00:00:00Z',
      lines: [
        { description: 'Managed hosting, February', quantity: 1, unitPrice: 250 + i, taxRate: 7.5, isicCode: '6311' },
        { description: 'Network switch', quantity: 1 + (i % 3), unitPrice: 189.99, taxRate: 7.5, hsnCode: '8517.62' },
      ],
    },
  }));
}

/** One progress line: redrawn in place on a terminal, every tenth invoice otherwise. */
function showProgress(p: FileManyProgress): void {
  const text = `${p.done}/${p.total} done, ${p.failed} failed`;
  if (process.stdout.isTTY) process.stdout.write(`\r${text}${p.done === p.total ? '\n' : ''}`);
  else if (p.done % 10 === 0 || p.done === p.total) console.log(text);
}

async function main(): Promise<void> {
  const client = new InvoicingClient();
  const orders = loadOrders(requireEnv('INVOICING_BUSINESS_ID'), Number(process.env.BATCH_SIZE ?? 25));

  const stop = new AbortController();
  const abort = new AbortController();
  const onSigint = () => (stop.signal.aborted ? abort : stop).abort();
  process.on('SIGINT', onSigint);

  const started = Date.now();
  const results = await client.invoices.fileMany(
    orders.map((o) => o.invoice),
    {
      concurrency: 5,
      externalRef: (_input, index) => orders[index]!.number,
      stopSignal: stop.signal,
      signal: abort.signal,
      onProgress: showProgress,
      // Each invoice stops at Submitted; the tax authority's answers are read later (an export, or
      // waitFor per invoice). Add `wait: { timeout: 5 * 60_000 }` to wait for every answer here.
    },
  );
  process.off('SIGINT', onSigint);

  const byStatus = new Map<string, number>();
  for (const r of results) {
    const order = orders[r.index]!;
    if (r.ok) {
      const status = r.invoice.rawStatus ?? r.invoice.status;
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    } else if (r.notStarted) {
      console.log(`${order.number}: not started (Ctrl-C); the next run files it`);
    } else {
      // invoiceId is set when the invoice was created before the stop: resumeFiling(invoiceId) finishes it.
      console.log(`${order.number}: stopped at ${r.error.step}${r.invoiceId ? ` (invoice ${r.invoiceId})` : ''}: ${r.error.message}`);
    }
  }
  const ids = new Set(results.flatMap((r) => (r.ok ? [r.invoice.id] : [])));
  console.log(`\n${results.length} orders in ${((Date.now() - started) / 1000).toFixed(1)} s; ${ids.size} distinct invoices.`);
  for (const [status, n] of [...byStatus].sort()) console.log(`  ${status}: ${n}`);

  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
