/**
 * Listing and exporting invoices to CSV and NDJSON.
 *
 * `client.invoices.list()` is an async iterable over every invoice of every page (it follows the
 * listing's `meta.totalPages`), so an export is one `for await` loop that never holds more than a
 * page in memory. The CSV has the fields most reports need; the NDJSON keeps each record exactly as
 * the service returned it (`raw`), for archiving or loading into a warehouse.
 *
 * Environment:
 *   INVOICING_BASE_URL   origin of the service
 *   INVOICING_API_KEY    a key with invoices:read
 *   EXPORT_DIR           optional: where to write (default: a new folder in the system temp dir)
 *   EXPORT_STATUS        optional: only invoices in this status, as the service spells it
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- export-invoices
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvoicingClient, type Invoice } from 'invoicing-sdk';

const COLUMNS = ['id', 'status', 'subtotal', 'taxTotal', 'total', 'updatedAt', 'errorMessage'] as const;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function csvField(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvRow(invoice: Invoice): string {
  const values = { ...invoice, status: invoice.rawStatus ?? invoice.status };
  return `${COLUMNS.map((c) => csvField(values[c])).join(',')}\r\n`;
}

/** Writes with backpressure: waits for the stream to drain when its buffer is full. */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function close(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}

async function main(): Promise<void> {
  const client = new InvoicingClient(); // INVOICING_BASE_URL, INVOICING_API_KEY
  const dir = process.env.EXPORT_DIR ?? mkdtempSync(join(tmpdir(), 'invoices-export-'));
  mkdirSync(dir, { recursive: true });
  const csvPath = join(dir, 'invoices.csv');
  const ndjsonPath = join(dir, 'invoices.ndjson');
  const csv = createWriteStream(csvPath);
  const ndjson = createWriteStream(ndjsonPath);

  const status = process.env.EXPORT_STATUS;
  const byStatus = new Map<string, number>();
  let count = 0;
  try {
    await write(csv, `${COLUMNS.join(',')}\r\n`);
    for await (const invoice of client.invoices.list({ limit: 50, ...(status ? { status } : {}) })) {
      await write(csv, csvRow(invoice));
      await write(ndjson, `${JSON.stringify(invoice.raw)}\n`);
      const key = invoice.rawStatus ?? invoice.status;
      byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
      count += 1;
    }
  } finally {
    await Promise.all([close(csv), close(ndjson)]);
  }

  console.log(`Exported ${count} invoice(s)${status ? ` in status ${status}` : ''}:`);
  for (const [name, n] of [...byStatus].sort()) console.log(`  ${name}: ${n}`);
  console.log(`  ${csvPath}\n  ${ndjsonPath}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
