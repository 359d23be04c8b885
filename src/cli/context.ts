/**
 * What a CLI command gets from the outside world, passed in rather than read from globals so the
 * commands can be driven in-process as well as from the bin.
 */
import type { Redactor } from '../index.js';
import { shellQuote } from './interrupt.js';

/** A place to write text (process.stdout / process.stderr, or a buffer). */
export interface Output {
  write(text: string): unknown;
  /** True when this is an interactive terminal (colour, progress). */
  isTTY?: boolean | undefined;
  /** Terminal width, where known. */
  columns?: number | undefined;
}

export interface CliContext {
  /** Arguments after the command name. */
  argv: string[];
  stdout: Output;
  stderr: Output;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /**
   * Reads standard input (for the `-` file argument): its bytes, to be decoded as UTF-8 by the
   * caller, or text already decoded. May stop after a little more than `maxBytes`.
   */
  readStdin(maxBytes: number): Promise<Uint8Array | string>;
  /**
   * Calls `handler` on each Ctrl-C (SIGINT) until the returned function is called; while a handler
   * is installed, Ctrl-C does not end the process. Absent: Ctrl-C is not observed.
   */
  onInterrupt?: ((handler: () => void) => () => void) | undefined;
}

/**
 * The credentials a command may run with, as the client reads them from the environment (trimmed):
 * what its output is scrubbed of.
 */
export function envCredentials(env: CliContext['env']): (string | undefined)[] {
  return [env.INVOICING_API_KEY?.trim(), env.INVOICING_SESSION_TOKEN?.trim()];
}

/**
 * `out` with every write scrubbed by `redactor`: a server that echoes the key back, or a file that
 * holds it, cannot make the CLI print it (whole, without its prefix, or a long part of it).
 */
export function redactedOutput(out: Output, redactor: Pick<Redactor, 'redact'>): Output {
  return {
    write: (text: string) => out.write(redactor.redact(text)),
    get isTTY() {
      return out.isTTY;
    },
    get columns() {
      return out.columns;
    },
  };
}

/**
 * `ctx` with its stdout and stderr scrubbed by `redactor` (see {@link redactedOutput}).
 */
export function redactedContext(ctx: CliContext, redactor: Pick<Redactor, 'redact'>): CliContext {
  return { ...ctx, stdout: redactedOutput(ctx.stdout, redactor), stderr: redactedOutput(ctx.stderr, redactor) };
}

/** Thrown by a command for a usage error: reported with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Whether colour is wanted on this output. In order: `--color` / `--no-color` (`flag`); `FORCE_COLOR`
 * (set enables, `0` or `false` disables); `NO_COLOR` (any non-empty value disables); otherwise only
 * on a terminal that is not `TERM=dumb`.
 */
export function colourEnabled(out: Output, env: CliContext['env'], flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return out.isTTY === true && env.TERM !== 'dumb';
}

/** ANSI styles, or plain text when colour is off. */
export function styles(enabled: boolean) {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    underline: wrap(4, 24),
  };
}

export type Styles = ReturnType<typeof styles>;

/**
 * An error's hint in the command line's terms. The SDK's hints name calls and options a shell user
 * does not have (`{ skipChecks: true }`, `{ force: true }`, `resumeFiling()`); the CLI's answer to
 * those is to fix the file, or to wait, and run the same command again.
 */
export function cliHint(err: { name?: string; hint?: string | undefined; cause?: unknown }, source: string): string | undefined {
  // The file of `a.json[2]` or `b.ndjson line 3`, as a shell would take it.
  const file = shellQuote(source.replace(/(\[\d+\]| line \d+)$/, ''));
  const names: string[] = [];
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    names.push(String((e as { name?: unknown }).name));
  }
  if (names.includes('InvoiceCheckError')) {
    return `Fix ${file} and run the same command again; nothing was sent. \`npx invoicing check ${file}\` lists every problem with its field, code and hint.`;
  }
  if (names.includes('RecoveryInProgressError')) {
    return (
      'The service is retrying this invoice on its own (every 10 minutes, up to 3 times, within 24 hours): ' +
      'another submit does not speed it up. Run the same command again later; it sends nothing while recovery is in progress.'
    );
  }
  return err.hint;
}
