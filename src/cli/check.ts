// `invoicing check`: checkInvoice over invoice files, offline. SDK code the main entry exports comes through
// `../index.js` (external in the build), else it would be bundled twice.
import { resolve } from 'node:path';
import { CHECK_RULES, checkInvoice, InvoicingClient, type CheckIssue, type CheckIssueCode, type CheckOptions } from '../index.js';
import { didYouMean } from '../check/suggest.js';
import { colourEnabled, oneOf, parseCommand, printHelp, redactedRun, styles, UsageError, wholeNumber, type CliContext } from './context.js';
import { arrayElementStarts, lineStarts, locatePath, positionAt, type ParsedSource } from './json-source.js';
import { safeJson } from './escape.js';
import { createProgress } from './progress.js';
import { renderGithub, renderText, summarize, type FileResult, type InvoiceResult, type LocatedIssue } from './reporters/check.js';
import { loadTarget, maxFileBytes, pathWithin, resolveTargets, type Target } from './targets.js';

export const HELP = `Usage: invoicing check <files | globs | directories | -> [options]

Checks invoices locally, offline, against every rule of the service document, and reports every
problem at once. A file holds one invoice, an array of invoices, or NDJSON (one per line); a
directory is searched for *.json, *.ndjson and *.jsonl; "-" reads standard input. Quote globs
("invoices/**/*.json") so the shell passes them through.

Options:
  --format <text|json|github>  Output format (default: text). github prints workflow annotations.
  --strict                     Treat warnings as errors.
  --max-warnings <n>           Exit 1 when there are more than n warnings.
  --hs-codes <bundled|none|api>
                               Where valid HS codes come from: the bundled HS 2022 table (default;
                               a code outside it is a warning), none (format checks only), or the
                               service (a code it lacks is an error; needs INVOICING_API_KEY and
                               INVOICING_BASE_URL).
  --ignore <CODE[,CODE…]>      Leave these issue codes out (repeatable).
  --min-category-length <n>    Shortest accepted productCategory/serviceCategory (default 3).
  --quiet                      Show errors only (warnings still count for --max-warnings).
  --max-file-size <MiB>        Refuse input files larger than this (default 10). Files must be
                               UTF-8; devices, pipes and other non-regular files are refused.
  --color, --no-color          Colour on or off (default: on a terminal, unless NO_COLOR is set;
                               FORCE_COLOR=1 forces it, FORCE_COLOR=0 turns it off).
  -h, --help                   Show this help.

Exit codes: 0 no errors; 1 errors found (or more warnings than --max-warnings);
2 usage error, unreadable file or nothing matched.
`;

const HS_MODES = ['bundled', 'none', 'api'] as const;
// Issues about a field's name rather than its value: pointed at the key.
const KEY_CODES: ReadonlySet<string> = new Set(['UNKNOWN_FIELD', 'TAX_FIELD_NOT_ACCEPTED', 'TOTAL_FIELD_NOT_ACCEPTED']);

function parseSettings(argv: string[]) {
  const { values: v, positionals, color, help } = parseCommand(argv, {
    'max-file-size': { type: 'string' }, format: { type: 'string', short: 'f' }, strict: { type: 'boolean' },
    'max-warnings': { type: 'string' }, 'hs-codes': { type: 'string' }, ignore: { type: 'string', multiple: true },
    'min-category-length': { type: 'string' }, quiet: { type: 'boolean', short: 'q' },
  }, true);
  const ignore = ((v.ignore as string[] | undefined) ?? []).flatMap((list) => list.split(',')).flatMap((raw) => {
    const code = raw.trim().toUpperCase();
    if (code === '') return [];
    if (Object.hasOwn(CHECK_RULES, code)) return [code as CheckIssueCode];
    const near = didYouMean(code, Object.keys(CHECK_RULES));
    throw new UsageError(`--ignore: unknown issue code "${raw}"${near ? ` (did you mean ${near}?)` : ''}`);
  });
  return {
    inputs: positionals, format: oneOf('format', v.format, ['text', 'json', 'github'], 'text'), strict: v.strict === true,
    maxWarnings: wholeNumber('max-warnings', v['max-warnings']), hsCodes: oneOf('hs-codes', v['hs-codes'], HS_MODES, 'bundled'),
    ignore, minCategoryLength: wholeNumber('min-category-length', v['min-category-length']), quiet: v.quiet === true, color,
    maxFileBytes: maxFileBytes(v['max-file-size']), help,
  };
}

