// Redacts what the SDK renders, never the data it returns: per secret, the whole secret, the secret without its type
// prefix (`[a-z]{1,8}[_-]`, up to three) when 5+ characters long, and any MIN_PARTIAL_LENGTH+ run past the prefix.

export const REDACTED = '[REDACTED]';

export const MIN_PARTIAL_LENGTH = 8;

export const TOO_DEEP = '[Nested too deep]';

// Shorter pieces (the `1` of `sess_1`) occur everywhere by chance and say nothing of a secret.
const MIN_SECRET_LENGTH = 5;
// Every run of MIN_PARTIAL_LENGTH characters holds a BLOCK-aligned block: the scan looks up one block in four positions.
const BLOCK = 4;
const MAX_REDACT_DEPTH = 64;
const MAX_CAUSE_DEPTH = 4;
const MAX_ADDED_SECRETS = 256;
const CREDENTIAL_SHAPE = /\b(Bearer|ApiKey)\s+[A-Za-z0-9._~+/=-]{6,}/g;
const TYPE_PREFIX = /^(?:[a-z]{1,8}[_-]){1,3}/;

// Finds those spans: each window of a secret, extended both ways while the text still matches that secret.
class Matcher {
  readonly #secrets: readonly string[];
  /** Window text → every (secret, offset) it stands for. */ readonly #windows = new Map<string, Array<[secret: number, at: number]>>();
  readonly #blocks = new Set<string>();
  /** The first two characters of every block (exact for ASCII): most text is passed over on this alone. */
  readonly #pairs = new Uint8Array(65_536);
  readonly #short: string[] = [];
  /** Per secret and offset: 1 where the window there also stands for another (secret, offset). */ readonly #shared: Uint8Array[];

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
    secrets.forEach((secret, index) => {
      const prefix = TYPE_PREFIX.exec(secret)?.[0] ?? '';
      const ends: number[] = [];
      if (prefix.length < secret.length) for (let i = 0; i < prefix.length; i += 1) if ('_-'.includes(prefix[i]!)) ends.push(i + 1);
      for (const piece of [secret, ...ends.map((end) => secret.slice(end))]) {
        if (piece.length >= MIN_SECRET_LENGTH && piece.length < MIN_PARTIAL_LENGTH && !this.#short.includes(piece)) this.#short.push(piece);
      }
      for (let at = Math.max(0, (ends.at(-1) ?? 0) - MIN_PARTIAL_LENGTH + 1); at + MIN_PARTIAL_LENGTH <= secret.length; at += 1) {
        const text = secret.slice(at, at + MIN_PARTIAL_LENGTH);
        const hits = this.#windows.get(text);
        if (hits === undefined) this.#windows.set(text, [[index, at]]);
        else hits.push([index, at]);
        for (let b = 0; b + BLOCK <= MIN_PARTIAL_LENGTH; b += 1) {
          this.#blocks.add(text.slice(b, b + BLOCK));
          this.#pairs[pair(text, b)] = 1;
        }
      }
    });
    this.#shared = secrets.map((secret) => {
      const flags = new Uint8Array(secret.length);
      for (let at = 0; at + MIN_PARTIAL_LENGTH <= secret.length; at += 1) {
        if ((this.#windows.get(secret.slice(at, at + MIN_PARTIAL_LENGTH))?.length ?? 0) > 1) flags[at] = 1;
      }
      return flags;
    });
  }

