/**
 * GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=CODE::message`, shown inline
 * on the pull request's diff; warnings as `::warning`. Then the summary line.
 */
import type { Styles } from '../context.js';
import { printable } from '../escape.js';
import { invoiceLabel, type LocatedIssue, type RunResult } from '../results.js';
import { summaryLine } from './text.js';

// Escaping rules of workflow commands: data escapes %, CR, LF; properties also ':' and ','. Text
// from files is made printable before (the log renders ANSI sequences), so the only line break
// left is the reporter's own, between a message and its hint.
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function prop(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(
  kind: 'error' | 'warning',
  file: string | undefined,
  line: number | undefined,
  col: number | undefined,
  title: string,
  message: string,
): string {
  const props: string[] = [];
  if (file !== undefined) props.push(`file=${prop(printable(file))}`);
  if (line !== undefined) props.push(`line=${line}`);
  if (col !== undefined) props.push(`col=${col}`);
  props.push(`title=${prop(title)}`);
  return `::${kind} ${props.join(',')}::${data(message)}`;
}

/**
 * Renders a run as workflow commands. `repoPath` turns a file as displayed into the path GitHub
 * attaches annotations by: from the repository root (see check.ts), not the current directory.
 */
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
        // The message already names the field (`lines[0].hsnCode "6202" …`); only say which invoice
        // of a file holding several.
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
