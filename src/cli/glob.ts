// A small glob matcher on Node built-ins (Node 20 has no fs.glob): `*`, `?`, `[abc]`, `[!abc]`, `{a,b}`, `**`;
// dotfiles and node_modules are skipped, as in most shells.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const isGlob = (arg: string): boolean => /[*?[\]{}]/.test(arg);

/** One path segment of a pattern (braces already expanded) as a whole-segment regular expression. */
export function segmentToRegExp(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[' && segment.indexOf(']', i + 2) !== -1) {
      const end = segment.indexOf(']', i + 2);
      let body = segment.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^$(){}|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}${out}$`);
}

/** Brace expansion, first, so alternatives may hold slashes; as bash does it, outermost group first. */
export function expandBraces(pattern: string): string[] {
  for (let open = pattern.indexOf('{'); open !== -1; open = pattern.indexOf('{', open + 1)) {
    const cuts = [open];
    for (let i = open, depth = 0; i < pattern.length; i++) {
      if (pattern[i] === '{') depth++;
      else if (pattern[i] === ',' && depth === 1) cuts.push(i);
      else if (pattern[i] === '}' && --depth === 0) {
        // "{x}" is no alternation: it stays as it is, and the next "{" is tried.
        if (cuts.length === 1) break;
        const head = pattern.slice(0, open);
        const tail = pattern.slice(i + 1);
        return cuts.flatMap((cut, k) => expandBraces(head + pattern.slice(cut + 1, cuts[k + 1] ?? i) + tail));
      }
    }
  }
  return [pattern];
}

export async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const alternatives = expandBraces(pattern.replace(/\\/g, '/'));
  if (alternatives.length > 1) {
    const all = await Promise.all(alternatives.map((p) => expandGlob(p, cwd)));
    return [...new Set(all.flat())].sort();
  }
  const normalized = alternatives[0] as string;
  const absolute = normalized.startsWith('/');
  const parts = normalized.split('/').filter((p, i) => p !== '' || i === 0);
  let base = absolute ? '/' : cwd;
  let i = absolute ? 1 : 0;
  for (; i < parts.length - 1 && !isGlob(parts[i] as string); i++) base = join(base, parts[i] as string);
  const segments = parts.slice(i).map((s) => (s === '**' ? '**' : segmentToRegExp(s)));
  // A trailing ** matches every file below, dotfiles too.
  if (segments.at(-1) === '**') segments.push(/^/);
  return [...new Set(await walk(base, segments, 0))].sort();
}

async function walk(dir: string, segments: (RegExp | '**')[], k: number, found: string[] = []): Promise<string[]> {
  const seg = segments[k] as RegExp | '**';
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return found;
  const last = k === segments.length - 1;
  if (seg === '**') {
    // Zero directories: the next segment here; one or more: ** again in each subdirectory.
    await walk(dir, segments, k + 1, found);
    const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules');
    await Promise.all(dirs.map((e) => walk(join(dir, e.name), segments, k, found)));
    return found;
  }
  const work: Promise<string[]>[] = [];
  for (const e of entries) {
    if (!seg.test(e.name)) continue;
    if (last) {
      // Not only regular files: a pipe or device is refused when read, not left out unnoticed.
      if (!e.isDirectory()) found.push(join(dir, e.name));
    } else if (e.isDirectory() || e.isSymbolicLink()) work.push(walk(join(dir, e.name), segments, k + 1, found));
  }
  await Promise.all(work);
  return found;
}

export async function listInvoiceFiles(dir: string): Promise<string[]> {
  return (await walk(dir, ['**', /^(?!\.).*\.(?:json|ndjson|jsonl)$/i], 0)).sort();
}
