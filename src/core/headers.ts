// The one place request headers are built and redacted for logs. X-API-Key on service routes only; Bearer session only on /api/v1/api-key.
import { VERSION } from '../version.js';
import { InvoicingError } from './errors.js';
import { REDACTED } from './redact.js';
import { isSessionRoute } from './routes.js';

const SENSITIVE = new Set(['x-api-key', 'authorization', 'cookie', 'proxy-authorization']);

// What Node's HTTP client sends (undici refuses the rest only when sending, as a retried network error).
const HEADER_VALUE = /^[\t -~\x80-\xff]*$/;
// A token (RFC 9110).
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;
// Printable ASCII, not blank: other bytes may be decoded so that two keys become one.
const IDEMPOTENCY_KEY = /^ *[!-~][ -~]*$/;

/** Throws (before anything is sent) when `value` cannot be a header value or `name` a header name; never quotes the value. */
export function checkHeader(what: string, value: string, name = 'x'): void {
  if (!HEADER_VALUE.test(value) || !HEADER_NAME.test(name)) {
    throw new InvoicingError(`${what} cannot be sent: bad name, or a line break, control or non-Latin-1 character.`);
  }
}

export function checkIdempotencyKey(key: unknown): string {
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new InvoicingError(
      `idempotencyKey must be non-blank printable ASCII, no line breaks; got ${typeof key === 'string' ? JSON.stringify(key) : typeof key}.`,
      { hint: 'Pass e.g. deriveIdempotencyKey(businessId, externalRef), or none.' },
    );
  }
  return key;
}

export type Credentials = Record<'apiKey' | 'sessionToken', string | undefined>;

const node = (globalThis as { process?: { version?: string } }).process?.version;
export const USER_AGENT = `invoicing-sdk/${VERSION}${node ? ` node/${node}` : ''}`;

export function checkExtraHeaders(extra: Record<string, string> | undefined, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra ?? {})) {
    const lower = name.toLowerCase();
    // Authentication is the route's alone: the service rejects a second scheme (401).
    if (SENSITIVE.has(lower)) {
      throw new InvoicingError(`${where} cannot set ${JSON.stringify(name)}: authentication headers are set by the client.`, {
        hint: 'Pass apiKey (sent as X-API-Key) or sessionToken (sent as Authorization: Bearer, to /api/v1/api-key routes only) to the client instead.',
      });
    }
    if (lower === 'idempotency-key') {
      throw new InvoicingError(`${where} cannot set ${JSON.stringify(name)}: the idempotency key is minted once per call and kept on every retry.`, {
        hint: 'Pass the idempotencyKey option of the call instead.',
      });
    }
    checkHeader(`Header ${JSON.stringify(name)}`, String(value), name);
    out[lower] = String(value);
  }
  return out;
}

export function authHeader(path: string, credentials: Credentials): [name: string, value: string] {
  const session = isSessionRoute(path);
  const secret = session ? credentials.sessionToken : credentials.apiKey;
  if (secret !== undefined) return session ? ['authorization', `Bearer ${secret}`] : ['x-api-key', secret];
  throw new InvoicingError(
    session
      ? 'No session token: API keys are managed from a signed-in portal session, never with an API ' +
        'key. Pass sessionToken to the client or set INVOICING_SESSION_TOKEN.'
      : 'No API key: pass apiKey to the client or set INVOICING_API_KEY. Keys are created from a ' +
        'signed-in session with client.apiKeys.create().',
    {
      hint: session
        ? 'The session token is sent as Authorization: Bearer, only to /api/v1/api-key routes.'
        : 'The key is sent only as the X-API-Key header.',
    },
  );
}

export const redactHeaders = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SENSITIVE.has(name.toLowerCase()) ? REDACTED : value]));
