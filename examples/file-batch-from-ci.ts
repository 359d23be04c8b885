/**
 * File a batch of invoice files from a CI job: check them all, then file them, exactly once.
 *
 * A CI job (GitHub Actions, GitLab, a cron) is re-run when it fails half-way. This script is safe to
 * re-run: it checks every invoice first and files nothing if any has errors, then files them with
 * `fileMany()`, each under an idempotency key derived from `externalRef` (here the file's name and
 * the invoice's position in it). A re-run finds what the first run filed and sends no step twice;
 * the script files the batch twice to show it. On GitHub Actions it also writes a table to the
 * job summary ($GITHUB_STEP_SUMMARY).
 *
 * The same without code: npx invoicing check invoices/ --strict --format github
 *                        npx invoicing file invoices/ --ref path --wait
 *
 * Environment:
 *   INVOICING_BASE_URL, INVOICING_API_KEY  the service and a USER key with invoices:write
 *   INVOICING_BUSINESS_ID                   optional: replaces each file's businessId (the sample
 *                                           files carry a placeholder)
 *
 * Usage: node --import ./scripts/examples-loader.mjs examples/file-batch-from-ci.ts [folder]
 * (default folder: examples/invoices). Against the embedded sandbox: npm run examples -- file-batch-from-ci
 * Guide: docs/file-batch-from-ci.md
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkInvoice, formatIssuePath, InvoicingClient, type FileManyResult, type InvoiceCreateParams } from 'invoicing-sdk';

interface Document {
  /** Your reference for the invoice: file name, and position when the file holds an array. */
  ref: string;
  invoice: InvoiceCreateParams;
}

/** Every invoice of every *.json file directly in `folder`, in file-name order. */
function readBatch(folder: string, businessId: string | undefined): Document[] {
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  return files.flatMap((file) => {
    const parsed: unknown = JSON.parse(readFileSync(join(folder, file), 'utf8'));
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((invoice, i) => ({
      ref: Array.isArray(parsed) ? `${basename(file, '.json')}#${i}` : basename(file, '.json'),
      invoice: (businessId === undefined ? invoice : { ...invoice, businessId }) as InvoiceCreateParams,
    }));
  });
}

async function fileBatch(client: InvoicingClient, docs: Document[]): Promise<FileManyResult[]> {
  return client.invoices.fileMany(
    docs.map((d) => d.invoice),
    {
      concurrency: 4,
      externalRef: (_invoice, index) => docs[index]!.ref,
      // Checked above already; fileMany would check again and stop only the invoices with errors.
      skipChecks: true,
      wait: { timeout: 5 * 60_000 },
    },
  );
}

async function main(): Promise<void> {
  const folder = process.argv[2] ?? fileURLToPath(new URL('./invoices', import.meta.url));
  const businessId = process.env.INVOICING_BUSINESS_ID || undefined;
  const docs = readBatch(folder, businessId);

  // 1. The gate: every invoice checked, every problem listed, nothing filed if any has an error.
  let errors = 0;
  for (const doc of docs) {
    const report = checkInvoice(doc.invoice, { strict: true });
    for (const issue of report.errors) console.log(`${doc.ref}  ${formatIssuePath(issue.path)}  ${issue.code}: ${issue.message}`);
    errors += report.errors.length;
  }
  console.log(`Checked ${docs.length} invoice(s): ${errors} error(s).`);
  if (errors > 0) {
    console.log('Nothing was filed.');
    process.exitCode = 1;
    return;
  }

  // 2. File them. 3. File them again, as a re-run of the job would: nothing is filed twice.
  const client = new InvoicingClient();
  const runs: FileManyResult[][] = [];
  for (const run of ['first run', 're-run']) {
    const results = await fileBatch(client, docs);
    runs.push(results);
    console.log(`\n${run}:`);
    for (const r of results) {
      const ref = docs[r.index]!.ref;
      if (r.ok) {
        // On a re-run `create` is answered with the invoice filed before (same key), and the
        // transitions already done are skipped after reading the invoice.
        const done = r.steps.filter((s) => s.outcome === 'done').map((s) => s.step);
        const skipped = r.steps.filter((s) => s.outcome === 'skipped').map((s) => s.step);
        console.log(`  ${ref}  ${r.invoice.id}  ${r.invoice.status}  done: ${done.join(', ')}${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''}`);
      } else if (r.notStarted) {
        console.log(`  ${ref}  not started`);
      } else if (r.failure) {
        // Every step ran, and the answer was not an acceptance: rejected, or in Error.
        console.log(`  ${ref}  ${r.invoiceId}  ${r.failure.kind}: ${r.failure.message}`);
      } else {
        console.log(`  ${ref}  stopped${r.invoiceId ? ` (${r.invoiceId})` : ''}: ${r.error.message}`);
      }
    }
  }
  const ids = (results: FileManyResult[]) => results.map((r) => (r.ok ? r.invoice.id : r.invoiceId));
  const [first, again] = [ids(runs[0]!), ids(runs[1]!)];
  const same = first.every((id, i) => id !== undefined && id === again[i]);
  console.log(`\n${new Set(first).size} invoice(s) filed; the re-run ${same ? 'found the same invoices' : 'did NOT find the same invoices'}.`);
  if (!same || runs.flat().some((r) => !r.ok)) process.exitCode = 1;

  // On GitHub Actions: a table on the run's summary page.
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    const rows = runs[0]!.map((r) => `| ${docs[r.index]!.ref} | ${r.ok ? r.invoice.id : (r.invoiceId ?? '')} | ${r.ok ? r.invoice.status : 'stopped'} |`);
    appendFileSync(summary, ['| document | invoice | status |', '|---|---|---|', ...rows, ''].join('\n'));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
