/**
 * Secret redaction. Headers are redacted where they are built (see `headers.ts`); this module is the
 * second line of defence: each client owns a {@link Redactor} built from its secrets (API key,
 * session token, keys it creates or reveals), and every error message, error body, log line, CLI
 * line and record `raw` it produces is scrubbed with it. A server that echoes the key back ("invalid
 * key sk_live_…"), without its prefix, or in part, therefore cannot make the SDK print it.
 *
 * What is redacted, for each secret:
 * - the whole secret, whatever its length (a key of one character included);
 * - the secret without its type prefix: the prefix is the leading run of up to three segments of
 *   1–8 lower-case letters each ended by `_` or `-` (`sk_live_`, `pk-test-`, `sess_`); the part
 *   after each of those segments counts as the key "without its prefix";
 * - any run of at least {@link MIN_PARTIAL_LENGTH} consecutive characters of the secret that
 *   reaches past its prefix (the prefix alone, `sk_live_`, is not secret and stays readable).
 * Overlapping and adjacent matches (of one secret or several) become one `[REDACTED]`.
 *
 * How: the secrets are compiled once, per client, into a suffix automaton (every substring of every
 * secret is a path from its root). `redact()` walks the text once through it, knowing at each
 * character the longest piece of a secret that ends there, so its cost is linear in the text and
 * independent of how many secrets or how many copies of them the text holds.
 */

/**
 * What replaces a secret wherever it would appear.
 *
 * @example
 * ```ts
 * import { REDACTED } from 'invoicing-sdk';
 * console.log(REDACTED); // '[REDACTED]'
 * ```
 */
export const REDACTED = '[REDACTED]';

/**
 * The shortest run of a secret's characters that is redacted on its own (a secret shorter than this
 * is redacted where it appears whole). Eight characters of a random base-62 key carry 47 bits: no
 * ordinary text repeats them by chance, and fewer than that say little about the rest of the key.
 *
 * @example
 * ```ts
 * import { MIN_PARTIAL_LENGTH, Redactor } from 'invoicing-sdk';
 * const r = new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']);
 * r.redact('Rq7Zx9Wv'.slice(0, MIN_PARTIAL_LENGTH)); // '[REDACTED]'
 * ```
 */
export const MIN_PARTIAL_LENGTH = 8;

/**
 * What stands in for the part of a value nested deeper than 64 levels.
 *
 * @example
 * ```ts
 * import { Redactor, TOO_DEEP } from 'invoicing-sdk';
 * let deep: unknown = 'x';
 * for (let i = 0; i < 100; i += 1) deep = [deep];
 * JSON.stringify(new Redactor([]).redactDeep(deep)).includes(TOO_DEEP); // true
 * ```
 */
export const TOO_DEEP = '[Nested too deep]';

// No real response body comes near this; a broken or hostile one nested thousands of levels deep
// must not exhaust the stack while an error is being built.
const MAX_REDACT_DEPTH = 64;
// Deep enough for undici's "fetch failed" → socket error → AggregateError chain.
const MAX_CAUSE_DEPTH = 4;
// Keys a client creates or reveals over its life are added to its redactor; a client that mints
// keys by the thousand keeps the most recent ones (its own credentials are never dropped).
const MAX_ADDED_SECRETS = 256;
// Credentials in a shape recognisable even when the SDK was never told the value.
const CREDENTIAL_SHAPE = /\b(Bearer|ApiKey)\s+[A-Za-z0-9._~+/=-]{6,}/g;
// A type prefix: up to three segments of lower-case letters, each ended by `_` or `-`.
const TYPE_PREFIX = /^(?:[a-z]{1,8}[_-]){1,3}/;
const SEGMENT = /[a-z]{1,8}[_-]/g;