  /** Marks in `covered` (allocated on the first match) what to redact; returns it, or `undefined` when nothing matched. */
  cover(text: string): Uint8Array | undefined {
    const n = text.length;
    let covered: Uint8Array | undefined;
    // Per (secret, alignment), where the last run found ends: a window starting before it lies inside that run.
    let reach: Map<number, number> | undefined; // allocated on the first hit
    let from = 0; // windows starting before this are checked, or add nothing
    for (let i = 0; i + BLOCK <= n; i += BLOCK) {
      if (this.#pairs[pair(text, i)] === 0 || !this.#blocks.has(text.slice(i, i + BLOCK))) continue;
      for (let j = Math.max(from, i - BLOCK); j <= i && j + MIN_PARTIAL_LENGTH <= n; j += 1) {
        const hits = this.#windows.get(text.slice(j, j + MIN_PARTIAL_LENGTH));
        if (hits === undefined) continue;
        for (const [index, at] of hits) {
          const key = (j - at) * this.#secrets.length + index;
          if (j < (reach?.get(key) ?? 0)) continue;
          const secret = this.#secrets[index]!;
          let start = j;
          for (let k = at; k > 0 && start > 0 && text[start - 1] === secret[k - 1]; k -= 1) start -= 1;
          let end = j + MIN_PARTIAL_LENGTH;
          for (let m = at + MIN_PARTIAL_LENGTH; end < n && m < secret.length && text[end] === secret[m]; m += 1) end += 1;
          (reach ??= new Map()).set(key, end);
          (covered ??= new Uint8Array(n)).fill(1, start, end);
          if (hits.length > 1) continue;
          // The windows inside this run stand for this alignment alone, up to one shared with another: skip them.
          let next = j + 1;
          while (next + MIN_PARTIAL_LENGTH <= end && this.#shared[index]![at + next - j] === 0) next += 1;
          from = next;
          j = next - 1;
        }
      }
      from = Math.max(from, i + 1);
      if (from > i + BLOCK) i = Math.ceil(from / BLOCK) * BLOCK - BLOCK;
    }
    for (const piece of this.#short) {
      for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) (covered ??= new Uint8Array(n)).fill(1, at, at + piece.length);
    }
    return covered;
  }
}

const pair = (text: string, at: number): number => ((text.charCodeAt(at) << 7) ^ text.charCodeAt(at + 1)) & 0xffff;

/** One client's redaction, built from its secrets, held in private fields only. */
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

  get size(): number {
    return this.#own.length + this.#added.length;
  }

  /** `text` with every occurrence of a secret and every `Bearer …`/`ApiKey …` credential replaced; touching spans become one. */
  redact(text: string): string {
    let out = text;
    const covered = this.size > 0 ? (this.#matcher ??= new Matcher([...this.#own, ...this.#added])).cover(text) : undefined;
    if (covered !== undefined) {
      out = '';
      let at = 0;
      for (let start = covered.indexOf(1); start !== -1; start = covered.indexOf(1, at)) {
        const end = covered.indexOf(0, start);
        out += text.slice(at, start) + REDACTED;
        at = end === -1 ? text.length : end;
      }
      out += text.slice(at);
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
  redactCause(cause: unknown, depth = 0): unknown {
    if (typeof cause === 'string') return this.redact(cause);
    if (cause === null || (typeof cause !== 'object' && typeof cause !== 'function')) return cause;
    try {
      const from = cause as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
      const copy = new Error(
        this.redact(String(from.message ?? '')),
        from.cause === undefined || depth >= MAX_CAUSE_DEPTH ? undefined : { cause: this.redactCause(from.cause, depth + 1) },
      ) as Error & Record<string, unknown>;
      for (const [key, value] of Object.entries(cause)) {
        if (typeof value === 'object' || typeof value === 'function' || key === '__proto__') continue;
        copy[this.redact(key)] = this.redactCause(value, depth);
      }
      Object.defineProperty(copy, 'name', { value: this.redact(String(from.name ?? 'Error')), writable: true, configurable: true });
      if (typeof from.stack === 'string') copy.stack = this.redact(from.stack);
      return copy;
    } catch {
      return new Error('(unreadable error)');
    }
  }
}

// `util.inspect` support without importing node:util, installed by a constructor so bundlers can drop the class.
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export function defineInspect(proto: object, inspect: (this: never, ...args: never[]) => string): void {
  if (!Object.hasOwn(proto, INSPECT)) Object.defineProperty(proto, INSPECT, { value: inspect, writable: true, configurable: true });
}
