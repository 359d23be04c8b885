// GitHub Actions workflow commands (`::error file=…,line=…::message`), then the summary line.
import type { Styles } from '../context.js';
import { printable } from '../escape.js';
import { invoiceLabel, type LocatedIssue, type RunResult } from '../results.js';
import { summaryLine } from './text.js';

// Workflow-command escaping: data escapes %, CR, LF; properties also ':' and ','.
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function prop(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(kind: 'error' | 'warning', file: string | undefined, line: number | undefined, col: number | undefined, title: string, message: string): string {
  const props: string[] = [];
  if (file !== undefined) props.push(`file=${prop(printable(file))}`);
  if (line !== undefined) props.push(`line=${line}`);
  if (col !== undefined) props.push(`col=${col}`);
  props.push(`title=${prop(title)}`);
  return `::${kind} ${props.join(',')}::${data(message)}`;
}

/** Renders a run as workflow commands; `repoPath` maps a displayed file to its path from the repository root. */
export function renderGithub(run: RunResult, s: Styles, quiet = false, repoPath: (file: string) => string = (f) => f): string {
  const out: string[] = [];
  for (const result of run.files) {
    const f = { ...result, file: repoPath(result.file) };
    if (f.readError !== undefined) {
      out.push(command('error', f.file, undefined, undefined, 'FILE_UNREADABLE', `cannot read the file: ${printable(f.readError)}`));
      continue;
    }
    if (f.syntaxError !== undefined) {
      const e = f.syntaxError;
      out.push(command('error', f.file, e.line, e.column, 'INVALID_JSON', `invalid JSON: ${printable(e.message)}`));
      continue;
    }
    for (const inv of f.invoices) {
      const label = invoiceLabel(inv);
      if (inv.syntaxError !== undefined) {
        const e = inv.syntaxError;
        out.push(command('error', f.file, e.line, e.column, 'INVALID_JSON', `invalid JSON on ${label}: ${printable(e.message)}`));
        continue;
      }
      const issues: LocatedIssue[] = quiet ? inv.errors : [...inv.errors, ...inv.warnings];
      for (const issue of issues) {
        // The message already names the field; only say which invoice of the file.
        const at = label === '' ? '' : `invoice ${label}: `;
        const text = `${at}${printable(issue.message)}${issue.hint !== undefined ? `\n${printable(issue.hint)}` : ''}`;
        out.push(command(issue.severity, f.file, issue.line, issue.column, issue.code, text));
      }
    }
  }
  for (const u of run.summary.unmatched) {
    out.push(command('error', undefined, undefined, undefined, 'NO_FILES', `nothing matched ${printable(JSON.stringify(u))}`));
  }
  out.push(summaryLine(run, s));
  return `${out.join('\n')}\n`;
}
