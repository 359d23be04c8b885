// Command-line arguments to files to read (paths, directories, quoted globs, `-` for stdin), read and parsed.
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { wholeNumber, type CliContext } from './context.js';
import { parseSource, type ParsedSource } from './json-source.js';
import { expandGlob, isGlob, listInvoiceFiles } from './glob.js';

export interface Target { /** Absolute path, or '-' for standard input. */ path: string; display: string; }

/** `abs` from `dir` with forward slashes; `outside` when it is not below `dir`. */
export function pathWithin(dir: string, abs: string, outside = abs): string {
  const rel = relative(dir, abs);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? outside : rel.split(sep).join('/');
}

/** Expands arguments to files, sorted and deduplicated; a missing path stays a target (reported unreadable). */
export async function resolveTargets(inputs: string[], cwd: string, unmatched: string[]): Promise<Target[]> {
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
  // path.relative is slow on many files.
  const display = (abs: string): string => (abs.startsWith(prefix) && sep === '/' ? abs.slice(prefix.length) : pathWithin(cwd, abs));
  const lists = await Promise.all(
    inputs.map(async (input): Promise<Target[]> => {
      if (input === '-') return [{ path: '-', display: '<stdin>' }];
      const abs = resolve(cwd, input);
      const info = await stat(abs).catch(() => undefined);
      // A file whose name holds glob characters (`inv[1].json`) is that file, not a pattern.
      const glob = isGlob(input) && info?.isFile() !== true;
      if (!glob && info?.isDirectory() !== true) return [{ path: abs, display: display(abs) }];
      const files = glob ? await expandGlob(input, cwd) : await listInvoiceFiles(abs);
      if (files.length === 0) unmatched.push(input);
      return files.map((f) => ({ path: f, display: display(f) }));
    }),
  );
  // A path's display depends on the path alone: keeping the last of duplicates changes nothing.
  return [...new Map(lists.flat().map((t) => [t.path, t])).values()];
}

export const maxFileBytes = (value: unknown): number => (wholeNumber('max-file-size', value, 1) ?? 10) * 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function kindOf(info: Stats): string {
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe';
  return info.isSocket() ? 'a socket' : 'not a regular file';
}

const mib = (bytes: number): string => `${Math.ceil((bytes / 1024 / 1024) * 10) / 10} MiB`;

const tooLarge = (size: string, limit: number): Error =>
  new Error(`larger than the ${mib(limit)} limit (${size}); raise it with --max-file-size <MiB> if the file is meant to be this big`);

/** Decodes UTF-8 strictly: a Latin-1 or binary file is an error, never mojibake sent to the service. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const text = new TextDecoder().decode(bytes);
    let at = bytes.length;
    // Each U+FFFD before the fault stands for itself (EF BF BD), so the text before it has the bytes' length.
    for (let k = text.indexOf('\uFFFD'); k !== -1 && at === bytes.length; k = text.indexOf('\uFFFD', k + 1)) {
      const offset = Buffer.byteLength(text.slice(0, k));
      if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) at = offset;
    }
    const byte = (bytes[at] ?? 0).toString(16).padStart(2, '0');
    throw new Error(`not UTF-8 text (invalid byte 0x${byte} at offset ${at}); save it as UTF-8 (a Latin-1 file: iconv -f latin1 -t utf-8)`);
  }
}

/** Reads a regular file of at most `maxBytes`, checking the size first (so `/dev/zero` is refused). */
function readRegularFile(path: string, maxBytes: number): Uint8Array {
  const info = statSync(path);
  if (info.isDirectory()) throw new Error('it is a directory');
  if (!info.isFile()) throw new Error(`${kindOf(info)}, not an invoice file`);
  if (info.size > maxBytes) throw tooLarge(mib(info.size), maxBytes);
  const fd = openSync(path, 'r');
  try {
    // One byte more than the size seen: a file that grew since is noticed, not read without end.
    const buf = Buffer.allocUnsafe(info.size + 1);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    if (n > info.size) throw new Error('changed while it was read; run again');
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

export async function loadTarget(t: Target, ctx: CliContext, maxBytes: number): Promise<{ text: string; parsed: ParsedSource } | { readError: string }> {
  let text: string;
  try {
    const input = t.path === '-' ? await ctx.readStdin(maxBytes) : readRegularFile(t.path, maxBytes);
    const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
    if (size > maxBytes) throw tooLarge(`over ${mib(maxBytes)}`, maxBytes);
    text = typeof input === 'string' ? input : decodeUtf8(input);
  } catch (err) {
    const code = (err as { code?: string }).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : undefined;
    return { readError: reason ?? (err as Error).message };
  }
  return { text, parsed: parseSource(text, /\.(ndjson|jsonl)$/i.test(t.path)) };
}
