/**
 * The leak scanner of the secret scan: every way an error or a log line is commonly turned into
 * text, searched for each secret and for distinctive pieces of it (a cut-off key gives most of it
 * away, so a prefix counts as a leak as much as the whole).
 */
import { format, inspect } from 'node:util';
import type { Logger } from '../../../src/core/logger.js';

/** A secret to look for, with a label for the report. */
export interface Secret {
  label: string;
  value: string;
}

/** One string searched for, and the secret it belongs to. */
export interface Needle {
  secret: string;
  what: string;
  text: string;
}

/** One finding: where, which needle, and the text around it. */
export interface Leak {
  where: string;
  needle: string;
  excerpt: string;
}

/** Characters of a secret's start that identify it: a type prefix (`sk_live_`) plus a few random ones. */
export const PREFIX_LENGTH = 12;

/**
 * The whole secret, its first {@link PREFIX_LENGTH} characters, and a slice of its random middle
 * (which a secret truncated from the front, or quoted in pieces, would still show).
 */
export function needlesFor(secrets: readonly Secret[]): Needle[] {
  return secrets.flatMap(({ label, value }) => [
    { secret: label, what: 'whole', text: value },
    { secret: label, what: 'prefix', text: value.slice(0, PREFIX_LENGTH) },
    { secret: label, what: 'middle', text: value.slice(Math.floor(value.length / 2) - 6, Math.floor(value.length / 2) + 6) },
  ]);
}

/** Each cause, cause of cause and so on, an error included (cycles cut). */
function causeChain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<unknown>();
  for (let e: unknown = error; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    out.push(e);
    if (typeof e !== 'object') break;
  }
  return out;
}

/** Every string reachable from `value` through own properties (enumerable or not), depth-bounded. */
export function reachableStrings(value: unknown, depth = 6, seen = new WeakSet<object>()): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || depth < 0) return [];
  if (typeof value === 'function') return [];
  if (seen.has(value)) return [];
  seen.add(value);
  if (value instanceof Headers) return [...value.entries()].flat();
  const out: string[] = [];
  for (const key of Reflect.ownKeys(value)) {
    let item: unknown;
    try {
      item = (value as Record<PropertyKey, unknown>)[key];
    } catch {
      continue;
    }
    out.push(...reachableStrings(item, depth - 1, seen));
  }
  return out;
}

/**
 * Every rendering of an error that a user, a logger or an error tracker commonly produces: the
 * message, `String()`, the stack, the hint, `JSON.stringify`, `util.inspect` (plain, deep with
 * hidden properties, wrapped in an object as loggers do), `util.format('%o')`, and the same for each
 * error in its cause chain; plus every string held anywhere on the error's own object graph.
 */
export function renderings(error: unknown): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  causeChain(error).forEach((e, depth) => {
    const at = depth === 0 ? '' : `cause[${depth}].`;
    const err = e as Error & { hint?: unknown; body?: unknown };
    const add = (where: string, make: () => unknown): void => {
      try {
        const text = make();
        if (typeof text === 'string') out.push({ where: `${at}${where}`, text });
      } catch (thrown) {
        out.push({ where: `${at}${where} (threw)`, text: String(thrown) });
      }
    };
    add('message', () => err.message);
    add('toString()', () => String(err));
    add('stack', () => err.stack);
    add('hint', () => err.hint);
    add('JSON.stringify', () => JSON.stringify(err));
    add('JSON.stringify(body)', () => JSON.stringify(err.body ?? null));
    add('util.inspect', () => inspect(err));
    add('util.inspect(deep, hidden)', () => inspect(err, { depth: Infinity, showHidden: true }));
    add('util.inspect({ err })', () => inspect({ err }, { depth: Infinity }));
    add("util.format('%o')", () => format('%o', err));
    add('own properties', () => reachableStrings(err).join('\n'));
  });
  return out;
}

/** Every needle found in any of `texts`. */
export function findLeaks(texts: readonly { where: string; text: string }[], needles: readonly Needle[]): Leak[] {
  const leaks: Leak[] = [];
  for (const { where, text } of texts) {
    for (const needle of needles) {
      const at = text.indexOf(needle.text);
      if (at === -1) continue;
      leaks.push({
        where,
        needle: `${needle.secret} (${needle.what})`,
        excerpt: text.slice(Math.max(0, at - 60), at + needle.text.length + 20),
      });
    }
  }
  return leaks;
}

/**
 * A logger that keeps every line as a console would print it: the message and each argument
 * formatted with `util.format`, so objects passed as arguments are searched too.
 */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string, ...args: unknown[]): void => {
      lines.push(`${level} ${format(message, ...args)} ${inspect(args, { depth: Infinity })}`);
    };
  return { lines, debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}
