// `invoicing file`: fileMany() over invoice files; keys are deterministic, so a re-run files nothing twice.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { InvoicingClient, mayPassLater } from '../index.js';
import type { FileManyResult, FilingError, FilingFailure, InvoiceCreateParams } from '../index.js';
import { loadTarget, maxFileBytes, resolveTargets, type Target } from './targets.js';
import { baseUrlOf, causeNames, cliHint, colourEnabled, oneOf, parseCommand, printHelp, redactedRun, styles } from './context.js';
import { UsageError, wholeNumber, type CliContext, type Output, type Styles } from './context.js';
import { printable, safeJson } from './escape.js';
import { formatNumber, formatSeconds, plural } from './format.js';
import { FilingInterrupt, shellQuote } from './interrupt.js';
import type { SyntaxProblem } from './json-source.js';
import { createProgress } from './progress.js';

export const HELP = `Usage: invoicing file <files | globs | directories | -> [options]

Files invoices with the service, exactly once each: local checks, create with an idempotency key,
totals reconciled with the lines, then validate, sign and submit. Files are read as by
\`invoicing check\`: a file holds one invoice, an array of invoices, or NDJSON; a directory is
searched for *.json, *.ndjson and *.jsonl; "-" reads standard input.

Each invoice's idempotency key is derived from its content (or, with --ref path, from its file and
position), so running the same command again after an interruption files nothing twice: invoices
already created are picked up where they stopped. With --ref path, a file is named by its path from
the root of its git repository (else by its absolute path), the same from any directory.

Options:
  --concurrency <n>         Invoices filed at once (default 4). A 429 pauses all of them.
  --wait                    Wait for the tax authority's answer to each invoice.
  --wait-timeout <seconds>  How long to wait for each answer (default 300).
  --ref <content|path>      What each key is derived from (default content).
  --revision <n>            File corrected versions: each invoice gets the key of revision n
                            (default 0) of its reference. With --ref path the key stays with the
                            file, so a corrected invoice needs --revision 1 (then 2, …); with
                            --ref content, corrected content is a new key anyway. The invoice that
                            failed stays on the service as it is (in Error, or a draft); the
                            corrected one is filed as a new invoice.
  --strict                  Treat check warnings as errors.
  --format <text|json>      Output format (default text).
  -q, --quiet               Print only invoices that stopped, and the summary.
  --max-file-size <MiB>     Refuse input files larger than this (default 10). Files must be
                            UTF-8; devices, pipes and other non-regular files are refused.
  --color, --no-color       Colour on or off (default: on a terminal, unless NO_COLOR is set;
                            FORCE_COLOR=1 forces it, FORCE_COLOR=0 turns it off).
  -h, --help                Show this help.

Environment: INVOICING_BASE_URL (the service's origin) and INVOICING_API_KEY (a USER key).

Ctrl-C stops cleanly: no new invoice is started, those in flight finish (Ctrl-C again aborts
them), every invoice is reported and the command that files the rest is printed.

Exit codes: 0 every invoice filed (with --wait: and accepted); 1 any invoice stopped, failed its
checks, was rejected (each reason is printed) or is in Error; 2 usage or configuration error,
unreadable file, or nothing matched (nothing is filed then); 130 interrupted (Ctrl-C).
`;

function parseSettings(argv: string[]) {
  const { values: v, positionals, color, help } = parseCommand(argv, {
    'max-file-size': { type: 'string' }, concurrency: { type: 'string' }, wait: { type: 'boolean' },
    'wait-timeout': { type: 'string' }, ref: { type: 'string' }, revision: { type: 'string' }, strict: { type: 'boolean' },
    format: { type: 'string', short: 'f' }, quiet: { type: 'boolean', short: 'q' },
  }, true);
  return {
    inputs: positionals, concurrency: wholeNumber('concurrency', v.concurrency, 1) ?? 4, wait: v.wait === true,
    waitTimeoutMs: (wholeNumber('wait-timeout', v['wait-timeout'], 1) ?? 300) * 1000, strict: v.strict === true,
    ref: oneOf('ref', v.ref, ['content', 'path'], 'content'), revision: wholeNumber('revision', v.revision, 0) ?? 0,
    format: oneOf('format', v.format, ['text', 'json'], 'text'), quiet: v.quiet === true, color,
    maxFileBytes: maxFileBytes(v['max-file-size']), help,
  };
}

