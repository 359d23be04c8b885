/**
 * What a route sees: the request, already read, and the sandbox's state. Plus the envelope helpers
 * every route answers with, and the authentication rules of the document's Authentication section.
 */
import type { SandboxClock } from './clock.js';
import { badRequest, forbidden, unauthorized } from './errors.js';
import type { ResolvedOptions } from './options.js';
import type { Progress } from './progress.js';
import type { ApiKeyRecord, Store } from './store.js';

/** The sandbox's state, as routes use it. */
export interface SandboxState {
  store: Store;
  progress: Progress;
  options: ResolvedOptions;
  clock: SandboxClock;
}

/** One request, read once. */
export interface RouteContext {
  state: SandboxState;
  method: string;
  url: URL;
  path: string;
  params: Record<string, string>;
  headers: Headers;
  /** Parsed JSON body (`undefined` when empty or not sent as JSON). */
  body: unknown;
  /** Sandbox time when the request arrived. */
  now: number;
}

/** A route's answer before it becomes a `Response`. */
export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON (the API reference's page and script), sent as is instead of `body`. */
  text?: string;
  /** True when the request changed state (for the request log). */
  committed?: boolean;
}

/** `{ success: true, data, timestamp }`, the document's success envelope. */
export function envelope(ctx: RouteContext, data: unknown, status = 200, extra: Record<string, unknown> = {}): RouteResult {
  return { status, body: { success: true, data, ...extra, timestamp: new Date(ctx.now).toISOString() } };
}

/** Reads `page` and `limit` as the listings accept them (400 with class-validator wording otherwise). */
export function pageParams(ctx: RouteContext, defaults: { limit: number; maxLimit: number }): { page: number; limit: number } {
  const messages: string[] = [];
  const read = (name: string, fallback: number, max: number): number => {
    const raw = ctx.url.searchParams.get(name);
    if (raw === null || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n)) messages.push(`${name} must be an integer number`);
    else if (n < 1) messages.push(`${name} must not be less than 1`);
    else if (n > max) messages.push(`${name} must not be greater than ${max}`);
    return n;
  };
  const page = read('page', 1, Number.MAX_SAFE_INTEGER);
  const limit = read('limit', defaults.limit, defaults.maxLimit);
  if (messages.length > 0) throw badRequest(messages);
  return { page, limit };
}

/** A listing: one page of `items` in the envelope, with `meta`. */
export function listing<T>(ctx: RouteContext, items: readonly T[], page: number, limit: number, map: (item: T) => unknown): RouteResult {
  const start = (page - 1) * limit;
  const data = items.slice(start, start + limit).map(map);
  return envelope(ctx, data, 200, {
    meta: { total: items.length, page, limit, totalPages: Math.ceil(items.length / limit) },
  });
}

/**
 * The API key of an invoice or lookup request. Only `X-API-Key` works: `Authorization: ApiKey` and
 * `?apiKey=` are 401 even when the key they carry is valid (Authentication, rule 2).
 */
export function requireApiKey(ctx: RouteContext): ApiKeyRecord {
  const secret = ctx.headers.get('x-api-key');
  if (secret === null || secret === '') {
    const authorization = ctx.headers.get('authorization') ?? '';
    if (/^apikey\s/i.test(authorization) || ctx.url.searchParams.has('apiKey')) {
      throw unauthorized(
        'API key not accepted: send it in the X-API-Key header (Authorization: ApiKey and the apiKey query parameter are not supported)',
      );
    }
    if (/^bearer\s/i.test(authorization)) {
      throw unauthorized('This route needs an API key in the X-API-Key header; a session token is accepted only by /api/v1/api-key');
    }
    throw unauthorized('Missing API key: send it in the X-API-Key header');
  }
  const key = ctx.state.store.keysBySecret.get(secret);
  if (key === undefined) throw unauthorized('Invalid API key');
  if (key.status === 'revoked') throw unauthorized('This API key has been revoked');
  key.lastUsedAt = ctx.now;
  return key;
}

/** 403 naming the scope when `key` does not hold it (`*` holds every scope). */
export function requireScope(ctx: RouteContext, key: ApiKeyRecord, scope: string): void {
  if (key.scopes.includes('*') || key.scopes.includes(scope)) return;
  const held = key.scopes.length === 0 ? 'no scopes' : key.scopes.join(', ');
  throw forbidden(`Missing scope ${scope}: ${ctx.method} ${ctx.path} requires ${scope}; this API key holds ${held}`);
}

/**
 * The signed-in user of a key-management request: `Authorization: Bearer <session token>` only; an
 * API key never manages keys (Authentication, rule 3).
 */
export function requireSession(ctx: RouteContext): string {
  const authorization = ctx.headers.get('authorization') ?? '';
  const match = /^bearer\s+(\S+)$/i.exec(authorization.trim());
  if (match === null) {
    if (ctx.headers.has('x-api-key')) {
      throw unauthorized('API keys cannot manage API keys: sign in and send Authorization: Bearer <session token>');
    }
    throw unauthorized('Sign-in required: send Authorization: Bearer <session token>');
  }
  const userId = ctx.state.store.sessions.get(match[1] ?? '');
  if (userId === undefined) throw unauthorized('Invalid or expired session');
  return userId;
}
