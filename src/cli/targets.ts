/**
 * Turning command-line arguments into files to read, shared by the commands that read invoice
 * files (`check`, `file`): paths, directories (searched for invoice files), quoted globs, and `-`
 * for standard input.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CliContext } from './context.js';
import { expandGlob, isGlob, listInvoiceFiles } from './glob.js';

/** One file to read. */
export interface Target {
  /** Absolute path, or '-' for standard input. */
  path: string;
  display: string;
}

/**
 * Expands arguments to files, sorted per argument and without duplicates. A path that does not
 * exist becomes a target too, so that reading it reports it as unreadable. Arguments that match
 * nothing are pushed to `unmatched`.
 */
export async function resolveTargets(inputs: string[], cwd: string, unmatched: string[]): Promise<Target[]> {
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
  const display = (abs: string): string => {
    // The common case without path.relative, which is slow enough to show on 10,000 files.
    if (abs.startsWith(prefix) && sep === '/') return abs.slice(prefix.length);
    const rel = relative(cwd, abs);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
  };
  const lists = await Promise.all(
    inputs.map(async (input): Promise<Target[]> => {
      if (input === '-') return [{ path: '-', display: '<stdin>' }];
      // A file whose name holds glob characters (`inv[1].json`) is that file, not a pattern.
      if (isGlob(input) && !(await stat(resolve(cwd, input)).then((i) => i.isFile(), () => false))) {
        const files = await expandGlob(input, cwd);
        if (files.length === 0) unmatched.push(input);
        return files.map((f) => ({ path: f, display: display(f) }));
      }
      const abs = resolve(cwd, input);
      const info = await stat(abs).catch(() => undefined);
      if (info?.isDirectory()) {
        const files = await listInvoiceFiles(abs);
        if (files.length === 0) unmatched.push(input);
        return files.map((f) => ({ path: f, display: display(f) }));
      }
      return [{ path: abs, display: display(abs) }];
    }),
  );
  const seen = new Set<string>();
  const targets: Target[] = [];
  for (const t of lists.flat()) {
    if (seen.has(t.path)) continue;
    seen.add(t.path);
    targets.push(t);
  }
  return targets;
}

/** Reads a target's text (standard input for `-`); throws the fs error for a file that cannot be read. */
export async function readTarget(t: Target, ctx: CliContext): Promise<string> {
  // Synchronous reads on purpose: for the small files invoices are, readFileSync measured 5–8×
  // faster than any number of concurrent fs.promises.readFile calls (each of those is four
  // thread-pool round trips: open, fstat, read, close). See docs/performance.md.
  return t.path === '-' ? ctx.readStdin() : readFileSync(t.path, 'utf8');
}