type Settings = ReturnType<typeof parseSettings>;

/** One invoice read from the files, or why it could not be; `ref` names it for `--ref path`. */
interface Source { label: string; ref: string; input?: InvoiceCreateParams; problem?: string; }

/** How `--ref path` names a file: from its git root, else absolute; never from the cwd (another key). */
function refPath(t: Target, roots: Map<string, string | undefined>): string {
  if (t.path === '-') return t.display;
  const root = repositoryRoot(dirname(t.path), roots);
  return (root === undefined ? t.path : relative(root, t.path)).split(sep).join('/');
}

function repositoryRoot(dir: string, roots: Map<string, string | undefined>): string | undefined {
  if (roots.has(dir)) return roots.get(dir);
  const parent = dirname(dir);
  const root = existsSync(join(dir, '.git')) ? dir : parent === dir ? undefined : repositoryRoot(parent, roots);
  roots.set(dir, root);
  return root;
}

const invalidJson = (e: SyntaxProblem): string => `not valid JSON at ${e.line}:${e.column}: ${e.message}`;

async function readSources(targets: Target[], ctx: CliContext, maxBytes: number): Promise<{ sources: Source[]; unreadable: string[] }> {
  const sources: Source[] = [];
  const unreadable: string[] = [];
  const roots = new Map<string, string | undefined>();
  for (const t of targets) {
    const loaded = await loadTarget(t, ctx, maxBytes);
    if ('readError' in loaded) {
      unreadable.push(`${t.display}: ${loaded.readError}`);
      continue;
    }
    const { parsed } = loaded;
    if (parsed.error !== undefined) {
      sources.push({ label: t.display, ref: t.display, problem: invalidJson(parsed.error) });
      continue;
    }
    const file = refPath(t, roots);
    for (const src of parsed.invoices) {
      const where = src.index !== undefined ? `[${src.index}]` : src.line !== undefined ? ` line ${src.line}` : '';
      const label = `${t.display}${where}`;
      const ref = `${file}${where}`;
      const isObject = typeof src.value === 'object' && src.value !== null && !Array.isArray(src.value);
      const problem = src.error !== undefined ? invalidJson(src.error) : isObject ? undefined : 'not an invoice object';
      sources.push(problem === undefined ? { label, ref, input: src.value as InvoiceCreateParams } : { label, ref, problem });
    }
  }
  return { sources, unreadable };
}

const isKeyConflict = (err: unknown): boolean => causeNames(err).includes('IdempotencyConflictError');

