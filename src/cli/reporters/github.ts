// GitHub Actions workflow commands (`::error file=…,line=…::message`), then the summary line.
import type { Styles } from '../context.js';
import { printable } from '../escape.js';
import { findings, type RunResult } from '../results.js';
import { summaryLine } from './text.js';

// Workflow-command escaping: data escapes %, CR, LF; properties also ':' and ','.
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(kind: 'error' | 'warning', file: string | undefined, at: { line?: number | undefined; column?: number | undefined }, title: string, message: string): string {
  const props: string[] = [];
  if (file !== undefined) props.push(`file=${prop(printable(file))}`);
  if (at.line !== undefined) props.push(`line=${at.line}`);
  if (at.column !== undefined) props.push(`col=${at.column}`);
  props.push(`title=${prop(title)}`);
  return `::${kind} ${props.join(',')}::${data(message)}`;
}

/** Renders a run as workflow commands; `repoPath` maps a displayed file to its path from the repository root. */
export function renderGithub(run: RunResult, s: Styles, quiet = false, repoPath: (file: string) => string = (f) => f): string {
  const out: string[] = [];
  for (const { file, problem, label, issues } of findings(run, quiet)) {
    if (problem !== undefined) out.push(command('error', repoPath(file), problem, problem.code, problem.message));
    // The message already names the field; only say which invoice of the file.
    const at = label === '' ? '' : `invoice ${label}: `;
    for (const issue of issues) {
      const text = `${at}${printable(issue.message)}${issue.hint !== undefined ? `\n${printable(issue.hint)}` : ''}`;
      out.push(command(issue.severity, repoPath(file), issue, issue.code, text));
    }
  }
  for (const u of run.summary.unmatched) out.push(command('error', undefined, {}, 'NO_FILES', `nothing matched ${printable(JSON.stringify(u))}`));
  out.push(summaryLine(run, s));
  return `${out.join('\n')}\n`;
}
