// The human report of `invoicing file`: a line per invoice on a terminal, else a table; then details and the summary.
import type { Output, Styles } from '../context.js';
import { printable } from '../escape.js';
import { formatNumber, formatSeconds, plural } from '../format.js';

/** One invoice's outcome as `invoicing file` reports it (also its JSON record). */
export interface FileRecord {
  source: string; ok: boolean; invoiceId?: string | undefined; status?: string | undefined; rawStatus?: string | undefined;
  idempotencyKey?: string | undefined;
  /** The invoice failed although every step ran: rejected, cancelled, in Error (`kind`), with the service's reason. */
  failure?: { kind: string; message: string; hint: string } | undefined;
  error?: { name?: string; message?: string; step?: string | undefined; hint?: string | undefined } | undefined;
  /** Nothing was sent for it: the run was interrupted before it started. */ notStarted?: boolean | undefined;
}

export interface FileSummary { invoices: number; filed: number; stopped: number; notStarted: number; durationMs: number; }

/** The table's first column: what became of the invoice, in one word or two. */
export function outcome(r: FileRecord): 'filed' | 'rejected' | 'cancelled' | 'not accepted' | 'in Error' | 'stopped' | 'not started' {
  if (r.notStarted === true) return 'not started';
  if (r.failure !== undefined) return FINAL[r.failure.kind] ?? 'in Error';
  return r.ok ? 'filed' : 'stopped';
}

const FINAL: Record<string, 'rejected' | 'cancelled' | 'not accepted'> = { rejected: 'rejected', cancelled: 'cancelled', 'not-accepted': 'not accepted' };

function table(records: readonly FileRecord[]): string[] {
  const rows = records.map((r) => [outcome(r), r.invoiceId ?? '-', r.rawStatus ?? r.status ?? '-', r.source].map(printable));
  const head = ['RESULT', 'INVOICE', 'STATUS', 'SOURCE'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] as string).length)));
  const line = (row: string[]) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] as number))).join('  ');
  return [line(head), ...rows.map(line)];
}

/** A record with every string in it (file names, the service's words) made printable. */
function escaped(r: FileRecord): FileRecord {
  return JSON.parse(JSON.stringify(r), (_key, v: unknown) => (typeof v === 'string' ? printable(v) : v)) as FileRecord;
}

/** Writes the report of a `file` run. `terminal`: one line per invoice instead of the table. */
export function renderFileText(out: Output, records: readonly FileRecord[], summary: FileSummary, s: Styles, opts: { quiet: boolean; terminal: boolean }): void {
  const listed = opts.quiet ? records.filter((r) => outcome(r) !== 'filed') : records;
  if (!opts.terminal && listed.length > 0) out.write(`${table(listed).join('\n')}\n\n`);
  for (const raw of listed) {
    const r = escaped(raw);
    const where = r.invoiceId === undefined ? '' : `  ${s.dim(r.invoiceId)}`;
    const kind = outcome(r);
    if (kind === 'filed') {
      if (opts.terminal) out.write(`${s.green('✓')} ${r.source}${where}  ${r.rawStatus ?? r.status ?? ''}\n`);
    } else if (kind === 'not started') {
      if (opts.terminal) out.write(`${s.dim('·')} ${r.source}  not started (interrupted)\n`);
    } else if (r.failure !== undefined) {
      const mark = kind === 'in Error' ? s.yellow('!') : s.red('✗');
      const what = kind === 'in Error' ? `in Error (${r.failure.kind})` : kind;
      out.write(`${mark} ${r.source}${where}  ${what}: ${r.failure.message}\n    ${s.dim(r.failure.hint)}\n`);
    } else {
      const message = r.error?.message ?? 'failed';
      const step = r.error?.step;
      // A FilingError's own message already says where it stopped ("Filing stopped at create: …").
      const at = step === undefined || message.includes(`stopped at ${step}`) ? '' : `stopped at ${step}: `;
      out.write(`${s.red('✗')} ${r.source}${where}  ${at}${message}\n`);
      if (r.error?.hint) out.write(`    ${s.dim(r.error.hint)}\n`);
    }
  }
  if (opts.quiet && listed.length < records.length) {
    out.write(s.dim(`(${plural(records.length - listed.length, 'filed invoice')} not listed: --quiet)\n`));
  }
  const notStarted = summary.notStarted > 0 ? `; ${formatNumber(summary.notStarted)} not started` : '';
  const failed = summary.stopped - summary.notStarted;
  const line =
    `Filed ${formatNumber(summary.filed)} of ${plural(summary.invoices, 'invoice')}` +
    `${failed > 0 ? `; ${formatNumber(failed)} did not go through` : ''}${notStarted} (${formatSeconds(summary.durationMs, 1)}).`;
  out.write(`${summary.stopped > 0 ? s.red(line) : s.bold(line)}\n`);
}