/** A refusal's advice in CLI terms (the library's hints name options a CLI user does not have). */
function refusalAdvice(cause: Error & { hint?: string }): string {
  switch (cause.name) {
    case 'AuthenticationError':
      return 'The API key was refused: set INVOICING_API_KEY to a valid USER key. Creating a key revokes the existing key of the same type at once, so a key that worked before may have been replaced.';
    case 'PermissionDeniedError':
      return 'The API key lacks the scope this step needs: set INVOICING_API_KEY to a key whose scopes include it.';
    default:
      return cause.hint !== undefined && !/\w\(/.test(cause.hint) ? cause.hint : 'Fix what the message says.';
  }
}

/** What to do after a `FilingError`, in CLI terms; `again`: whether the same command can finish it. */
function filingAdvice(err: FilingError, settings: Pick<Settings, 'ref' | 'revision'>): { hint: string; again: boolean } | undefined {
  const id = err.invoiceId;
  if (isKeyConflict(err) || err.step === 'check' || (id === undefined && err.step !== 'create')) return undefined;
  const passes = mayPassLater(err.cause);
  switch (err.step) {
    case 'create':
      if (!passes) return { hint: `The service refused the invoice; nothing was created. ${refusalAdvice(err.cause)}`, again: false };
      return { hint: 'It is not known whether the invoice was created. Run the same command again: the same idempotency key gets the invoice created the first time, if it was, instead of a second one.', again: true };
    case 'reconcile':
      if (err.cause.name !== 'TotalsMismatchError') {
        return { hint: `Invoice ${id} was left as it is; nothing was filed. invoicing file files nothing whose totals it cannot reconcile; see docs/filing.md (fieldMap).`, again: false };
      }
      return { hint: `Invoice ${id} stays a draft on the service, never filed. ${correctedAdvice(settings)}`, again: false };
    case 'wait':
      return { hint: `Invoice ${id} was submitted; nothing more needs sending. To follow it further, run the same command again with --wait (and a longer --wait-timeout): it finds the invoice and sends nothing new.`, again: true };
    default:
      return {
        hint: `${passes ? 'Run' : `${refusalAdvice(err.cause)} Then run`} the same command again: invoice ${id} is read, and only the steps it has not passed are performed, so nothing is filed twice.`,
        again: passes,
      };
  }
}

function correctedAdvice(settings: Pick<Settings, 'ref' | 'revision'>): string {
  if (settings.ref === 'path') {
    return `Correct the file, then run the command again with --revision ${settings.revision + 1}: the corrected invoice is filed as a new one under a key of its own.`;
  }
  return 'Correct the file, then run the command again: corrected content is a new key, filed as a new invoice.';
}

function failureHint(failure: FilingFailure, settings: Pick<Settings, 'ref' | 'revision'>): string {
  if (failure.kind === 'field-validation') {
    const field = failure.field === undefined ? 'one field' : `the field ${failure.field}`;
    return (
      `The tax authority rejected ${field}; the invoice stays in Error on the service, and every re-submit of it fails ` +
      `the same way. ${correctedAdvice(settings)} The authority stops at the first problem, so the next run may reveal another.`
    );
  }
  return failure.hint.replace(/ \(client\.invoices\.resumeFiling\(id\)\)/, '');
}

/** The hint of a key conflict in CLI terms: a re-run meets the same 409, so it says what to change. */
function keyConflictHint(source: Source, settings: Pick<Settings, 'ref' | 'revision'>): string {
  if (settings.ref === 'path') {
    return (
      `${source.label} changed since it was first filed: with --ref path the key comes from the file's ` +
      "path and the invoice's position in it, not from its content (adding or removing an invoice in an " +
      'array or NDJSON file moves the ones after it). To finish the invoice filed then, restore the ' +
      `content it had. If that invoice failed and this is its corrected version, run the command with --revision ${settings.revision + 1}: ` +
      'a new revision is a new key (or give the file a new name: a new path is a new key too). The invoice filed then is not changed either way.'
    );
  }
  return (
    "With --ref content (the default) the key comes from the invoice's content, and the service holds " +
    'another body under this key: something other than `invoicing file` used it, or this invoice was ' +
    'sent before in another form. Look for the invoice created then before filing again; --ref path ' +
    "keys this file's invoices by its path and their position instead."
  );
}

/** The invoices not filed because an earlier one in the batch has the same key, each with that one. */
function repeats(fileable: Source[], results: FileManyResult[]): Map<Source, Source> {
  const first = new Map<string, Source>();
  const sameAs = new Map<Source, Source>();
  results.forEach((result, i) => {
    const src = fileable[i] as Source;
    const key = result.idempotencyKey;
    if (key === undefined) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, src);
    else if (!result.ok && !result.notStarted && result.error.step === 'check' && result.error.cause.name === 'InvoicingError') sameAs.set(src, earlier);
  });
  return sameAs;
}

function repeatHint(ref: Settings['ref']): string {
  if (ref === 'path') return 'The same file was given twice (two patterns matching it, say); it is filed once.';
  return (
    'With --ref content (the default) invoices with the same content are one invoice, filed once. If ' +
    'they are two invoices on purpose, file them with --ref path, which keys each by its file and ' +
    'position; but only invoices not filed yet: one already filed with --ref content would get a new ' +
    'key, and be filed again.'
  );
}