/** The lengths of the type prefix's segment ends: `sk_live_x` gives [3, 8]. */
function prefixEnds(secret: string): number[] {
  const prefix = TYPE_PREFIX.exec(secret)?.[0] ?? '';
  if (prefix.length >= secret.length) return [];
  const ends: number[] = [];
  let at = 0;
  for (const segment of prefix.match(SEGMENT) ?? []) {
    at += segment.length;
    ends.push(at);
  }
  return ends;
}

/**
 * The compiled form of a set of secrets: a generalised suffix automaton over them, plus, per state,
 * what a match ending in that state may redact. Holds numbers only, never a secret as a string.
 */
class Matcher {
  // Transitions, compressed: state s's edges are codes[edgeStart[s] .. edgeStart[s + 1]) with
  // targets in `targets` (most states have one or two); the root's ASCII edges are also a table.
  private readonly edgeStart: Int32Array;
  private readonly codes: Uint16Array;
  private readonly targets: Int32Array;
  private readonly rootAscii: Int32Array;
  private readonly len: Int32Array;
  private readonly link: Int32Array;
  /** Whether the state's strings occur somewhere past a type prefix (so a long run of them is secret). */
  private readonly touch: Uint8Array;
  /** Length of the nearest proper suffix-link ancestor that touches a secret's body (0: none). */
  private readonly bodyAncestor: Int32Array;
  /** Longest whole short pattern among the proper ancestors. */
  private readonly wholeAncestor: Int32Array;
  /** Whole short patterns (shorter than MIN_PARTIAL_LENGTH) that end exactly in a state, longest first. */
  private readonly ownWhole = new Map<number, number[]>();
  /** Number of states (the root included). */
  readonly size: number;

