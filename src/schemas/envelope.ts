/**
 * The wire envelope: `{ success: true, data, timestamp, message? }`, and for listings `meta
 * { total, page, limit, totalPages }`. Extra fields are allowed (the service may add some). A body
 * that is not this envelope becomes an `InvalidResponseError`, never a `TypeError` further on.
 *
 * These schemas are the definition. The transport first tries `envelope-fast.ts`, which reads a
 * well-formed envelope the same way without zod, and loads this module (and zod with it) only for a
 * body that the fast path cannot settle. zod/mini rather than classic zod: the same checks, a
 * fraction of the bundle.
 */
import * as z from 'zod/mini';
import { summarizeBody } from '../core/errors/body-message.js';
import { requestIdOf } from '../core/errors/generate.js';
import { InvalidResponseError } from '../core/errors/invalid-response-error.js';
import { completeMeta } from './envelope-fast.js';

const count = z.union([
  z.int().check(z.nonnegative()),
  z.pipe(
    z.string().check(z.regex(/^\s*\d+\s*$/)),
    z.transform((s) => Number(s)),
  ),
]);

/** Listing metadata. Every field optional on the wire; `totalPages` is derived when missing. */
export const ListingMetaSchema = z.looseObject({
  total: z.optional(count),
  page: z.optional(count),
  limit: z.optional(count),
  totalPages: z.optional(count),
});

/** The success envelope. `data` must be present (it may be `null`). */
export const EnvelopeSchema = z.looseObject({
  success: z.literal(true),
  data: z.unknown(),
  timestamp: z.catch(z.optional(z.string()), undefined),
  message: z.catch(z.optional(z.string()), undefined),
  meta: z.optional(z.unknown()),
});

/**
 * Listing metadata as the SDK uses it.
 *
 * @example
 * ```ts
 * const page = await client.invoices.list({ limit: 50 });
 * console.log(`${page.meta?.page} of ${page.meta?.totalPages}`);
 * ```
 */
export interface ListingMeta {
  /** Items across all pages. */
  total: number | undefined;
  /** This page, from 1. */
  page: number | undefined;
  /** Page size. */
  limit: number | undefined;
  /** Number of pages; computed by the service. */
  totalPages: number | undefined;
}

/** An unwrapped success envelope. */
export interface Envelope {
  data: unknown;
  /** The server's clock when it answered. */
  timestamp: string | undefined;
  message: string | undefined;
  /** Present on listings. */
  meta: ListingMeta | undefined;
}

/** Where a body came from, for the error if it is not the envelope. */
export interface BodySource {
  status: number;
  headers: Headers | undefined;
  method: string;
  path: string;
}

/**
 * The envelope in `body` (parsed JSON, or the text when it was not JSON, or `undefined` when
 * empty), or an `InvalidResponseError` saying what was wrong with it.
 */
export function unwrapEnvelope(body: unknown, source: BodySource): Envelope {
  const parsed = EnvelopeSchema.safeParse(body);
  if (!parsed.success) throw invalid(body, source, describeProblem(body));
  const envelope = parsed.data;
  return {
    data: envelope.data,
    timestamp: envelope.timestamp,
    message: envelope.message,
    meta: readMeta(envelope.meta),
  };
}

/** Listing meta, or `undefined` when the body carries none that can be read. */
export function readMeta(meta: unknown): ListingMeta | undefined {
  const parsed = ListingMetaSchema.safeParse(meta);
  if (!parsed.success) return undefined;
  const { total, page, limit, totalPages } = parsed.data;
  return completeMeta(total, page, limit, totalPages);
}

function describeProblem(body: unknown): string {
  if (body === undefined) return 'The response body is empty; expected the { success, data } envelope.';
  if (typeof body === 'string') {
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      return 'The response body is not valid JSON (truncated or malformed).';
    }
    const summary = summarizeBody(body).message;
    return `Expected a JSON envelope, got ${summary === undefined ? 'text' : `"${summary}"`}.`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'The response is JSON but not the { success, data } envelope.';
  }
  const record = body as Record<string, unknown>;
  if (record.success === false) {
    const said = summarizeBody(body).message;
    return said === undefined ? 'The service answered success: false.' : `The service answered success: false: ${said}`;
  }
  if (!Object.hasOwn(record, 'data')) return 'The response envelope has no data.';
  return 'The response is JSON but not the { success: true, data } envelope.';
}

function invalid(body: unknown, source: BodySource, message: string): InvalidResponseError {
  return new InvalidResponseError({
    message,
    status: source.status,
    code: summarizeBody(body).code,
    body,
    requestId: requestIdOf(source.headers),
    method: source.method,
    path: source.path,
    hint:
      'The service answered with a success status but not the documented envelope; a proxy or ' +
      'gateway may have answered instead. The request may have taken effect: read the resource ' +
      'before repeating a mutating call.',
  });
}
