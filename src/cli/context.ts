// What a command gets from the outside world (passed in, so it also runs in-process), and what commands share.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Redactor } from '../core/redact.js';
import { shellQuote } from './interrupt.js';

export interface Output {
  write(text: string): unknown;
  /** True when this is an interactive terminal (colour, progress). */ isTTY?: boolean | undefined;
  /** Terminal width, where known. */ columns?: number | undefined;
}

export interface CliContext {
  /** Arguments after the command name. */
  argv: string[]; stdout: Output; stderr: Output; env: Readonly<Record<string, string | undefined>>; cwd: string;
  /** Reads stdin for `-`: bytes or text; may stop a little after `maxBytes`. */ readStdin(maxBytes: number): Promise<Uint8Array | string>;
  /** Calls `handler` on each Ctrl-C until the returned function is called. */
  onInterrupt?: ((handler: () => void) => () => void) | undefined;
}

/** The credentials a command may run with, as the client reads them: its output is scrubbed of them. */
export const envCredentials = (env: CliContext['env']) => [env.INVOICING_API_KEY?.trim(), env.INVOICING_SESSION_TOKEN?.trim()];

export function redactedOutput(out: Output, redactor: Pick<Redactor, 'redact'>): Output {
  return {
    write: (text: string) => out.write(redactor.redact(text)),
    get isTTY() { return out.isTTY; },
    get columns() { return out.columns; },
  };
}

/** Runs a command with its output and errors scrubbed of `secrets` (default: the credentials in the environment). */
export async function redactedRun(given: CliContext, body: (ctx: CliContext) => Promise<number>, secrets = envCredentials(given.env)) {
  const [{ Redactor }, { redactError }] = await Promise.all([import('../core/redact.js'), import('../core/errors.js')]);
  const redactor = new Redactor(secrets);
  try {
    return await body({ ...given, stdout: redactedOutput(given.stdout, redactor), stderr: redactedOutput(given.stderr, redactor) });
  } catch (err) {
    throw redactError(err, redactor);
  }
}

export function baseUrlOf(env: CliContext['env']): string {
  const baseUrl = env.INVOICING_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') {
    throw new UsageError("INVOICING_BASE_URL is not set: export it as the service's origin (e.g. https://invoicing.example.com)");
  }
  return baseUrl;
}

/** Thrown by a command for a usage error: reported with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function printHelp(out: Output, help: string): number {
  out.write(help);
  return 0;
}

/** Colour: `--color`/`--no-color`, then `FORCE_COLOR`, then `NO_COLOR`, else a terminal not `TERM=dumb`. */
export function colourEnabled(out: Output, env: CliContext['env'], flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return out.isTTY === true && env.TERM !== 'dumb';
}

export function styles(enabled: boolean) {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return {
    bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), cyan: wrap(36, 39),
    underline: wrap(4, 24),
  };
}

export type Styles = ReturnType<typeof styles>;

/** The names of an error and its first causes: the CLI tells errors apart by name and loads no error classes. */
export function causeNames(err: unknown): string[] {
  const names: string[] = [];
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    names.push(String((e as { name?: unknown }).name));
  }
  return names;
}

/** An error's hint in shell terms (the SDK's hints name calls a shell user does not have). */
export function cliHint(err: { name?: string; hint?: string | undefined; cause?: unknown }, source: string): string | undefined {
  const file = shellQuote(source.replace(/(\[\d+\]| line \d+)$/, ''));
  const names = causeNames(err);
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

/** parseArgs, strict, with the flags every command takes (`--color`, `--no-color`, `-h`); a failure is a UsageError. */
export function parseCommand(args: string[], options: NonNullable<ParseArgsConfig['options']>, allowPositionals = false) {
  try {
    const all = { color: { type: 'boolean' }, 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...options } as const;
    const { values, positionals, tokens } = parseArgs({ args, options: all, strict: true, tokens: true, allowPositionals });
    const v: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>> = values;
    return { values: v, positionals, color: colourFlag(tokens), help: v.help === true };
  } catch (err) {
    // Node appends advice about `--` that does not apply to these commands.
    throw new UsageError(err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, '') : String(err));
  }
}

export function wholeNumber(name: string, value: unknown, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${name} takes a whole number${min > 0 ? ` >= ${min}` : ''}, got "${value}"`);
  }
  return Number(value);
}

export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
}

// The last of `--color` / `--no-color` wins.
export function colourFlag(tokens: readonly { kind: string; name?: string }[] = []): boolean | undefined {
  const last = tokens.findLast((t) => t.kind === 'option' && (t.name === 'color' || t.name === 'no-color'));
  return last === undefined ? undefined : last.name === 'color';
}
