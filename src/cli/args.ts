// Command-line helpers shared by the commands.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './context.js';

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

/** A whole number flag (`--max-warnings 10`), at least `min`; undefined when the flag is absent. */
export function wholeNumber(name: string, value: unknown, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${name} takes a whole number${min > 0 ? ` >= ${min}` : ''}, got "${value}"`);
  }
  return Number(value);
}

/** A flag whose value is one of a few words; `fallback` when absent. */
export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly unknown[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
}

/** `--color` / `--no-color`, the last one winning. */
export function colourFlag(tokens: readonly { kind: string; name?: string }[] | undefined): boolean | undefined {
  let choice: boolean | undefined;
  for (const t of tokens ?? []) if (t.kind === 'option' && (t.name === 'color' || t.name === 'no-color')) choice = t.name === 'color';
  return choice;
}
