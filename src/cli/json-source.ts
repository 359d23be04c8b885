// Reading invoice files (one invoice, an array, or NDJSON), with syntax errors located, and paths located in the text.

/** 1-based. */
export interface Position { line: number; column: number; }

/** A syntax error in a file (or in one NDJSON line). */
export interface SyntaxProblem extends Position { message: string; }

export interface SourceInvoice {
  /** Index in a top-level array, or undefined for a single-invoice file or NDJSON. */ index: number | undefined;
  /** 1-based line of an NDJSON record; undefined otherwise. */ line: number | undefined;
  /** Offset in the file where the invoice's text starts (for locating paths). */ offset: number;
  /** The parsed invoice, when the record parsed. */ value?: unknown;
  /** The record's syntax error (NDJSON: one bad line does not hide the others). */ error?: SyntaxProblem;
}

export interface ParsedSource {
  kind: 'single' | 'array' | 'ndjson';
  invoices: SourceInvoice[];
  /** Set when the file as a whole could not be read as JSON. */ error?: SyntaxProblem;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset; pass `starts` to look up many offsets of one text. */
export function positionAt(text: string, offset: number, starts = lineStarts(text)): Position {
  let lo = 0;
  for (let hi = starts.length - 1; lo < hi; ) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
}

function skipWs(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++i);
  return i;
}

class JsonSyntax extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

/** Finds where JSON text goes wrong (Node 20's JSON.parse does not always say where); returns the value's end. */
function scanValue(text: string, i: number, depth: number): number {
  i = skipWs(text, i);
  if (i >= text.length) throw new JsonSyntax('unexpected end of input, a value was expected', i);
  if (depth > 2000) throw new JsonSyntax('nesting too deep', i);
  const c = text[i];
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    i = skipWs(text, i + 1);
    if (text[i] === close) return i + 1;
    for (;;) {
      i = skipWs(text, i);
      if (text[i] === close) throw new JsonSyntax(`trailing comma before "${close}"`, i);
      if (c === '{') {
        if (text[i] !== '"') throw new JsonSyntax(`expected a property name in double quotes, found ${found(text, i)}`, i);
        i = skipWs(text, scanString(text, i));
        if (text[i] !== ':') throw new JsonSyntax(`expected ":" after the property name, found ${found(text, i)}`, i);
        i++;
      }
      i = skipWs(text, scanValue(text, i, depth + 1));
      if (text[i] === close) return i + 1;
      const after = c === '{' ? 'a property value' : 'an array element';
      if (text[i] !== ',') throw new JsonSyntax(`expected "," or "${close}" after ${after}, found ${found(text, i)}`, i);
      i++;
    }
  }
  if (c === '"') return scanString(text, i);
  for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return i + word.length;
  const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
  if (m !== null && m[0].length > 0) return i + m[0].length;
  throw new JsonSyntax(`unexpected ${found(text, i)}`, i);
}

function scanString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c === 92) {
      const e = text[j + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) throw new JsonSyntax('bad \\u escape in a string', j);
        j += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) j++;
      else throw new JsonSyntax('bad escape in a string', j);
    } else if (c < 32) throw new JsonSyntax(c === 10 ? 'unterminated string (a line break inside quotes)' : 'control character in a string', j);
  }
  throw new JsonSyntax('unterminated string', i);
}

function found(text: string, i: number): string {
  if (i >= text.length) return 'the end of the input';
  const ch = text[i] as string;
  return ch === '\n' ? 'a line break' : JSON.stringify(ch);
}

export function findSyntaxError(text: string): SyntaxProblem | undefined {
  try {
    const end = skipWs(text, scanValue(text, 0, 0));
    if (end < text.length) throw new JsonSyntax(`unexpected ${found(text, end)} after the end of the JSON value`, end);
    return undefined;
  } catch (err) {
    if (!(err instanceof JsonSyntax)) return { message: 'invalid JSON', line: 1, column: 1 };
    return { message: err.message, ...positionAt(text, err.offset) };
  }
}

