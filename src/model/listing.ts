/** The `meta` object of a listing envelope. */
import * as z from 'zod';

const count = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\s*\d+\s*$/, 'a count written as digits')
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER)),
]);

/**
 * A listing's `meta`.
 *
 * @example
 * ```ts
 * import { ListingMetaSchema } from 'invoicing-sdk';
 * ListingMetaSchema.parse({ total: 25, page: 1, limit: 10 }).totalPages; // 3
 * ListingMetaSchema.safeParse({ totalPages: -1 }).error?.issues[0]?.path; // ['totalPages']
 * ```
 */
export const ListingMetaSchema = z
  .looseObject({
    /** Items across all pages. */
    total: count.optional(),
    /** This page, from 1. */
    page: count.optional(),
    /** Page size. */
    limit: count.optional(),
    /** Number of pages; computed by the service. */
    totalPages: count.optional(),
  })
  .transform((meta) =>
    meta.totalPages === undefined && meta.total !== undefined && meta.limit !== undefined && meta.limit > 0
      ? { ...meta, totalPages: Math.ceil(meta.total / meta.limit) }
      : meta,
  );

/**
 * A listing's `meta`: every count may be missing.
 *
 * @example
 * ```ts
 * const page = await client.invoices.list({ limit: 50 });
 * console.log(page.meta?.totalPages);
 * ```
 */
export type ListingMeta = z.infer<typeof ListingMetaSchema>;

/**
 * The service's success envelope: `{ success: true, data, timestamp?, message?, meta? }`.
 *
 * @example
 * ```ts
 * import { EnvelopeSchema } from 'invoicing-sdk';
 * const body = { success: true, data: [], timestamp: '2026-11-01T09:00:00Z', meta: { total: 7, limit: 3 } };
 * EnvelopeSchema.parse(body).meta?.totalPages; // 3
 * EnvelopeSchema.safeParse({ ...body, meta: { totalPages: -1 } }).error?.issues[0]?.path; // ['meta', 'totalPages']
 * ```
 */
export const EnvelopeSchema = z.looseObject({
  /** Always `true` on a success. */
  success: z.literal(true),
  /** The resource, or the array of a listing. */
  data: z.unknown(),
  /** The server's clock when it answered (ISO 8601). */
  timestamp: z.string().optional().catch(undefined),
  /** Present on some answers only. */
  message: z.string().optional().catch(undefined),
  /** Listings only. `null` reads as absent. */
  meta: ListingMetaSchema.nullish().transform((meta) => meta ?? undefined),
});

/**
 * A success envelope as {@link EnvelopeSchema} reads it.
 *
 * @example
 * ```ts
 * import type { EnvelopeBody } from 'invoicing-sdk';
 * const body: EnvelopeBody = { success: true, data: { id: 'inv_1' }, timestamp: undefined, message: undefined, meta: undefined };
 * ```
 */
export type EnvelopeBody = z.infer<typeof EnvelopeSchema>;
