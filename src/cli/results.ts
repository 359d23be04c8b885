// What `invoicing check` found, read by every reporter. The JSON reporter prints it: add, never rename.
import type { CheckIssue, InvoiceTotals } from '../index.js';
import type { SyntaxProblem } from './json-source.js';

/** An issue with where it sits in the file, when that could be found. */
export interface LocatedIssue extends CheckIssue {
  line?: number;
  column?: number;
}

export interface InvoiceResult {
  /** Index in a top-level array. */
  index?: number;
  /** Line of an NDJSON record. */
  line?: number;
  ok: boolean;
  errors: LocatedIssue[];
  warnings: LocatedIssue[];
  totals?: InvoiceTotals;
  /** An NDJSON record that is not valid JSON. */
  syntaxError?: SyntaxProblem;
}

export interface FileResult {
  /** The path as given or found, relative to the working directory where possible. */
  file: string;
  ok: boolean;
  invoices: InvoiceResult[];
  /** The file is not valid JSON (nor NDJSON). */
  syntaxError?: SyntaxProblem;
  /** The file could not be read. */
  readError?: string;
}

export interface Summary {
  files: number;
  invoices: number;
  invoicesWithErrors: number;
  errors: number;
  warnings: number;
  /** Files that could not be read (exit code 2). */
  unreadableFiles: number;
  /** Files, or NDJSON lines, that are not valid JSON (counted in `errors`). */
  syntaxErrors: number;
  /** Patterns or paths that matched no file (exit code 2). */
  unmatched: string[];
  durationMs: number;
}

export interface RunResult {
  files: FileResult[];
  summary: Summary;
  exitCode: number;
  maxWarnings: number | undefined;
}

/** Human label of an invoice within its file: `[3]`, `line 4`, or '' for a single-invoice file. */
export function invoiceLabel(inv: InvoiceResult): string {
  if (inv.index !== undefined) return `[${inv.index}]`;
  if (inv.line !== undefined) return `line ${inv.line}`;
  return '';
}