function describe(source: Source, result: FileManyResult | undefined, settings: Pick<Settings, 'ref' | 'revision'>, sameAs: Source | undefined): FileRecord {
  const { ref } = settings;
  if (result === undefined) return { source: source.label, ok: false, error: { name: 'SourceError', message: source.problem } };
  if (result.notStarted) {
    const error = { name: 'Interrupted', message: 'Not started: the run was interrupted (Ctrl-C) before it was sent.' };
    return { source: source.label, ok: false, notStarted: true, invoiceId: undefined, idempotencyKey: result.idempotencyKey, error };
  }
  if (sameAs !== undefined && !result.ok) {
    const same = ref === 'path' ? 'same file and position' : 'same content';
    const error = { name: result.error.name, message: `The same invoice as ${sameAs.label} (${same}): not filed again.`, hint: repeatHint(ref) };
    return { source: source.label, ok: false, invoiceId: undefined, idempotencyKey: result.idempotencyKey, error };
  }
  if (result.ok || result.invoice !== undefined) {
    // Filed, or every step ran and the invoice failed (rejected, in Error): the failure says why.
    const { invoice, failure } = result;
    return {
      source: source.label, ok: result.ok, invoiceId: invoice?.id, status: invoice?.status, rawStatus: invoice?.rawStatus,
      idempotencyKey: result.idempotencyKey,
      ...(failure === undefined ? {} : { failure: { ...failure, hint: failureHint(failure, settings) } }),
    };
  }
  const { name, message, step } = result.error;
  const hint = isKeyConflict(result.error) ? keyConflictHint(source, settings) : (filingAdvice(result.error, settings)?.hint ?? cliHint(result.error, source.label));
  return { source: source.label, ok: false, invoiceId: result.invoiceId, idempotencyKey: result.idempotencyKey, error: { name, message, step, hint } };
}

export const run = (given: CliContext): Promise<number> => redactedRun(given, fileAll);