  constructor(secrets: readonly string[]) {
    // Built with growable arrays, then frozen into typed arrays.
    const len: number[] = [0];
    const link: number[] = [-1];
    const body: number[] = [0];
    const edges: Map<number, number>[] = [new Map()];
    const add = (length: number, copyOf?: number): number => {
      len.push(length);
      link.push(copyOf === undefined ? -1 : link[copyOf]!);
      body.push(0);
      edges.push(copyOf === undefined ? new Map() : new Map(edges[copyOf]));
      return len.length - 1;
    };
    const extend = (last: number, c: number): number => {
      const existing = edges[last]!.get(c);
      if (existing !== undefined) {
        if (len[last]! + 1 === len[existing]) return existing;
        const clone = add(len[last]! + 1, existing);
        for (let p = last; p !== -1 && edges[p]!.get(c) === existing; p = link[p]!) edges[p]!.set(c, clone);
        link[existing] = clone;
        return clone;
      }
      const cur = add(len[last]! + 1);
      let p = last;
      while (p !== -1 && !edges[p]!.has(c)) {
        edges[p]!.set(c, cur);
        p = link[p]!;
      }
      if (p === -1) link[cur] = 0;
      else {
        const q = edges[p]!.get(c)!;
        if (len[p]! + 1 === len[q]) link[cur] = q;
        else {
          const clone = add(len[p]! + 1, q);
          for (; p !== -1 && edges[p]!.get(c) === q; p = link[p]!) edges[p]!.set(c, clone);
          link[q] = clone;
          link[cur] = clone;
        }
      }
      return cur;
    };

    const whole: string[] = [];
    for (const secret of secrets) {
      const ends = prefixEnds(secret);
      const bodyFrom = ends.at(-1) ?? 0;
      let state = 0;
      for (let i = 0; i < secret.length; i += 1) {
        state = extend(state, secret.charCodeAt(i));
        if (i >= bodyFrom) body[state] = 1;
      }
      // Short pieces are redacted only where they appear whole: the secret itself, and the secret
      // without each of its prefix segments (a longer one is covered by the partial-run rule).
      for (const piece of [secret, ...ends.map((end) => secret.slice(end))]) {
        if (piece.length > 0 && piece.length < MIN_PARTIAL_LENGTH) whole.push(piece);
      }
    }

    const size = len.length;
    this.size = size;
    this.len = Int32Array.from(len);
    this.link = Int32Array.from(link);
    this.touch = Uint8Array.from(body);
    this.bodyAncestor = new Int32Array(size);
    this.wholeAncestor = new Int32Array(size);
    this.edgeStart = new Int32Array(size + 1);
    for (let s = 0; s < size; s += 1) this.edgeStart[s + 1] = this.edgeStart[s]! + edges[s]!.size;
    this.codes = new Uint16Array(this.edgeStart[size]!);
    this.targets = new Int32Array(this.edgeStart[size]!);
    for (let s = 0, e = 0; s < size; s += 1) {
      for (const [c, to] of edges[s]!) {
        this.codes[e] = c;
        this.targets[e] = to;
        e += 1;
      }
    }
    this.rootAscii = new Int32Array(128).fill(-1);
    for (const [c, to] of edges[0]!) if (c < 128) this.rootAscii[c] = to;

    for (const piece of whole) {
      let state = 0;
      for (let i = 0; i < piece.length; i += 1) state = this.step(state, piece.charCodeAt(i));
      const own = this.ownWhole.get(state) ?? [];
      if (!own.includes(piece.length)) own.push(piece.length);
      own.sort((a, b) => b - a);
      this.ownWhole.set(state, own);
    }

    // States by length (counting sort): a suffix link always points to a shorter state.
    const byLength = new Int32Array(size);
    const counts = new Int32Array(size + 1);
    for (let s = 0; s < size; s += 1) counts[this.len[s]!]! += 1;
    for (let i = 1; i <= size; i += 1) counts[i]! += counts[i - 1]!;
    for (let s = size - 1; s >= 0; s -= 1) byLength[--counts[this.len[s]!]!] = s;
    // A state's occurrences include its descendants' (in the suffix-link tree): push `touch` up.
    for (let i = size - 1; i > 0; i -= 1) {
      const s = byLength[i]!;
      if (this.touch[s]) this.touch[this.link[s]!] = 1;
    }
    for (let i = 1; i < size; i += 1) {
      const s = byLength[i]!;
      const up = this.link[s]!;
      this.bodyAncestor[s] = up > 0 && this.touch[up] ? this.len[up]! : this.bodyAncestor[up]!;
      this.wholeAncestor[s] = Math.max(this.wholeAncestor[up]!, this.ownWhole.get(up)?.[0] ?? 0);
    }
  }

  /** The state reached from `state` by code unit `c`, or -1. */
  private step(state: number, c: number): number {
    if (state === 0 && c < 128) return this.rootAscii[c]!;
    const { codes } = this;
    for (let e = this.edgeStart[state]!, end = this.edgeStart[state + 1]!; e < end; e += 1) if (codes[e] === c) return this.targets[e]!;
    return -1;
  }

  /**
   * The spans of `text` to redact, as [start, end) pairs, sorted and merged (overlapping or
   * touching spans become one). One pass over the text; each step follows at most as many suffix
   * links as it advanced before, so the whole walk is linear.
   */
  spans(text: string): number[] {
    const { len, link, touch, bodyAncestor, wholeAncestor, ownWhole } = this;
    const hasWhole = ownWhole.size > 0;
    const out: number[] = [];
    let state = 0;
    let length = 0;
    for (let j = 0; j < text.length; j += 1) {
      const c = text.charCodeAt(j);
      let to = this.step(state, c);
      while (to === -1 && state !== 0) {
        state = link[state]!;
        length = len[state]!;
        to = this.step(state, c);
      }
      if (to === -1) {
        length = 0;
        continue;
      }
      state = to;
      length += 1;
      let match = 0;
      if (length >= MIN_PARTIAL_LENGTH) {
        match = touch[state] ? length : bodyAncestor[state]!;
        if (match < MIN_PARTIAL_LENGTH) match = 0;
      }
      if (hasWhole && match < length) {
        match = Math.max(match, wholeAncestor[state]!);
        const own = ownWhole.get(state);
        if (own !== undefined) for (const n of own) if (n <= length) { match = Math.max(match, n); break; }
      }
      if (match === 0) continue;
      // Merge with the spans this one reaches back over (each span is popped at most once).
      let start = j + 1 - match;
      const last = out.length - 1;
      if (last > 0 && out[last]! >= start && out[last - 1]! <= start) {
        out[last] = j + 1; // the common case: a match growing the span before it
        continue;
      }
      while (out.length > 0 && out[out.length - 1]! >= start) {
        start = Math.min(start, out[out.length - 2]!);
        out.length -= 2;
      }
      out.push(start, j + 1);
    }
    return out;
  }
}

