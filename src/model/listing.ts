/** The success envelope and a listing's `meta`. The envelope's fields are getters: zod builds them on first use. */
import * as z from 'zod/mini';
import { lazySchema } from './lazy.js';

const digitCount = () => z.pipe(z.string().check(z.regex(/^\s*\d+\s*$/, 'a count written as digits')), z.transform(Number));
const countSchema = () => z.optional(z.union([
  z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER)),
  z.pipe(digitCount(), z.number().check(z.maximum(Number.MAX_SAFE_INTEGER))),
]));

// Plain properties, not getters: typedoc reads the fields' comments only from those.
const metaObject = () => z.looseObject({
  /** Items across all pages. */ total: countSchema(),
  /** This page, from 1. */ page: countSchema(),
  /** Page size. */ limit: countSchema(),
  /** Number of pages; computed from `total` and `limit` when absent. */ totalPages: countSchema(),
});

/**
 * A listing's `meta`.
 * @example
 * ```ts
 * ListingMetaSchema.parse({ total: 25, page: 1, limit: 10 }).totalPages; // 3
 * ```
 */
export const ListingMetaSchema = /* @__PURE__ */ lazySchema(() => z.pipe(
  metaObject(),
  z.transform((meta: z.infer<ReturnType<typeof metaObject>>) =>
    meta.totalPages === undefined && meta.total !== undefined && meta.limit !== undefined && meta.limit > 0
      ? { ...meta, totalPages: Math.ceil(meta.total / meta.limit) }
      : meta,
  ),
));

/**
 * A listing's `meta`: every count may be missing.
 * @example
 * ```ts
 * console.log((await client.invoices.list()).meta?.totalPages);
 * ```
 */
export type ListingMeta = z.infer<typeof ListingMetaSchema>;

// `null` reads as absent.
const meta = () => z.pipe(z.nullish(ListingMetaSchema), z.transform((value: ListingMeta | null | undefined) => value ?? undefined));

const envelope = <M extends z.ZodMiniType>(metaSchema: () => M) =>
  z.looseObject({
    get success() { return z.literal(true); },
    /** The resource, or the array of a listing. */ get data() { return z.unknown(); },
    /** The server's clock when it answered (ISO 8601). */ get timestamp() { return z.catch(z.optional(z.string()), undefined); },
    get message() { return z.catch(z.optional(z.string()), undefined); },
    get meta() { return metaSchema(); },
  });

export const EnvelopeSchema = /* @__PURE__ */ lazySchema(() => envelope(meta));

/** The envelope of routes with unshown bodies: an unreadable `meta` is dropped rather than failing a call that does not page. */
export const TolerantEnvelopeSchema = /* @__PURE__ */ lazySchema(() => envelope(() => z.catch(meta(), undefined)));
