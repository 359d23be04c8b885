import type { SandboxClock } from './clock.js';
import { badRequest, forbidden, unauthorized } from './errors.js';
import type { ResolvedOptions } from './options.js';
import type { Progress } from './progress.js';
import type { ApiKeyRecord, Store } from './store.js';

export interface SandboxState { store: Store; progress: Progress; options: ResolvedOptions; clock: SandboxClock }

export interface RouteContext {
  state: SandboxState; method: string; url: URL; params: Record<string, string>; headers: Headers; body: unknown; now: number;
}

export interface RouteResult {
  status: number; body: unknown; headers?: Record<string, string>; committed?: boolean;
  /** A non-JSON body, sent as is instead of `body`. */ text?: string;
}

export const envelope = (ctx: RouteContext, data: unknown, status = 200, extra: Record<string, unknown> = {}): RouteResult =>
  ({ status, body: { success: true, data, ...extra, timestamp: new Date(ctx.now).toISOString() } });

export function listing<T>(ctx: RouteContext, items: readonly T[], limits: { limit: number; maxLimit: number }, map: (item: T) => unknown): RouteResult {
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
  const limit = read('limit', limits.limit, limits.maxLimit);
  if (messages.length > 0) throw badRequest(messages);
  const data = items.slice((page - 1) * limit, page * limit).map(map);
  return envelope(ctx, data, 200, { meta: { total: items.length, page, limit, totalPages: Math.ceil(items.length / limit) } });
}

// Only `X-API-Key` works: `Authorization: ApiKey` and `?apiKey=` are 401 even with a valid key.
export function requireApiKey(ctx: RouteContext, scope: string): ApiKeyRecord {
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
  if (key.scopes.includes('*') || key.scopes.includes(scope)) return key;
  const held = key.scopes.length === 0 ? 'no scopes' : key.scopes.join(', ');
  throw forbidden(`Missing scope ${scope}: ${ctx.method} ${ctx.url.pathname} requires ${scope}; this API key holds ${held}`);
}

// Key management takes a session (`Authorization: Bearer`) only, never an API key.
export function requireSession(ctx: RouteContext): string {
  const authorization = ctx.headers.get('authorization') ?? '';
  const match = /^bearer\s+(\S+)$/i.exec(authorization.trim());
  if (match === null) {
    if (ctx.headers.has('x-api-key')) throw unauthorized('API keys cannot manage API keys: sign in and send Authorization: Bearer <session token>');
    throw unauthorized('Sign-in required: send Authorization: Bearer <session token>');
  }
  const userId = ctx.state.store.sessions.get(match[1] ?? '');
  if (userId === undefined) throw unauthorized('Invalid or expired session');
  return userId;
}
