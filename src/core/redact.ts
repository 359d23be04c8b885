// Redacts what the SDK renders, never the data it returns. Per secret: the whole secret and the secret without its type
// prefix (up to three `[a-z]{1,8}[_-]` segments) when 5+ characters long, and any run of MIN_PARTIAL_LENGTH+ of its
// characters reaching past the prefix. Overlapping and adjacent matches become one [REDACTED].

/** What replaces a secret wherever it would appear. @example console.log(REDACTED); // '[REDACTED]' */
export const REDACTED = '[REDACTED]';

/** The shortest run of a secret's characters that is redacted on its own. @example new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']).redact('Rq7Zx9Wv'.slice(0, MIN_PARTIAL_LENGTH)); // '[REDACTED]' */
export const MIN_PARTIAL_LENGTH = 8;

/** What stands in for the part of a value nested deeper than 64 levels. @example console.log(TOO_DEEP); // '[Nested too deep]' */
export const TOO_DEEP = '[Nested too deep]';

// Shorter pieces (the `1` of `sess_1`) occur everywhere by chance and say nothing of a secret.
const MIN_SECRET_LENGTH = 5;
// Every MIN_PARTIAL_LENGTH run holds a BLOCK-aligned block: the scan looks up one block in BLOCK.
const BLOCK = 4;
const MAX_REDACT_DEPTH = 64;
const MAX_CAUSE_DEPTH = 4;
const MAX_ADDED_SECRETS = 256;
const CREDENTIAL_SHAPE = /\b(Bearer|ApiKey)\s+[A-Za-z0-9._~+/=-]{6,}/g;
const TYPE_PREFIX = /^(?:[a-z]{1,8}[_-]){1,3}/;

/** The ends of the type prefix's segments. */
function prefixEnds(secret: string): number[] {
  const prefix = TYPE_PREFIX.exec(secret)?.[0] ?? '';
  if (prefix.length >= secret.length) return [];
  const ends: number[] = [];
  for (let i = 0; i < prefix.length; i += 1) if (prefix[i] === '_' || prefix[i] === '-') ends.push(i + 1);
  return ends;
}

function pair(text: string, at: number): number {
  return ((text.charCodeAt(at) << 7) ^ text.charCodeAt(at + 1)) & 0xffff;
}

/** A window of MIN_PARTIAL_LENGTH characters that reaches past a secret's prefix. */
interface Window {
  secret: number;
  at: number;
  /** Where the window starts inside a prefix: the secrets and offsets to extend it left over. */
  straddles: Array<[secret: number, at: number]>;
}

class Matcher {
  readonly #secrets: readonly string[];
  readonly #windows = new Map<string, Window>();
  readonly #blocks = new Set<string>();
  /** The first two characters of every block (exact for ASCII): most text is passed over on this alone. */
  readonly #pairs = new Uint8Array(65_536);
  readonly #short: string[] = [];
  /** Per secret, the offsets whose window has straddles (checked while a run is extended). */
  readonly #straddling: Uint8Array[];

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
    secrets.forEach((secret, index) => {
      const ends = prefixEnds(secret);
      const bodyFrom = ends.at(-1) ?? 0;
      for (const piece of [secret, ...ends.map((end) => secret.slice(end))]) {
        if (piece.length >= MIN_SECRET_LENGTH && piece.length < MIN_PARTIAL_LENGTH && !this.#short.includes(piece)) this.#short.push(piece);
      }
      for (let at = Math.max(0, bodyFrom - MIN_PARTIAL_LENGTH + 1); at + MIN_PARTIAL_LENGTH <= secret.length; at += 1) {
        const text = secret.slice(at, at + MIN_PARTIAL_LENGTH);
        let window = this.#windows.get(text);
        if (window === undefined) this.#windows.set(text, (window = { secret: index, at, straddles: [] }));
        if (at < bodyFrom && at > 0) window.straddles.push([index, at]);
        for (let b = 0; b + BLOCK <= MIN_PARTIAL_LENGTH; b += 1) {
          this.#blocks.add(text.slice(b, b + BLOCK));
          this.#pairs[pair(text, b)] = 1;
        }
      }
    });
    this.#straddling = secrets.map((secret) => {
      const flags = new Uint8Array(secret.length);
      for (let at = 0; at + MIN_PARTIAL_LENGTH <= secret.length; at += 1) {
        if ((this.#windows.get(secret.slice(at, at + MIN_PARTIAL_LENGTH))?.straddles.length ?? 0) > 0) flags[at] = 1;
      }
      return flags;
    });
  }

