// Secrets are redacted when an entry is written, so a log printed by a failing test never shows one.
import type { FaultKind } from './faults.js';

/**
 * What became of a request: answered, dropped (no answer), or stalled mid-body.
 *
 * @example
 * ```ts
 * const dropped = sandbox.requests.filter((r) => r.outcome === 'dropped');
 * ```
 */
export type RequestOutcome = 'response' | 'dropped' | 'stalled';

/**
 * One logged request.
 *
 * @example
 * ```ts
 * expect(sandbox.requests.filter((r) => r.path.endsWith('/sign'))).toHaveLength(1);
 * ```
 */
export interface RequestLogEntry {
  /** The `x-request-id` the sandbox gave the request. */
  id: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path without the query. */
  path: string;
  /** Query parameters (secret ones redacted). */
  query: Record<string, string>;
  /** Request headers, lower-cased names, secrets redacted. */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text when not JSON, `undefined` when empty. */
  body: unknown;
  /** The `idempotency-key` header, if sent. */
  idempotencyKey: string | undefined;
  /** Sandbox time the request arrived, ISO 8601. */
  time: string;
  /** Status sent; `undefined` when the connection was dropped. */
  status: number | undefined;
  /** Parsed JSON body of the answer as the server meant it (before any malformed fault). */
  responseBody: unknown;
  /** Answered, dropped or stalled. */
  outcome: RequestOutcome;
  /** The fault applied, if any. */
  fault: FaultKind | undefined;
  /** True when the request changed state (created, transitioned, revoked…). */
  committed: boolean;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'proxy-authorization']);
const SECRET_QUERY = new Set(['apikey', 'api_key', 'token', 'access_token']);

export const REDACTED_VALUE = '[REDACTED]';

/** Headers as a plain object, secrets redacted (the auth scheme is kept: `Bearer [REDACTED]`). */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name)) out[name] = value;
    else if (name === 'authorization' && /^\S+\s+\S/.test(value)) out[name] = `${value.split(/\s+/)[0]} ${REDACTED_VALUE}`;
    else out[name] = REDACTED_VALUE;
  });
  return out;
}

/** Query parameters as a plain object, secrets redacted. */
export function redactQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((value, name) => {
    out[name] = SECRET_QUERY.has(name.toLowerCase()) ? REDACTED_VALUE : value;
  });
  return out;
}

/** A bounded log: past `limit` entries the oldest tenth is dropped. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(private readonly limit: number) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, Math.max(1, Math.floor(this.limit / 10)));
  }

  all(): RequestLogEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