async function loadHsCodes(mode: (typeof HS_MODES)[number]): Promise<ReadonlySet<string> | false | undefined> {
  if (mode === 'none') return false;
  if (mode === 'bundled') return undefined;
  try {
    return new Set((await new InvoicingClient().codes.hsCodes()).map((c) => c.code));
  } catch (err) {
    throw new Error(`--hs-codes api: could not load the HS codes from the service: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** GitHub annotates `file=` relative to $GITHUB_WORKSPACE; other files are left as displayed. */
function workspacePath(ctx: CliContext): ((file: string) => string) | undefined {
  const workspace = ctx.env.GITHUB_WORKSPACE;
  return workspace ? (file) => (file === '<stdin>' ? file : pathWithin(workspace, resolve(ctx.cwd, file), file)) : undefined;
}

async function checkTarget(t: Target, opts: CheckOptions, ctx: CliContext, maxBytes: number): Promise<FileResult> {
  const loaded = await loadTarget(t, ctx, maxBytes);
  if ('readError' in loaded) return { file: t.display, ok: false, invoices: [], readError: loaded.readError };
  const { text, parsed } = loaded;
  if (parsed.error !== undefined) return { file: t.display, ok: false, invoices: [], syntaxError: parsed.error };
  let starts: number[] | undefined;
  let elements: number[] | undefined;
  const locate = (issue: CheckIssue, src: ParsedSource['invoices'][number]): LocatedIssue => {
    if (issue.path[0] === 'options') return issue;
    // From the array element itself, so many errors in one file stay linear.
    if (parsed.kind === 'array') elements ??= arrayElementStarts(text, src.offset);
    const from = elements?.[src.index as number] ?? src.offset;
    const offset = locatePath(text, issue.path, from, KEY_CODES.has(issue.code));
    starts ??= lineStarts(text);
    return { ...issue, ...positionAt(text, offset, starts) };
  };
  const invoices = parsed.invoices.map((src): InvoiceResult => {
    const at = { index: src.index, line: src.line };
    if (src.error !== undefined) return { ok: false, errors: [], warnings: [], ...at, syntaxError: src.error };
    const { ok, errors, warnings, totals } = checkInvoice(src.value, opts);
    return { ok, errors: errors.map((i) => locate(i, src)), warnings: warnings.map((i) => locate(i, src)), ...at, totals };
  });
  return { file: t.display, ok: invoices.every((i) => i.ok), invoices };
}

export const run = (given: CliContext): Promise<number> => redactedRun(given, checkAll);

async function checkAll(ctx: CliContext): Promise<number> {
  const started = performance.now();
  const settings = parseSettings(ctx.argv);
  if (settings.help) return printHelp(ctx.stdout, HELP);
  if (settings.inputs.length === 0) throw new UsageError('name at least one file, glob or directory to check');

  const unmatched: string[] = [];
  const [targets, hsCodes] = await Promise.all([resolveTargets(settings.inputs, ctx.cwd, unmatched), loadHsCodes(settings.hsCodes)]);
  const opts: CheckOptions = { strict: settings.strict, ignore: settings.ignore, hsCodes, minCategoryLength: settings.minCategoryLength };

  const progress = createProgress(ctx.stderr, ctx.env, {
    label: 'checking', unit: 'files', total: targets.length, minTotal: 50,
    style: styles(colourEnabled(ctx.stderr, ctx.env, settings.color)),
  });
  const files: FileResult[] = [];
  for (const t of targets) {
    files.push(await checkTarget(t, opts, ctx, settings.maxFileBytes));
    progress.update(files.length);
    // Yields now and then so the progress bar draws and stdin flows.
    if (files.length % 200 === 0) await new Promise((r) => setImmediate(r));
  }
  progress.end();

  const summary = summarize(files, unmatched, started);
  const tooManyWarnings = settings.maxWarnings !== undefined && summary.warnings > settings.maxWarnings;
  const exitCode = summary.unreadableFiles > 0 || unmatched.length > 0 ? 2 : summary.errors > 0 || tooManyWarnings ? 1 : 0;
  const result = { files, summary, exitCode, maxWarnings: settings.maxWarnings };

  // The JSON report: `version` changes only if a field changes meaning; fields may be added.
  if (settings.format === 'json') ctx.stdout.write(`${safeJson({ version: 1, ok: exitCode === 0, exitCode, summary, files })}\n`);
  else if (settings.format === 'github') ctx.stdout.write(renderGithub(result, styles(false), settings.quiet, workspacePath(ctx)));
  else ctx.stdout.write(renderText(result, styles(colourEnabled(ctx.stdout, ctx.env, settings.color)), settings.quiet));
  return exitCode;
}
