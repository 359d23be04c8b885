// Command-line helpers shared by the commands.
import { UsageError } from './context.js';

/** A parseArgs failure as a UsageError (exit code 2, a pointer to --help). */
export function toUsageError(err: unknown): UsageError {
  // Node appends advice about `--` that does not apply to these commands.
  return new UsageError(err instanceof Error ? err.message.replace(/\. To specify a positional.*$/s, '') : String(err));
}

/** A whole number flag (`--max-warnings 10`), at least `min`; undefined when the flag is absent. */
export function wholeNumber(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${name} takes a whole number${min > 0 ? ` >= ${min}` : ''}, got "${value}"`);
  }
  return Number(value);
}

/** A flag whose value is one of a few words; `fallback` when absent. */
export function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
}

/** The parseArgs options every command takes for colour. */
export const COLOUR_OPTIONS = {
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

/** `--color` / `--no-color`, the last one winning; needs parseArgs' `tokens: true`. */
export function colourFlag(tokens: readonly { kind: string; name?: string }[] | undefined): boolean | undefined {
  let choice: boolean | undefined;
  for (const t of tokens ?? []) {
    if (t.kind !== 'option') continue;
    if (t.name === 'color') choice = true;
    else if (t.name === 'no-color') choice = false;
  }
  return choice;
}