const EMPTY: readonly string[] = [];

/**
 * One client's redaction: built from its secrets (API key, session token), it scrubs text, nested
 * values and thrown causes of them. Each client owns one and hands it to its transport, logger and
 * resources, so nothing about it is global: a client that goes away takes its redactor with it.
 * Holds its secrets in private fields only (never shown by `util.inspect` or `JSON.stringify`).
 *
 * What counts as a secret's occurrence: the whole secret (any length), the secret without its type
 * prefix (`sk_live_`, `sess_`, …), and any run of {@link MIN_PARTIAL_LENGTH} or more of its
 * characters that reaches past the prefix. Cost: linear in the text, whatever it holds.
 *
 * @example
 * ```ts
 * import { Redactor } from 'invoicing-sdk';
 * const redactor = new Redactor([process.env.INVOICING_API_KEY, process.env.INVOICING_SESSION_TOKEN]);
 * redactor.redact('invalid key sk_live_Rq7Zx9Wv2Lp8Nd5R'); // 'invalid key [REDACTED]'
 * redactor.redact('invalid key Rq7Zx9Wv2Lp8'); // 'invalid key [REDACTED]' (part of it, no prefix)
 * ```
 */
export class Redactor {
  readonly #own: string[];
  #added: string[] = [];
  #matcher: Matcher | undefined;

