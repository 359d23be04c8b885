/** API key schemas, with the public types inferred from them. Built on first use; input fields are getters. */
import * as z from 'zod/mini';
import { isObject, readAlias } from './field-map.js';
import { lazySchema } from './lazy.js';

const KNOWN_SCOPES = ['invoices:read', 'invoices:write', 'taxauth:read', '*'] as const;
const otherText = () => z.custom<string & {}>((value) => typeof value === 'string' && value.trim() !== '');

/**
 * A scope an API key is created with: one of the three the service names, `*` (every permission), or another name.
 * @example
 * ```ts
 * ApiKeyScopeSchema.safeParse('').success; // false
 * ```
 */
export const ApiKeyScopeSchema = /* @__PURE__ */ lazySchema(() => z.union([z.enum(KNOWN_SCOPES), otherText()], {
  error: (issue) => `${shown(issue.input)} is not a scope: use ${KNOWN_SCOPES.slice(0, -1).join(', ')}, or '*' for every permission`,
}));

export const isNamedScope = (scope: string): boolean => (KNOWN_SCOPES as readonly string[]).includes(scope);

/** A value for a message: short strings quoted, anything else by its kind. Never a secret here. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : 'a string';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * A scope an API key can hold.
 * @example
 * ```ts
 * const scopes: APIKeyScope[] = ['invoices:read', 'invoices:write'];
 * ```
 */
export type APIKeyScope = z.infer<typeof ApiKeyScopeSchema>;

const nonBlank = (message: string) => z.string({ error: message }).check(z.refine((value) => value.trim() !== '', { message }));

const NO_SCOPES =
  "scopes is required: the service grants every permission ('*') to a key created without scopes. " +
  "List the scopes the key needs, or pass ['*'] to ask for everything";
const EMPTY_SCOPES =
  "scopes must not be empty: the service would grant every permission ('*'). List the scopes the key needs, or pass ['*']";

const createShape = {
  get name() { return nonBlank('name is required (a label for the key)'); },
  /** `LIVE` (the only value the service shows). */
  get type() { return z.union([z.literal('LIVE'), otherText()], { error: "type is required (for example 'LIVE')" }); },
  /** `USER` acts for the user across every business the user owns (the working path for creating invoices). */
  get keyableType() { return z.enum(['USER', 'BUSINESS'], { error: "keyableType must be 'USER' or 'BUSINESS'" }); },
  /** Required when `keyableType` is `BUSINESS`. */
  get businessId() { return z.optional(z.string({ error: 'businessId must be a string' })); },
  /** Not empty: without scopes the service grants every permission. */
  get scopes() { return z.readonly(z.array(ApiKeyScopeSchema, { error: NO_SCOPES }).check(z.minLength(1, EMPTY_SCOPES))); },
};

/**
 * The body of `apiKeys.create()`.
 * @example
 * ```ts
 * ApiKeyCreateParamsSchema.safeParse({ name: 'ci', type: 'LIVE', keyableType: 'BUSINESS', scopes: ['*'] }).success; // false
 * ```
 */
export const ApiKeyCreateParamsSchema: z.ZodMiniObject<z.core.util.Writeable<typeof createShape>, z.core.$loose> =
  /* @__PURE__ */ lazySchema(() =>
    z.looseObject(createShape).check(
      z.superRefine((params: APIKeyCreateParams, ctx) => {
        if (params.keyableType === 'BUSINESS' && (params.businessId === undefined || params.businessId.trim() === '')) {
          ctx.addIssue({ code: 'custom', path: ['businessId'], message: 'a BUSINESS key requires businessId', input: params.businessId });
        }
      }),
    ),
  );

/**
 * Parameters of `apiKeys.create()`.
 * @example
 * ```ts
 * const params: APIKeyCreateParams = { name: 'billing', type: 'LIVE', keyableType: 'USER', scopes: ['invoices:read', 'invoices:write'] };
 * ```
 */
export type APIKeyCreateParams = z.infer<z.ZodMiniObject<typeof createShape>>;

export const API_KEY_FIELD_ALIASES = {
  id: ['id', '_id', 'apiKeyId', 'keyId', 'uuid'],
  key: ['key', 'apiKey', 'secret', 'value'],
  createdAt: ['createdAt', 'created_at'],
} as const;

// Plain properties, not getters: typedoc reads the fields' comments only from those.
const optionalString = () => z.optional(z.string());

/**
 * An API key record as the SDK returns it.
 * @example
 * ```ts
 * ApiKeyRecordSchema.shape.scopes; // every field is optional: the service shows only `key`
 * ```
 */
export const ApiKeyRecordSchema = /* @__PURE__ */ lazySchema(() => z.object({
  /** The key's id, for `retrieve`, `reveal` and `revoke`; `undefined` if the record shows none. */ id: optionalString(),
  /** Label. */ name: optionalString(),
  /** `LIVE`, … */ type: optionalString(),
  /** `USER` or `BUSINESS`. */ keyableType: optionalString(),
  /** The business of a BUSINESS key. */ businessId: z.optional(z.string({ error: 'businessId must be a string' })),
  /** Scopes held. */ scopes: z.optional(z.array(z.string())),
  /** The secret: present after `create()` and `reveal()`, never in `list()`. */ key: optionalString(),
  /** When the key was created, as the service wrote it. */ createdAt: optionalString(),
  /** The record exactly as the service returned it. */ raw: z.record(z.string(), z.unknown()),
}));

/**
 * An API key record.
 * @example
 * ```ts
 * for (const k of await client.apiKeys.list()) console.log(k.id, k.name, k.keyableType, k.scopes);
 * ```
 */
export type APIKey = z.infer<typeof ApiKeyRecordSchema>;

const NOT_AN_OBJECT = 'An API key record must be a JSON object';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

const toApiKey = (raw: Record<string, unknown>): APIKey => ({
  id: text(readAlias(raw, API_KEY_FIELD_ALIASES.id)),
  name: text(raw.name),
  type: text(raw.type),
  keyableType: text(raw.keyableType),
  businessId: text(raw.businessId),
  scopes: Array.isArray(raw.scopes) ? raw.scopes.filter((s): s is string => typeof s === 'string') : undefined,
  key: text(readAlias(raw, API_KEY_FIELD_ALIASES.key)),
  createdAt: text(readAlias(raw, API_KEY_FIELD_ALIASES.createdAt)),
  raw,
});

/**
 * A key record as the service returns it, read into an {@link APIKey}; `raw` is the very object parsed.
 * @example
 * ```ts
 * ApiKeySchema.parse({ _id: 'k1', name: 'ci', scopes: ['*'], secret: 'sk_live_…' }).id; // 'k1'
 * ```
 */
export const ApiKeySchema = /* @__PURE__ */ lazySchema(() =>
  z.pipe(z.custom<Record<string, unknown>>(isObject, { message: NOT_AN_OBJECT }), z.transform(toApiKey)),
);

type ApiKeyReadResult = { ok: true; apiKey: APIKey } | { ok: false; field: string; message: string };

/** Reads one key record as {@link ApiKeySchema} does. */
export function readApiKeyRecord(record: unknown, opts: { fallbackId?: string | undefined } = {}): ApiKeyReadResult {
  if (!isObject(record)) return { ok: false, field: '', message: NOT_AN_OBJECT };
  const apiKey = toApiKey(record);
  if (apiKey.id === undefined && opts.fallbackId !== undefined) apiKey.id = opts.fallbackId;
  return { ok: true, apiKey };
}