async function fileAll(ctx: CliContext): Promise<number> {
  const started = performance.now();
  const settings = parseSettings(ctx.argv);
  if (settings.help) return printHelp(ctx.stdout, HELP);
  if (settings.inputs.length === 0) throw new UsageError('name at least one file, glob or directory to file');
  const interrupt = new FilingInterrupt();
  const baseUrl = baseUrlOf(ctx.env);
  const apiKey = ctx.env.INVOICING_API_KEY;
  if (!apiKey) throw new UsageError('INVOICING_API_KEY is not set: export a USER API key (see docs/authentication.md)');
  const client = new InvoicingClient({ baseUrl, apiKey, logLevel: 'off' });

  const unmatched: string[] = [];
  const targets = await resolveTargets(settings.inputs, ctx.cwd, unmatched);
  const { sources, unreadable } = await readSources(targets, ctx, settings.maxFileBytes);
  if (unmatched.length > 0 || unreadable.length > 0) {
    // A typo should not file half a batch.
    for (const u of unmatched) ctx.stderr.write(`invoicing file: nothing matched ${printable(u)}\n`);
    for (const u of unreadable) ctx.stderr.write(`invoicing file: cannot read ${printable(u)}\n`);
    return 2;
  }

  const fileable = sources.filter((s) => s.input !== undefined);
  const s = styles(colourEnabled(ctx.stdout, ctx.env, settings.color));
  const errStyle = styles(colourEnabled(ctx.stderr, ctx.env, settings.color));
  const progress = createProgress(ctx.stderr, ctx.env, { label: 'filing', total: fileable.length, style: errStyle });
  const removeInterrupt = ctx.onInterrupt?.(() => {
    const inFlight = interrupt.inFlight;
    if (interrupt.press() === 'stopping') {
      progress.note('stopping');
      ctx.stderr.write(
        `\n${errStyle.yellow(`Interrupted: no new invoice is started; waiting for the ${plural(inFlight, 'invoice')} in flight to settle. Ctrl-C again to abort them.`)}\n`,
      );
    } else if (inFlight > 0) {
      progress.note('aborting');
      ctx.stderr.write(`\n${errStyle.yellow('Interrupted again: aborting the invoices in flight.')}\n`);
    }
  });
  let results: FileManyResult[];
  try {
    results = await client.invoices.fileMany(fileable.map((src) => src.input as InvoiceCreateParams), {
      concurrency: settings.concurrency, checkOptions: { strict: settings.strict }, stopSignal: interrupt.stopSignal,
      signal: interrupt.signal, revision: settings.revision,
      ...(settings.ref === 'path' ? { externalRef: (_input: InvoiceCreateParams, i: number) => `path:${fileable[i]?.ref}` } : {}),
      ...(settings.wait ? { wait: { timeout: settings.waitTimeoutMs } } : {}),
      onStep: (index) => interrupt.start(index),
      onProgress: (p) => {
        interrupt.settle(p.result.index);
        progress.update(p.done, p.failed);
      },
    });
  } finally {
    removeInterrupt?.();
    progress.end();
  }

  const byIndex = new Map(fileable.map((src, i) => [src, results[i] as FileManyResult]));
  const sameAs = repeats(fileable, results);
  const records = sources.map((src) => describe(src, byIndex.get(src), settings, sameAs.get(src)));
  const filed = records.filter((r) => r.ok === true).length;
  const stopped = records.length - filed;
  const notStarted = records.filter((r) => r.notStarted === true).length;
  const summary: FileSummary = { invoices: records.length, filed, stopped, notStarted, durationMs: Math.round(performance.now() - started) };
  // The same arguments give the same keys.
  const resume = interrupt.interrupted
    ? { command: ['npx', 'invoicing', 'file', ...ctx.argv].map(shellQuote).join(' '), cwd: ctx.cwd, stdin: targets.some((t) => t.path === '-') }
    : undefined;

  if (settings.format === 'json') {
    ctx.stdout.write(`${safeJson({ results: records, summary: { ...summary, interrupted: interrupt.interrupted }, ...(resume ? { resume } : {}) })}\n`);
  } else {
    renderFileText(ctx.stdout, records, summary, s, { quiet: settings.quiet, terminal: ctx.stdout.isTTY === true });
    if (resume !== undefined) {
      ctx.stdout.write(
        `${s.yellow(`Interrupted (Ctrl-C): ${plural(summary.notStarted, 'invoice')} not started.`)} Run this to file the rest; ` +
          'invoices already created are picked up and nothing is filed twice:\n' +
          `  ${s.bold(printable(resume.command))}\n` +
          `${s.dim(`  (in ${printable(resume.cwd)}${resume.stdin ? '; give it the same standard input again' : ''})`)}\n`,
      );
    } else if (results.some((r) => !r.ok && !r.notStarted && r.failure === undefined && filingAdvice(r.error, settings)?.again === true)) {
      // Not after a refusal alone: running again is refused again.
      ctx.stdout.write(s.dim('Run the same command again to finish what was left: invoices already created are picked up, never filed twice.\n'));
    }
  }
  // 130 = 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C.
  if (interrupt.interrupted) return 130;
  return stopped > 0 ? 1 : 0;
}

/** One invoice's outcome as `invoicing file` reports it (also its JSON record). */
interface FileRecord {
  source: string; ok: boolean; invoiceId?: string | undefined; status?: string | undefined; rawStatus?: string | undefined;
  idempotencyKey?: string | undefined;
  /** The invoice failed although every step ran: rejected, cancelled, in Error (`kind`), with the service's reason. */
  failure?: { kind: string; message: string; hint: string } | undefined;
  error?: { name?: string; message?: string; step?: string | undefined; hint?: string | undefined } | undefined;
  /** Nothing was sent for it: the run was interrupted before it started. */ notStarted?: boolean | undefined;
}

interface FileSummary { invoices: number; filed: number; stopped: number; notStarted: number; durationMs: number; }

function outcome(r: FileRecord): string {
  if (r.notStarted === true) return 'not started';
  if (r.failure === undefined) return r.ok ? 'filed' : 'stopped';
  return ['rejected', 'cancelled', 'not-accepted'].includes(r.failure.kind) ? r.failure.kind.replace('-', ' ') : 'in Error';
}

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

/** The human report: a line per invoice on a terminal (`terminal`), else a table; then details and the summary. */
function renderFileText(out: Output, records: readonly FileRecord[], summary: FileSummary, s: Styles, opts: { quiet: boolean; terminal: boolean }): void {
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
