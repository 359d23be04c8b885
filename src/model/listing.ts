/** The `meta` object of a listing envelope. */
import * as z from 'zod/mini';

const count = z.union([
  z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER)),
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\s*\d+\s*$/, 'a count written as digits')), z.transform(Number)),
    z.number().check(z.maximum(Number.MAX_SAFE_INTEGER)),
  ),
]);

const MetaObject = z.looseObject({
  /** Items across all pages. */
  total: z.optional(count),
  /** This page, from 1. */
  page: z.optional(count),
  /** Page size. */
  limit: z.optional(count),
  /** Number of pages; computed by the service. */
  totalPages: z.optional(count),
});

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
export const ListingMetaSchema = z.pipe(
  MetaObject,
  z.transform((meta: z.infer<typeof MetaObject>) =>
    meta.totalPages === undefined && meta.total !== undefined && meta.limit !== undefined && meta.limit > 0
      ? { ...meta, totalPages: Math.ceil(meta.total / meta.limit) }
      : meta,
  ),
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

/** The service's success envelope: `{ success: true, data, timestamp?, message?, meta? }`. */
export const EnvelopeSchema = z.looseObject({
  /** Always `true` on a success. */
  success: z.literal(true),
  /** The resource, or the array of a listing. */
  data: z.unknown(),
  /** The server's clock when it answered (ISO 8601). */
  timestamp: z.catch(z.optional(z.string()), undefined),
  /** Present on some answers only. */
  message: z.catch(z.optional(z.string()), undefined),
  /** Listings only. `null` reads as absent. */
  meta: z.pipe(z.nullish(ListingMetaSchema), z.transform((meta: ListingMeta | null | undefined) => meta ?? undefined)),
});