  /**
   * @param secrets The secrets to redact; `undefined` and empty strings are skipped.
   */
  constructor(secrets: Iterable<string | undefined> = EMPTY) {
    this.#own = [];
    for (const secret of secrets) if (typeof secret === 'string' && secret !== '' && !this.#own.includes(secret)) this.#own.push(secret);
  }

  /**
   * Adds a secret received later (a key created or revealed). The client's own secrets are kept
   * for its life; of those added, the most recent 256 are.
   *
   * @example
   * ```ts
   * const redactor = new Redactor(['sk_live_own_key_123456']);
   * redactor.add('sk_live_new_key_987654');
   * redactor.redact('new sk_live_new_key_987654'); // 'new [REDACTED]'
   * ```
   */
  add(secret: string | undefined): void {
    if (typeof secret !== 'string' || secret === '' || this.#own.includes(secret)) return;
    const at = this.#added.indexOf(secret);
    if (at !== -1 && at === this.#added.length - 1) return;
    if (at !== -1) this.#added.splice(at, 1);
    this.#added.push(secret);
    if (this.#added.length > MAX_ADDED_SECRETS) this.#added.shift();
    this.#matcher = undefined;
  }

  /**
   * How many secrets it redacts.
   *
   * @example
   * ```ts
   * new Redactor(['sk_live_abc', undefined]).size; // 1
   * ```
   */
  get size(): number {
    return this.#own.length + this.#added.length;
  }

  /**
   * `text` with every occurrence of a secret (whole, without its prefix, or a long enough part)
   * and every `Bearer …`/`ApiKey …` credential replaced by {@link REDACTED}. Linear in `text`.
   *
   * @example
   * ```ts
   * const redactor = new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']);
   * redactor.redact('key sk_live_Rq7Zx9Wv2Lp8Nd5R, again Wv2Lp8Nd5R'); // 'key [REDACTED], again [REDACTED]'
   * redactor.redact('keys look like sk_live_…'); // unchanged: the prefix alone is not secret
   * ```
   */
  redact(text: string): string {
    // A JavaScript caller (or a server's `code: 42`) can hand over a non-string: shown as text.
    if (typeof text !== 'string') text = String(text);
    let out = text;
    if (this.size > 0) {
      this.#matcher ??= new Matcher([...this.#own, ...this.#added]);
      const spans = this.#matcher.spans(text);
      if (spans.length > 0) {
        const parts: string[] = [];
        let copied = 0;
        for (let i = 0; i < spans.length; i += 2) {
          parts.push(text.slice(copied, spans[i]), REDACTED);
          copied = spans[i + 1]!;
        }
        parts.push(text.slice(copied));
        out = parts.join('');
      }
    }
    return out.includes('Bearer') || out.includes('ApiKey') ? out.replace(CREDENTIAL_SHAPE, `$1 ${REDACTED}`) : out;
  }

  /**
   * A copy of `value` with every string (and every object key) scrubbed by {@link Redactor.redact}.
   * Plain objects and arrays are copied, never changed; anything else (class instances, functions)
   * is kept as it is. A key named `__proto__` stays an ordinary own property (never a prototype).
   * Cycles become `'[Circular]'`, anything nested deeper than 64 levels {@link TOO_DEEP}, and a
   * getter or proxy that throws `'[Unreadable]'`.
   *
   * @example
   * ```ts
   * const redactor = new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']);
   * redactor.redactDeep({ errors: [{ message: 'bad key sk_live_Rq7Zx9Wv2Lp8Nd5R' }] });
   * // { errors: [{ message: 'bad key [REDACTED]' }] }
   * ```
   */
  redactDeep<T>(value: T): T {
    return this.#deep(value, new WeakSet(), 0) as T;
  }

  #deep(value: unknown, seen: WeakSet<object>, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    try {
      if (seen.has(value)) return '[Circular]';
      if (depth >= MAX_REDACT_DEPTH) return TOO_DEEP;
      if (Array.isArray(value)) {
        seen.add(value);
        const copy = value.map((item: unknown) => this.#deep(item, seen, depth + 1));
        seen.delete(value);
        return copy;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return value;
      seen.add(value);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const name = this.redact(key);
        const copy = this.#deep(item, seen, depth + 1);
        // `out['__proto__'] = x` would set the copy's prototype: that key is defined, not assigned.
        if (name === '__proto__') Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true });
        else out[name] = copy;
      }
      seen.delete(value);
      return out;
    } catch {
      return '[Unreadable]';
    }
  }

  /**
   * A copy of a thrown value fit to hang off an SDK error as its `cause`: an `Error` with the same
   * `name`, `message` and `stack`, its own primitive fields (`code`, `errno`, …) and its cause
   * chain, every string scrubbed. Object-valued fields are left out: an error of a custom `fetch`
   * can carry the request, its headers or a config holding the API key, and no scrubbing of strings
   * reaches into a `Request` or a `Headers`. Depth-limited, so a cyclic cause chain ends.
   *
   * @example
   * ```ts
   * const redactor = new Redactor(['sk_live_Rq7Zx9Wv2Lp8Nd5R']);
   * const cause = redactor.redactCause(Object.assign(new Error('sent sk_live_Rq7Zx9Wv2Lp8Nd5R'), { code: 'ECONNRESET' }));
   * // Error: 'sent [REDACTED]', code 'ECONNRESET'
   * ```
   */
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
      // Own enumerable fields: primitives only (`message`, `stack` of a plain object come out scrubbed).
      for (const [key, value] of Object.entries(cause)) {
        if (typeof value !== 'object' && typeof value !== 'function' && key !== '__proto__') copy[this.redact(key)] = this.#cause(value, depth);
      }
      Object.defineProperty(copy, 'name', { value: this.redact(String(from.name ?? 'Error')), writable: true, configurable: true });
      if (typeof from.stack === 'string') copy.stack = this.redact(from.stack);
      return copy;
    } catch {
      // A getter or proxy that throws: nothing of it can be shown safely.
      return new Error('(unreadable error)');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The process-wide fallback, until every caller holds its client's Redactor
// ---------------------------------------------------------------------------------------------

// The fallback keeps the most recently registered secrets only, so it cannot grow with client
// churn. It skips secrets shorter than this: a global list would blank one client's one-character
// key out of every other client's output (a per-client Redactor redacts keys of any length).
const LEGACY_MIN_LENGTH = 6;
const LEGACY_LIMIT = 64;
const legacySecrets: string[] = [];
let legacy: Redactor | undefined;

/**
 * The process-wide fallback redactor (the most recent secrets given to {@link registerSecret}).
 *
 * @internal Used by code that has no client's {@link Redactor} at hand.
 * @example
 * ```ts
 * legacyRedactor().redact(text);
 * ```
 */
export function legacyRedactor(): Redactor {
  legacy ??= new Redactor(legacySecrets);
  return legacy;
}

/**
 * Registers a secret with the process-wide fallback used where no client's {@link Redactor} is at
 * hand. Bounded: it keeps the 64 most recently registered secrets (6 characters or longer).
 *
 * @internal Clients hold a {@link Redactor} of their own; this remains for callers not yet moved.
 * @example
 * ```ts
 * registerSecret(process.env.INVOICING_API_KEY);
 * ```
 */
export function registerSecret(value: string | undefined): void {
  if (typeof value !== 'string' || value.length < LEGACY_MIN_LENGTH) return;
  if (legacySecrets.at(-1) === value) return;
  const at = legacySecrets.indexOf(value);
  if (at !== -1) legacySecrets.splice(at, 1);
  legacySecrets.push(value);
  if (legacySecrets.length > LEGACY_LIMIT) legacySecrets.shift();
  legacy = undefined;
}

/**
 * `text` scrubbed by the process-wide fallback ({@link registerSecret}).
 *
 * @internal Prefer the client's {@link Redactor.redact}.
 * @example
 * ```ts
 * redactSecrets('bad key sk_live_Rq7Zx9Wv2Lp8Nd5R'); // 'bad key [REDACTED]' once registered
 * ```
 */
export function redactSecrets(text: string): string {
  return legacyRedactor().redact(text);
}

/**
 * `value` deep-copied and scrubbed by the process-wide fallback ({@link registerSecret}).
 *
 * @internal Prefer the client's {@link Redactor.redactDeep}.
 * @example
 * ```ts
 * redactDeep({ message: 'bad key sk_live_Rq7Zx9Wv2Lp8Nd5R' });
 * ```
 */
export function redactDeep<T>(value: T): T {
  return legacyRedactor().redactDeep(value);
}

/**
 * A scrubbed copy of a thrown value, by the process-wide fallback ({@link registerSecret}).
 *
 * @internal Prefer the client's {@link Redactor.redactCause}.
 * @example
 * ```ts
 * redactCause(new Error('bad key sk_live_Rq7Zx9Wv2Lp8Nd5R'));
 * ```
 */
export function redactCause(cause: unknown): unknown {
  return legacyRedactor().redactCause(cause);
}

/**
 * Everything this module holds at module level, by size: what a test checks stays flat however
 * many clients (and redactors) come and go. A {@link Redactor} is owned by its client and holds
 * nothing here.
 *
 * @internal For tests.
 * @example
 * ```ts
 * redactionInternals(); // { legacySecrets: 2, legacyRedactorSize: 2 }
 * ```
 */
export function redactionInternals(): { legacySecrets: number; legacyRedactorSize: number } {
  return { legacySecrets: legacySecrets.length, legacyRedactorSize: legacy?.size ?? 0 };
}
