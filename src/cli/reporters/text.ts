// The human reporter: problems grouped by file and invoice (line:column, code, message, hint), then the summary; clean files are not listed.
import { formatIssuePath } from '../../index.js';
import type { Styles } from '../context.js';
import { printable } from '../escape.js';
import { formatNumber, formatSeconds, plural } from '../format.js';
import { findings, type RunResult } from '../results.js';

function where(issue: { line?: number | undefined; column?: number | undefined }): string {
  return issue.line === undefined ? '' : `${issue.line}:${issue.column ?? 1}`;
}

/** Renders a run as text. */
export function renderText(run: RunResult, s: Styles, quiet = false): string {
  const out: string[] = [];
  let file: string | undefined;
  let block: string[] = [];
  const flush = () => {
    if (block.length > 0) out.push(s.underline(printable(file as string)), ...block, '');
    block = [];
  };
  for (const f of findings(run, quiet)) {
    if (f.file !== file) flush();
    file = f.file;
    if (f.problem !== undefined) {
      const pos = f.problem.line === undefined ? '' : `${s.dim(`${f.problem.line}:${f.problem.column}`)}  `;
      block.push(`  ${pos}${s.red('error')}  ${f.problem.message}`);
      continue;
    }
    const issues = f.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    if (issues.length === 0) continue;
    if (f.label !== '') block.push(`  ${s.bold(`invoice ${f.label}`)}`);
    const indent = f.label !== '' ? '    ' : '  ';
    const width = Math.max(...issues.map((i) => where(i).length));
    for (const issue of issues) {
      const sev = issue.severity === 'error' ? s.red('error  ') : s.yellow('warning');
      block.push(`${indent}${s.dim(where(issue).padEnd(width))}  ${sev}  ${s.bold(issue.code)}  ${s.dim(printable(formatIssuePath(issue.path)))}`);
      const pad = `${indent}${' '.repeat(width)}  `;
      block.push(`${pad}${printable(issue.message)}`);
      if (issue.hint !== undefined) block.push(`${pad}${s.dim(`hint: ${printable(issue.hint)}`)}`);
    }
  }
  flush();
  out.push(summaryLine(run, s));
  return `${out.join('\n')}\n`;
}

/** The one-line verdict printed at the end of every text and github report. */
export function summaryLine(run: RunResult, s: Styles): string {
  const m = run.summary;
  const seconds = formatSeconds(m.durationMs);
  const scope = `${plural(m.invoices, 'invoice')} in ${plural(m.files, 'file')}`;
  const extras: string[] = [];
  if (m.unreadableFiles > 0) extras.push(`${plural(m.unreadableFiles, 'file')} could not be read`);
  if (m.unmatched.length > 0) extras.push(`nothing matched ${m.unmatched.map((u) => printable(JSON.stringify(u))).join(', ')}`);
  if (run.maxWarnings !== undefined && m.warnings > run.maxWarnings) extras.push(`more warnings than --max-warnings ${run.maxWarnings}`);
  const tail = extras.length > 0 ? `; ${extras.join('; ')}` : '';
  if (m.errors === 0 && run.exitCode === 0) {
    const warn = m.warnings > 0 ? s.yellow(`, ${plural(m.warnings, 'warning')}`) : '';
    return `${s.green('✔')} ${scope}: no errors${warn} (${seconds})${tail}`;
  }
  return (
    `${s.red('✖')} ${s.red(plural(m.errors, 'error'))} and ${plural(m.warnings, 'warning')} ` +
    `in ${formatNumber(m.invoicesWithErrors)} of ${scope} (${seconds})${tail}`
  );
}
