/**
 * The fast path of envelope validation, without zod. A well-formed answer of the service (a plain
 * object with `success: true` and `data`, listing meta made of counts) is recognised here with a few
 * property reads, and read exactly as the zod schemas in `envelope.ts` would read it. Anything else
 * (a string count, an odd prototype, not an envelope at all) is left to those schemas, which stay
 * the definition: this module only answers where their answer is certain, and `undefined` means
 * "ask zod". So the SDK still validates every response at runtime, but the common case costs no
 * schema machinery, and zod is loaded only when a body needs it (which keeps import time and the
 * request path short).
 *
 * A property test holds the two paths to the same answers (test/schemas/envelope-fast.test.ts).
 */
import type { Envelope, ListingMeta } from './envelope.js';

/** What {@link readMetaFast} returns when only the zod schema can decide. */
export const UNDECIDED: unique symbol = Symbol('invoicing-sdk.undecided');

/** The envelope in `body` when it is certainly one, as `unwrapEnvelope` reads it; else `undefined`. */
export function readEnvelopeFast(body: unknown): Envelope | undefined {
  if (!isPlainObject(body) || body.success !== true || !Object.hasOwn(body, 'data')) return undefined;
  const meta = readMetaFast(body.meta);
  if (meta === UNDECIDED) return undefined;
  const { timestamp, message } = body;
  return {
    data: body.data,
    timestamp: typeof timestamp === 'string' ? timestamp : undefined,
    message: typeof message === 'string' ? message : undefined,
    meta,
  };
}

/** Listing meta as `readMeta` reads it, or {@link UNDECIDED} when only the schema can tell. */
export function readMetaFast(meta: unknown): ListingMeta | undefined | typeof UNDECIDED {
  // Not an object: the schema rejects it, and unreadable meta reads as none.
  if (meta === undefined || meta === null || typeof meta !== 'object') return undefined;
  if (!isPlainObject(meta)) return UNDECIDED;
  const { total, page, limit, totalPages } = meta;
  if (!isCount(total) || !isCount(page) || !isCount(limit) || !isCount(totalPages)) return UNDECIDED;
  return completeMeta(total, page, limit, totalPages);
}

/** Listing meta with `totalPages` derived from `total` and `limit` when the service left it out. */
export function completeMeta(
  total: number | undefined,
  page: number | undefined,
  limit: number | undefined,
  totalPages: number | undefined,
): ListingMeta {
  if (totalPages === undefined && total !== undefined && limit !== undefined && limit > 0) {
    totalPages = Math.ceil(total / limit);
  }
  return { total, page, limit, totalPages };
}

/** An absent count, or one the schema takes as it is (a non-negative safe integer). */
function isCount(value: unknown): value is number | undefined {
  return value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
