/**
 * Secret redaction. Headers are redacted where they are built (see `headers.ts`); this module is the
 * second line of defence: every secret a client is given (API key, session token) or receives (a key
 * created or revealed over the session) is registered here, and every error message, error body and
 * log line is scrubbed of them. A server that echoes the key back in an error body ("invalid key
 * sk_live_…") therefore cannot make the SDK print it.
 */

/** What replaces a secret wherever it would appear. */
export const REDACTED = '[REDACTED]';

// Shorter strings would scrub ordinary words out of messages; no real key or token is this short.
const MIN_SECRET_LENGTH = 6;

// A cut-off secret still gives most of it away: a body truncated by a proxy, or a message shortened
// to fit an error, can end part-way through an echoed key. A run of at least this many of a
// secret's leading characters is redacted too (12 covers a type prefix such as `sk_live_` plus a
// few characters of the random part; fewer than that says next to nothing about the secret).
const MIN_PARTIAL_LENGTH = 12;

const secrets = new Set<string>();

/**
 * Registers a secret so that {@link redactSecrets} removes it from every message and log line. Called
 * by the client for its API key and session token, and by `apiKeys.create`/`reveal` for the keys
 * they return.
 */
export function registerSecret(value: string | undefined): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** Replaces every registered secret in `text` with {@link REDACTED}. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    out = redactCutOff(out, secret);
  }
  // Credentials in a shape we can recognise even when we were never told the value.
  return out.replace(/\b(Bearer|ApiKey)\s+[A-Za-z0-9._~+/=-]{6,}/g, `$1 ${REDACTED}`);
}

/** Replaces every run of `secret`'s leading characters ({@link MIN_PARTIAL_LENGTH} or more) in `text`. */
function redactCutOff(text: string, secret: string): string {
  if (secret.length <= MIN_PARTIAL_LENGTH) return text;
  const head = secret.slice(0, MIN_PARTIAL_LENGTH);
  let at = text.indexOf(head);
  if (at === -1) return text;
  let out = '';
  let copied = 0;
  while (at !== -1) {
    let end = at + MIN_PARTIAL_LENGTH;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end += 1;
    out += text.slice(copied, at) + REDACTED;
    copied = end;
    at = text.indexOf(head, end);
  }
  return out + text.slice(copied);
}

/** What stands in for the part of a value nested deeper than {@link MAX_REDACT_DEPTH}. */
export const TOO_DEEP = '[Nested too deep]';

// No real response body comes near this; a broken or hostile one nested thousands of levels deep
// must not exhaust the stack while an error is being built.
const MAX_REDACT_DEPTH = 64;

/**
 * A copy of `value` with every string scrubbed by {@link redactSecrets}. Plain objects and arrays
 * are copied; anything else (class instances, functions) is kept as it is. Cycles are cut, and
 * anything nested deeper than 64 levels is replaced by {@link TOO_DEEP}.
 */
export function redactDeep<T>(value: T, seen: WeakSet<object> = new WeakSet(), depth = 0): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]' as T;
  if (depth >= MAX_REDACT_DEPTH) return TOO_DEEP as T;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, seen, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, seen, depth + 1);
  return out as T;
}

// Deep enough for undici's "fetch failed" → socket error → AggregateError chain.
const MAX_CAUSE_DEPTH = 4;

/**
 * A copy of a thrown value fit to hang off an SDK error as its `cause`: an `Error` with the same
 * `name`, `message` and `stack`, its own primitive fields (`code`, `errno`, …) and its cause chain,
 * every string scrubbed by {@link redactSecrets}. Object-valued fields are left out: an error of a
 * custom `fetch` or a fetch wrapper can carry the request, its headers or a config holding the API
 * key, and no scrubbing of strings reaches into a `Request` or a `Headers`. A string is scrubbed; any
 * other primitive is kept. Depth-limited, so a cyclic cause chain ends.
 */
export function redactCause(cause: unknown, depth = 0): unknown {
  if (typeof cause === 'string') return redactSecrets(cause);
  if (cause === null || (typeof cause !== 'object' && typeof cause !== 'function')) return cause;
  try {
    const from = cause as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
    const copy = new Error(
      redactSecrets(String(from.message ?? '')),
      from.cause === undefined || depth >= MAX_CAUSE_DEPTH ? undefined : { cause: redactCause(from.cause, depth + 1) },
    ) as Error & Record<string, unknown>;
    // Own enumerable fields: primitives only (`message`, `stack` of a plain object come out scrubbed).
    for (const [key, value] of Object.entries(cause)) {
      if (typeof value !== 'object' && typeof value !== 'function') copy[key] = redactCause(value);
    }
    Object.defineProperty(copy, 'name', { value: redactSecrets(String(from.name ?? 'Error')), writable: true, configurable: true });
    if (typeof from.stack === 'string') copy.stack = redactSecrets(from.stack);
    return copy;
  } catch {
    // A getter or proxy that throws: nothing of it can be shown safely.
    return new Error('(unreadable error)');
  }
}
