// What `invoicing check` found (its JSON report: add, never rename), rendered as text or as GitHub workflow commands.
import { formatIssuePath, type CheckIssue, type InvoiceTotals } from '../../index.js';
import type { Styles } from '../context.js';
import { printable } from '../escape.js';
import { formatNumber, formatSeconds, plural } from '../format.js';
import type { SyntaxProblem } from '../json-source.js';

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

export type Summary = ReturnType<typeof summarize>;

export function summarize(files: FileResult[], unmatched: string[], started: number) {
  const invoices = files.flatMap((f) => f.invoices);
  const syntaxErrors = [...files, ...invoices].filter((r) => r.syntaxError !== undefined).length;
  const count = (list: 'errors' | 'warnings'): number => invoices.reduce((n, i) => n + i[list].length, 0);
  return {
    files: files.length, invoices: invoices.length, invoicesWithErrors: invoices.filter((i) => !i.ok).length,
    errors: count('errors') + syntaxErrors, warnings: count('warnings'),
    unreadableFiles: files.filter((f) => f.readError !== undefined).length, syntaxErrors, unmatched,
    durationMs: Math.round(performance.now() - started),
  };
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
function* findings(run: RunResult, quiet: boolean): Generator<Finding> {
  for (const f of run.files) {
    if (f.readError !== undefined) {
      yield { file: f.file, label: '', issues: [], problem: { code: 'FILE_UNREADABLE', message: `cannot read the file: ${printable(f.readError)}` } };
    } else if (f.syntaxError !== undefined) {
      const { line, column, message } = f.syntaxError;
      yield { file: f.file, label: '', issues: [], problem: { code: 'INVALID_JSON', message: `invalid JSON: ${printable(message)}`, line, column } };
    }
    // An unread or unparsed file has no invoices.
    for (const inv of f.invoices) {
      const label = inv.index !== undefined ? `[${inv.index}]` : inv.line !== undefined ? `line ${inv.line}` : '';
      const e = inv.syntaxError;
      if (e !== undefined) {
        const message = `invalid JSON on ${label}: ${printable(e.message)}`;
        yield { file: f.file, label, issues: [], problem: { code: 'INVALID_JSON', message, line: e.line, column: e.column } };
      } else yield { file: f.file, label, issues: quiet ? inv.errors : [...inv.errors, ...inv.warnings] };
    }
  }
}

const where = (issue: LocatedIssue): string => (issue.line === undefined ? '' : `${issue.line}:${issue.column ?? 1}`);

export function renderText(run: RunResult, s: Styles, quiet = false): string {
  const blocks = new Map<string, string[]>();
  for (const f of findings(run, quiet)) {
    const block = blocks.get(f.file) ?? [];
    blocks.set(f.file, block);
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
  const out = [...blocks].flatMap(([file, block]) => (block.length > 0 ? [s.underline(printable(file)), ...block, ''] : []));
  return `${[...out, summaryLine(run, s)].join('\n')}\n`;
}

function summaryLine(run: RunResult, s: Styles): string {
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
