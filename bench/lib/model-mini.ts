/**
 * An experiment for bench/bundle-size.mjs, not used by the SDK: the schemas src/model exports (and
 * core/envelope's tolerant envelope), written with zod/mini's functions instead of classic zod's
 * methods, same shapes and messages. The non-zod helpers are src/model's own.
 */
import * as z from 'zod/mini';
import { DEFAULT_FIELD_MAP, readInvoice } from '../../src/model/field-map.js';
import { InvoiceStatus } from '../../src/model/status.js';

export const BuyerTypeSchema = z.enum(['B2B', 'B2C', 'B2G']);
export const BuyerSchema = z.looseObject({
  type: BuyerTypeSchema,
  tin: z.optional(z.string()),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});
export const InvoiceLineSchema = z.looseObject({
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  taxRate: z.number(),
  hsnCode: z.optional(z.string()),
  isicCode: z.optional(z.string()),
  sku: z.optional(z.string()),
  discountRate: z.optional(z.number()),
  inventoryItemId: z.optional(z.string()),
  productCategory: z.optional(z.string()),
  serviceCategory: z.optional(z.string()),
});
export const InvoiceCreateParamsSchema = z.looseObject({
  businessId: z.string(),
  buyer: BuyerSchema,
  dueDate: z.string(),
  lines: z.array(InvoiceLineSchema).check(z.minLength(1)),
});

export const InvoiceStatusSchema = z.enum(InvoiceStatus);
export const DecimalStringSchema = z.string().check(z.regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string such as "107.50"'));
const count = () => z.optional(z.int().check(z.nonnegative()));
export const CanonicalInvoiceSchema = z.object({
  id: z.string().check(z.minLength(1)),
  status: InvoiceStatusSchema,
  rawStatus: z.optional(z.string()),
  subtotal: z.optional(DecimalStringSchema),
  taxTotal: z.optional(DecimalStringSchema),
  total: z.optional(DecimalStringSchema),
  updatedAt: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
  recoveryAttempts: count(),
  attempts: count(),
  observedAt: z.optional(z.string()),
  raw: z.record(z.string(), z.unknown()),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const InvoiceSchema = z.pipe(
  z.custom<Record<string, unknown>>(isRecord, { message: 'A stored invoice must be a JSON object' }),
  z.transform((record: Record<string, unknown>, ctx) => {
    const invoice = readInvoice(record, { fieldMap: DEFAULT_FIELD_MAP });
    if (invoice !== undefined) return invoice;
    ctx.issues.push({ code: 'custom', path: ['id'], input: record, message: 'No readable id' });
    return z.NEVER;
  }),
);

const KNOWN_SCOPES = ['invoices:read', 'invoices:write', 'taxauth:read', '*'] as const;
export const ApiKeyScopeSchema = z.enum(KNOWN_SCOPES, { error: () => `not a scope the service names: use ${KNOWN_SCOPES.join(', ')}` });
const nonBlank = (message: string) => z.string({ error: message }).check(z.refine((value) => value.trim() !== '', { message }));
export const ApiKeyCreateParamsSchema = z
  .looseObject({
    name: nonBlank('name is required (a label for the key)'),
    type: z.union([z.literal('LIVE'), z.custom<string & {}>((value) => typeof value === 'string' && value.trim() !== '')], {
      error: "type is required (for example 'LIVE')",
    }),
    keyableType: z.enum(['USER', 'BUSINESS'], { error: "keyableType must be 'USER' or 'BUSINESS'" }),
    businessId: z.optional(z.string({ error: 'businessId must be a string' })),
    scopes: z.readonly(z.array(ApiKeyScopeSchema, { error: 'scopes is required' }).check(z.minLength(1, 'scopes must not be empty'))),
  })
  .check(
    z.superRefine((params, ctx) => {
      if (params.keyableType === 'BUSINESS' && (params.businessId === undefined || params.businessId.trim() === '')) {
        ctx.addIssue({ code: 'custom', path: ['businessId'], message: 'a BUSINESS key requires businessId', input: params.businessId });
      }
    }),
  );
export const ApiKeyRecordSchema = z.object({
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  type: z.optional(z.string()),
  keyableType: z.optional(z.string()),
  businessId: z.optional(z.string()),
  scopes: z.optional(z.array(z.string())),
  key: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  raw: z.record(z.string(), z.unknown()),
});

export const ClassificationCodeSchema = z.object({ code: z.string().check(z.minLength(1)), description: z.optional(z.string()) });

const listingCount = z.union([
  z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER)),
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\s*\d+\s*$/, 'a count written as digits')), z.transform(Number)),
    z.number().check(z.maximum(Number.MAX_SAFE_INTEGER)),
  ),
]);
export const ListingMetaSchema = z.pipe(
  z.looseObject({
    total: z.optional(listingCount),
    page: z.optional(listingCount),
    limit: z.optional(listingCount),
    totalPages: z.optional(listingCount),
  }),
  z.transform((meta: { total?: number; limit?: number; totalPages?: number }) =>
    meta.totalPages === undefined && meta.total !== undefined && meta.limit !== undefined && meta.limit > 0
      ? { ...meta, totalPages: Math.ceil(meta.total / meta.limit) }
      : meta,
  ),
);
const envelopeShape = {
  success: z.literal(true),
  data: z.unknown(),
  timestamp: z.catch(z.optional(z.string()), undefined),
  message: z.catch(z.optional(z.string()), undefined),
  meta: z.pipe(z.nullish(ListingMetaSchema), z.transform((meta) => meta ?? undefined)),
};
export const EnvelopeSchema = z.looseObject(envelopeShape);
export const TolerantEnvelopeSchema = z.extend(EnvelopeSchema, {
  meta: z.pipe(z.catch(z.nullish(ListingMetaSchema), undefined), z.transform((meta) => meta ?? undefined)),
});