  /** Where a match of `window` at `j` starts once extended left over the prefixes it straddles. */
  #left(text: string, window: Window, j: number): number {
    let start = j;
    for (const [index, at] of window.straddles) {
      const secret = this.#secrets[index]!;
      let k = 0;
      while (k < at && j - k > 0 && text[j - k - 1] === secret[at - k - 1]) k += 1;
      start = Math.min(start, j - k);
    }
    return start;
  }

  /** The spans of `text` to redact, as [start, end) pairs, unsorted and possibly overlapping. */
  spans(text: string): number[] {
    const out: number[] = [];
    const n = text.length;
    const pairs = this.#pairs;
    const blocks = this.#blocks;
    const windows = this.#windows;
    let from = 0; // windows starting before this are checked (or inside a span) already
    for (let i = 0; i + BLOCK <= n; i += BLOCK) {
      if (pairs[((text.charCodeAt(i) << 7) ^ text.charCodeAt(i + 1)) & 0xffff] === 0 || !blocks.has(text.slice(i, i + BLOCK))) continue;
      for (let j = Math.max(from, i - BLOCK); j <= i && j + MIN_PARTIAL_LENGTH <= n; j += 1) {
        const window = windows.get(text.slice(j, j + MIN_PARTIAL_LENGTH));
        if (window === undefined) continue;
        // Every window inside a longer run of the same secret matches too: extend, and skip them.
        const secret = this.#secrets[window.secret]!;
        const straddling = this.#straddling[window.secret]!;
        let start = this.#left(text, window, j);
        let end = j + MIN_PARTIAL_LENGTH;
        for (let m = window.at + MIN_PARTIAL_LENGTH; end < n && m < secret.length && text[end] === secret[m]; m += 1) {
          end += 1;
          if (straddling[m - MIN_PARTIAL_LENGTH + 1]) {
            const at = end - MIN_PARTIAL_LENGTH;
            start = Math.min(start, this.#left(text, this.#windows.get(text.slice(at, end))!, at));
          }
        }
        out.push(start, end);
        from = end - MIN_PARTIAL_LENGTH + 1;
        j = from - 1;
      }
      from = Math.max(from, i + 1);
      if (from > i + BLOCK) i = Math.ceil(from / BLOCK) * BLOCK - BLOCK;
    }
    for (const piece of this.#short) {
      for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) out.push(at, at + piece.length);
    }
    return out;
  }
}

/** `text` with `spans` (unsorted [start, end) pairs) replaced, overlapping and touching ones as one. */
function replaceSpans(text: string, spans: number[]): string {
  const order = Array.from({ length: spans.length / 2 }, (_, i) => 2 * i).sort((a, b) => spans[a]! - spans[b]!);
  const parts: string[] = [];
  let copied = 0;
  let start = -1;
  let end = -1;
  for (const i of order) {
    if (start !== -1 && spans[i]! <= end) {
      end = Math.max(end, spans[i + 1]!);
      continue;
    }
    if (start !== -1) parts.push(text.slice(copied, start), REDACTED);
    if (start !== -1) copied = end;
    start = spans[i]!;
    end = spans[i + 1]!;
  }
  parts.push(text.slice(copied, start), REDACTED, text.slice(end));
  return parts.join('');
}

