// Command-line arguments to files to read: paths, directories, quoted globs, and `-` for stdin.
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { wholeNumber, type CliContext } from './context.js';
import { parseSource, type ParsedSource } from './json-source.js';
import { expandGlob, isGlob, listInvoiceFiles } from './glob.js';

/** One file to read. */
export interface Target {
  /** Absolute path, or '-' for standard input. */ path: string;
  display: string;
}

/** Expands arguments to files, sorted and deduplicated; a missing path stays a target (reported unreadable). */
export async function resolveTargets(inputs: string[], cwd: string, unmatched: string[]): Promise<Target[]> {
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
  const display = (abs: string): string => {
    // Fast path: path.relative is slow on many files.
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
  // A path's display depends on the path alone: keeping the last of duplicates changes nothing.
  return [...new Map(lists.flat().map((t) => [t.path, t])).values()];
}

/** `--max-file-size` in MiB (default 10), as bytes. */
export function maxFileBytes(value: unknown): number {
  return (wholeNumber('max-file-size', value, 1) ?? 10) * 1024 * 1024;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function kindOf(info: Stats): string {
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function mib(bytes: number): string {
  return `${Math.ceil((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

function tooLarge(size: string, limit: number): Error {
  return new Error(
    `larger than the ${mib(limit)} limit (${size}); raise it with --max-file-size <MiB> if the file is meant to be this big`,
  );
}

/** Decodes UTF-8 strictly: a Latin-1 or binary file is an error, never mojibake sent to the service. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    throw new Error(
      `not UTF-8 text (invalid byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at}); ` +
        'save it as UTF-8 (a Latin-1 file: iconv -f latin1 -t utf-8)',
    );
  }
}

/** Where UTF-8 decoding of `bytes` first fails, to point the user at it. */
function firstInvalidByte(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  // Each U+FFFD before the fault stands for itself (EF BF BD), so the text before it has the bytes' length.
  for (let k = text.indexOf('\uFFFD'); k !== -1; k = text.indexOf('\uFFFD', k + 1)) {
    const at = Buffer.byteLength(text.slice(0, k));
    if (bytes[at] !== 0xef || bytes[at + 1] !== 0xbf || bytes[at + 2] !== 0xbd) return at;
  }
  return bytes.length;
}

/** Reads a regular file of at most `maxBytes`, checking the size first (so `/dev/zero` is refused). */
function readRegularFile(path: string, maxBytes: number): Uint8Array {
  // Synchronous: faster than fs.promises for small files.
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

/** A target (stdin for `-`) read, UTF-8 only and at most `maxBytes`, and parsed as invoices; or why it could not be read. */
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
