// What `invoicing check` found, read by every reporter. The JSON reporter prints it: add, never rename.
import type { CheckIssue, InvoiceTotals } from '../index.js';
import { printable } from './escape.js';
import type { SyntaxProblem } from './json-source.js';

/** An issue with where it sits in the file, when that could be found. */
export interface LocatedIssue extends CheckIssue { line?: number; column?: number; }

export interface InvoiceResult {
  /** Index in a top-level array. */ index?: number;
  /** Line of an NDJSON record. */ line?: number; ok: boolean; errors: LocatedIssue[]; warnings: LocatedIssue[]; totals?: InvoiceTotals;
  /** An NDJSON record that is not valid JSON. */ syntaxError?: SyntaxProblem;
}

export interface FileResult {
  /** The path as given or found, relative to the working directory where possible. */ file: string;
  ok: boolean;
  invoices: InvoiceResult[];
  /** The file is not valid JSON (nor NDJSON). */ syntaxError?: SyntaxProblem;
  /** The file could not be read. */ readError?: string;
}

export interface Summary {
  files: number; invoices: number; invoicesWithErrors: number; errors: number; warnings: number;
  /** Files that could not be read (exit code 2). */ unreadableFiles: number;
  /** Files, or NDJSON lines, that are not valid JSON (counted in `errors`). */ syntaxErrors: number;
  /** Patterns or paths that matched no file (exit code 2). */ unmatched: string[];
  durationMs: number;
}

export interface RunResult { files: FileResult[]; summary: Summary; exitCode: number; maxWarnings: number | undefined; }

interface Finding {
  file: string;
  /** Why the file, or an NDJSON line, was not read or parsed. */
  problem?: { code: 'FILE_UNREADABLE' | 'INVALID_JSON'; message: string; line?: number; column?: number };
  /** `[3]`, `line 4`, or '' for a single-invoice file. */ label: string;
  /** Errors, then warnings unless `quiet`. */ issues: LocatedIssue[];
}

/** The one walk over a run's results that every human reporter renders, file by file. */
export function* findings(run: RunResult, quiet: boolean): Generator<Finding> {
  for (const f of run.files) {
    if (f.readError !== undefined) {
      yield { file: f.file, label: '', issues: [], problem: { code: 'FILE_UNREADABLE', message: `cannot read the file: ${printable(f.readError)}` } };
    } else if (f.syntaxError !== undefined) {
      const { line, column, message } = f.syntaxError;
      yield { file: f.file, label: '', issues: [], problem: { code: 'INVALID_JSON', message: `invalid JSON: ${printable(message)}`, line, column } };
    } else {
      for (const inv of f.invoices) {
        const label = inv.index !== undefined ? `[${inv.index}]` : inv.line !== undefined ? `line ${inv.line}` : '';
        const e = inv.syntaxError;
        if (e !== undefined) {
          const problem = { code: 'INVALID_JSON' as const, message: `invalid JSON on ${label}: ${printable(e.message)}`, line: e.line, column: e.column };
          yield { file: f.file, label, issues: [], problem };
        } else yield { file: f.file, label, issues: quiet ? inv.errors : [...inv.errors, ...inv.warnings] };
      }
    }
  }
}
