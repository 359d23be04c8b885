// For a signed-in session only. A new key revokes the user's active keys of its kind (rule 6).
import { badRequest, notFound } from '../errors.js';
import { envelope, listing, pageParams, requireSession, type RouteContext, type RouteResult } from '../context.js';
import type { KeyReplacement } from '../options.js';
import { apiKeyWire } from '../records.js';
import { KNOWN_SCOPES, type ApiKeyRecord } from '../store.js';

const KEY_TYPES = ['LIVE'] as const;
const KEYABLE_TYPES = ['USER', 'BUSINESS'] as const;

export function replaces(rule: KeyReplacement, created: ApiKeyRecord, other: ApiKeyRecord): boolean {
  if (other === created || other.userId !== created.userId || other.status !== 'active') return false;
  if (other.type !== created.type) return false;
  if (rule === 'type') return true;
  if (other.keyableType !== created.keyableType) return false;
  return rule === 'type+keyableType' || other.businessId === created.businessId;
}

/** POST /api/v1/api-key */
export function createApiKey(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  const body = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Record<string, unknown>) : {};
  const messages: string[] = [];
  if (typeof body.name !== 'string' || body.name.trim() === '') messages.push('name should not be empty', 'name must be a string');
  if (!(KEY_TYPES as readonly unknown[]).includes(body.type)) messages.push(`type must be one of the following values: ${KEY_TYPES.join(', ')}`);
  if (!(KEYABLE_TYPES as readonly unknown[]).includes(body.keyableType)) {
    messages.push(`keyableType must be one of the following values: ${KEYABLE_TYPES.join(', ')}`);
  }
  if (body.keyableType === 'BUSINESS' && (typeof body.businessId !== 'string' || body.businessId === '')) {
    messages.push('businessId is required when keyableType is BUSINESS');
  }
  if (body.scopes !== undefined) {
    if (!Array.isArray(body.scopes)) messages.push('scopes must be an array');
    else {
      for (const scope of body.scopes) {
        if (!(KNOWN_SCOPES as readonly unknown[]).includes(scope)) {
          messages.push(`each value in scopes must be one of the following values: ${KNOWN_SCOPES.join(', ')}`);
          break;
        }
      }
    }
  }
  if (messages.length > 0) throw badRequest(messages);

  const { store, options } = ctx.state;
  const keyableType = body.keyableType as ApiKeyRecord['keyableType'];
  const businessId = keyableType === 'BUSINESS' ? (body.businessId as string) : null;
  if (businessId !== null && !store.owns(userId, businessId)) throw notFound('Business not found');

  const record = issueKey(ctx, {
    userId,
    name: body.name as string,
    type: body.type as string,
    keyableType,
    businessId,
    // Authentication rule 7: a key created without scopes holds the wildcard.
    scopes: body.scopes === undefined ? ['*'] : [...new Set(body.scopes as string[])],
  }, options.keyReplacement);
  return { ...envelope(ctx, { ...apiKeyWire(record), key: record.key }, 201), committed: true };
}

/** Creates a key and revokes the ones it replaces; shared by the route and `sandbox.createApiKey()`. */
export function issueKey(
  ctx: Pick<RouteContext, 'state' | 'now'>,
  input: Omit<ApiKeyRecord, 'id' | 'key' | 'status' | 'createdAt' | 'revokedAt' | 'lastUsedAt'> & { key?: string },
  rule: KeyReplacement | 'none',
): ApiKeyRecord {
  const { store } = ctx.state;
  const record = store.addKey(ctx.now, input);
  if (rule !== 'none') {
    for (const other of store.keys.values()) {
      if (replaces(rule, record, other)) store.revokeKey(other, ctx.now);
    }
  }
  return record;
}

function findKey(ctx: RouteContext, userId: string): ApiKeyRecord {
  const id = ctx.params.id ?? '';
  const key = ctx.state.store.keys.get(id);
  if (key === undefined || key.userId !== userId) throw notFound(`API key ${id} not found`);
  return key;
}

/** GET /api/v1/api-key: the caller's keys, revoked ones included, never the secret. */
export function listApiKeys(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  const { page, limit } = pageParams(ctx, { limit: 10, maxLimit: 100 });
  const keys = [...ctx.state.store.keys.values()].filter((k) => k.userId === userId);
  return listing(ctx, keys, page, limit, apiKeyWire);
}

/** GET /api/v1/api-key/:id */
export function readApiKey(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  return envelope(ctx, apiKeyWire(findKey(ctx, userId)));
}

/** GET /api/v1/api-key/:id/reveal: the secret is recoverable (Authentication, rule 8). */
export function revealApiKey(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  const key = findKey(ctx, userId);
  return envelope(ctx, { ...apiKeyWire(key), key: key.key });
}

/** DELETE /api/v1/api-key/:id: immediate and permanent; revoking a revoked key answers the same. */
export function revokeApiKey(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  const key = findKey(ctx, userId);
  const committed = key.status === 'active';
  ctx.state.store.revokeKey(key, ctx.now);
  return { ...envelope(ctx, apiKeyWire(key)), committed };
}