const syntaxProblem = (text: string, err: unknown): SyntaxProblem =>
  findSyntaxError(text) ?? { message: err instanceof Error ? err.message : 'invalid JSON', line: 1, column: 1 };

/** Reads a file's text as invoices; a file whose first line alone is a JSON object or array is NDJSON. */
export function parseSource(text: string, ndjsonHint = false): ParsedSource {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shift = text.length - body.length;
  const start = skipWs(body, 0);
  if (start === body.length) return { kind: 'single', invoices: [], error: { message: 'the file is empty', line: 1, column: 1 } };
  if (!ndjsonHint) {
    try {
      const value: unknown = JSON.parse(body);
      if (Array.isArray(value)) return { kind: 'array', invoices: value.map((v, index) => ({ index, line: undefined, offset: shift, value: v })) };
      return { kind: 'single', invoices: [{ index: undefined, line: undefined, offset: shift + start, value }] };
    } catch (err) {
      const firstBreak = body.indexOf('\n', start);
      const firstLine = firstBreak === -1 ? '' : body.slice(start, firstBreak);
      const ndjson = /^[{[]/.test(firstLine) && findSyntaxError(firstLine) === undefined;
      if (!ndjson) return { kind: 'single', invoices: [], error: syntaxProblem(body, err) };
    }
  }
  return parseNdjson(body, shift);
}

function parseNdjson(body: string, shift: number): ParsedSource {
  const invoices: SourceInvoice[] = [];
  let offset = shift;
  body.split('\n').forEach((raw, i) => {
    const at = { index: undefined, line: i + 1, offset };
    offset += raw.length + 1;
    if (raw.trim() === '') return;
    try {
      invoices.push({ ...at, value: JSON.parse(raw) });
    } catch (err) {
      const { message, column } = syntaxProblem(raw, err);
      invoices.push({ ...at, error: { message, line: i + 1, column } });
    }
  });
  return { kind: 'ndjson', invoices };
}

/** The end of the (valid) JSON value at i; containers without recursion, however deep. */
function skipValue(text: string, i: number): number {
  if (text[i] !== '{' && text[i] !== '[') return scanValue(text, i, 0);
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const k = text.charCodeAt(j);
    if (k === 34) j = scanString(text, j) - 1;
    else if (k === 123 || k === 91) depth++;
    else if ((k === 125 || k === 93) && --depth === 0) return j + 1;
  }
  return text.length;
}

/** The offsets of the elements of the (valid) JSON array at `from`, in one pass; up to element `last` when given. */
export function arrayElementStarts(text: string, from: number, last = Infinity): number[] {
  const starts: number[] = [];
  const open = skipWs(text, from);
  if (text[open] !== '[') return starts;
  let i = skipWs(text, open + 1);
  while (i < text.length && text[i] !== ']' && starts.length <= last) {
    starts.push(i);
    i = skipWs(text, skipValue(text, i));
    if (text[i] === ',') i = skipWs(text, i + 1);
    else break;
  }
  return starts;
}

/** The offset of the value (or key) at `path` from the value at `from`; for a missing path, its deepest part. */
export function locatePath(text: string, path: readonly (string | number)[], from = 0, atKey = false): number {
  let pos = skipWs(text, from);
  for (let p = 0; p < path.length; p++) {
    const seg = path[p];
    let next: number | undefined;
    if (text[pos] === '[' && typeof seg === 'number') next = arrayElementStarts(text, pos, seg)[seg];
    else if (text[pos] === '{' && typeof seg === 'string') {
      for (let i = skipWs(text, pos + 1); text[i] === '"'; ) {
        const keyEnd = scanString(text, i);
        const raw = text.slice(i + 1, keyEnd - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
        const value = skipWs(text, skipWs(text, keyEnd) + 1);
        // A field that should not be there is best shown at its name.
        if (key === seg) {
          next = atKey && p === path.length - 1 ? i : value;
          break;
        }
        i = skipWs(text, skipValue(text, value));
        if (text[i] === ',') i = skipWs(text, i + 1);
      }
    }
    if (next === undefined) return pos;
    pos = next;
  }
  return pos;
}
