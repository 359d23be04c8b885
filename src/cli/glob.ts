/**
 * A small glob matcher on Node built-ins only (Node 20 has no fs.glob): `*`, `?`, `[abc]`, `[!abc]`,
 * `{a,b}` and `**` (any number of directories). `*` and `?` never match a leading dot, and `**`
 * never descends into dot-directories or node_modules, as in most shells and linters.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const MAGIC = /[*?[\]{}]/;

/** Whether an argument is a pattern rather than a path. */
export function isGlob(arg: string): boolean {
  return MAGIC.test(arg);
}

/** One path segment of a pattern as a regular expression (whole-segment match). */
export function segmentToRegExp(segment: string): RegExp {
  let out = '';
  let inBraces = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let body = segment.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      inBraces++;
      out += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      out += ')';
    } else if (c === ',' && inBraces > 0) out += '|';
    else out += c.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  while (inBraces-- > 0) out += ')';
  const dotAllowed = segment.startsWith('.');
  return new RegExp(`^${dotAllowed ? '' : '(?!\\.)'}${out}$`);
}

function skipDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * Expands a pattern (with `/` separators, relative to `cwd` or absolute) to the files it matches,
 * sorted. Directories that cannot be read are skipped.
 */
export async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const normalized = pattern.replace(/\\/g, '/');
  const absolute = normalized.startsWith('/');
  const parts = normalized.split('/').filter((p, i) => p !== '' || i === 0);
  let base = absolute ? '/' : cwd;
  let i = absolute ? 1 : 0;
  while (i < parts.length - 1 && !isGlob(parts[i] as string)) {
    base = join(base, parts[i] as string);
    i++;
  }
  const segments = parts.slice(i).map((s) => (s === '**' ? '**' : segmentToRegExp(s)));
  const found: string[] = [];
  await walk(base, segments, 0, found);
  return [...new Set(found)].sort();
}

async function walk(dir: string, segments: (RegExp | '**')[], k: number, found: string[]): Promise<void> {
  const seg = segments[k];
  if (seg === undefined) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const last = k === segments.length - 1;
  if (seg === '**') {
    if (last) {
      // A trailing ** matches every file below.
      await Promise.all(
        entries.map((e) =>
          e.isDirectory() ? (skipDir(e.name) ? undefined : walk(join(dir, e.name), segments, k, found)) : found.push(join(dir, e.name)),
        ),
      );
      return;
    }
    // Zero directories: the next segment here; one or more: ** again in each subdirectory.
    await walk(dir, segments, k + 1, found);
    await Promise.all(
      entries.filter((e) => e.isDirectory() && !skipDir(e.name)).map((e) => walk(join(dir, e.name), segments, k, found)),
    );
    return;
  }
  const work: Promise<void>[] = [];
  for (const e of entries) {
    if (!seg.test(e.name)) continue;
    if (last) {
      if (e.isFile() || e.isSymbolicLink()) found.push(join(dir, e.name));
    } else if (e.isDirectory() || e.isSymbolicLink()) work.push(walk(join(dir, e.name), segments, k + 1, found));
  }
  await Promise.all(work);
}

const INVOICE_FILE = /\.(json|ndjson|jsonl)$/i;

/** Every .json / .ndjson / .jsonl file under a directory, skipping dot-directories and node_modules. */
export async function listInvoiceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    const work: Promise<void>[] = [];
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!skipDir(e.name)) work.push(visit(join(d, e.name)));
      } else if (INVOICE_FILE.test(e.name)) found.push(join(d, e.name));
    }
    await Promise.all(work);
  };
  await visit(dir);
  return found.sort();
}
