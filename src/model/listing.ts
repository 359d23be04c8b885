/**
 * The `meta` object of a listing envelope: `total`, `page`, `limit`, `totalPages` (integers;
 * `totalPages` already computed by the service). Counts written as digits are read as numbers; when
 * `totalPages` is missing it is computed from `total` and `limit`.
 */
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
 * A listing's `meta`. Unknown fields are kept; a count that is not a non-negative integer fails with
 * the field's name as the issue path.
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