/**
 * One client's redaction, built from its secrets, held in private fields only.
 * @example
 * ```ts
 * new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']).redact('key sk_live_Rq7Zx9Wv2Lp8Nd5R'); // 'key [REDACTED]'
 * ```
 */
export class Redactor {
  readonly #own: string[] = [];
  #added: string[] = [];
  #matcher: Matcher | undefined;

  /** @param secrets The secrets to redact; `undefined` and empty strings are skipped. */
  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) if (typeof secret === 'string' && secret !== '' && !this.#own.includes(secret)) this.#own.push(secret);
  }

  /** Adds a secret received later; of those added, the most recent 256 are kept. */
  add(secret: string | undefined): void {
    if (typeof secret !== 'string' || secret === '' || this.#own.includes(secret) || this.#added.at(-1) === secret) return;
    this.#added = this.#added.filter((s) => s !== secret);
    this.#added.push(secret);
    if (this.#added.length > MAX_ADDED_SECRETS) this.#added.shift();
    this.#matcher = undefined;
  }

  /** How many secrets it redacts. */
  get size(): number {
    return this.#own.length + this.#added.length;
  }

  /** `text` with every occurrence of a secret and every `Bearer …`/`ApiKey …` credential replaced. */
  redact(text: string): string {
    if (typeof text !== 'string') text = String(text);
    let out = text;
    if (this.size > 0) {
      this.#matcher ??= new Matcher([...this.#own, ...this.#added]);
      const spans = this.#matcher.spans(text);
      if (spans.length > 0) out = replaceSpans(text, spans);
    }
    return out.includes('Bearer') || out.includes('ApiKey') ? out.replace(CREDENTIAL_SHAPE, `$1 ${REDACTED}`) : out;
  }

  /** A copy of plain data with every string and key scrubbed (class instances kept as they are). Cycles become `'[Circular]'`, depth past 64 {@link TOO_DEEP}, a throwing getter `'[Unreadable]'`. */
  redactDeep<T>(value: T): T {
    return this.#deep(value, new WeakSet(), 0) as T;
  }

  #deep(value: unknown, seen: WeakSet<object>, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    try {
      if (seen.has(value)) return '[Circular]';
      if (depth >= MAX_REDACT_DEPTH) return TOO_DEEP;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
      seen.add(value);
      let out: unknown;
      if (Array.isArray(value)) out = value.map((item: unknown) => this.#deep(item, seen, depth + 1));
      else {
        const copy: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(value)) {
          // Defined, not assigned: `copy['__proto__'] = x` would set the copy's prototype.
          Object.defineProperty(copy, this.redact(key), { value: this.#deep(item, seen, depth + 1), enumerable: true, writable: true, configurable: true });
        }
        out = copy;
      }
      seen.delete(value);
      return out;
    } catch {
      return '[Unreadable]';
    }
  }

  /** A scrubbed copy of a thrown value for an error's `cause`; object fields are left out (they may hold the key). */
  redactCause(cause: unknown): unknown {
    return this.#cause(cause, 0);
  }

  #cause(cause: unknown, depth: number): unknown {
    if (typeof cause === 'string') return this.redact(cause);
    if (cause === null || (typeof cause !== 'object' && typeof cause !== 'function')) return cause;
    try {
      const from = cause as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
      const copy = new Error(
        this.redact(String(from.message ?? '')),
        from.cause === undefined || depth >= MAX_CAUSE_DEPTH ? undefined : { cause: this.#cause(from.cause, depth + 1) },
      ) as Error & Record<string, unknown>;
      for (const [key, value] of Object.entries(cause)) {
        if (typeof value !== 'object' && typeof value !== 'function' && key !== '__proto__') copy[this.redact(key)] = this.#cause(value, depth);
      }
      Object.defineProperty(copy, 'name', { value: this.redact(String(from.name ?? 'Error')), writable: true, configurable: true });
      if (typeof from.stack === 'string') copy.stack = this.redact(from.stack);
      return copy;
    } catch {
      return new Error('(unreadable error)');
    }
  }
}
