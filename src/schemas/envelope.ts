/**
 * The wire envelope: `{ success: true, data, timestamp, message? }`, and for listings `meta
 * { total, page, limit, totalPages }`. Extra fields are allowed (the service may add some). A body
 * that is not this envelope becomes an `InvalidResponseError`, never a `TypeError` further on.
 *
 * This module pulls in zod; the transport loads it on the first request, so importing the SDK stays
 * fast.
 */
import * as z from 'zod';
import { summarizeBody } from '../core/errors/body-message.js';
import { requestIdOf } from '../core/errors/generate.js';
import { InvalidResponseError } from '../core/errors/invalid-response-error.js';

const count = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\s*\d+\s*$/)
    .transform((s) => Number(s)),
]);

/** Listing metadata. Every field optional on the wire; `totalPages` is derived when missing. */
export const ListingMetaSchema = z.looseObject({
  total: count.optional(),
  page: count.optional(),
  limit: count.optional(),
  totalPages: count.optional(),
});

/** The success envelope. `data` must be present (it may be `null`). */
export const EnvelopeSchema = z.looseObject({
  success: z.literal(true),
  data: z.unknown(),
  timestamp: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  meta: z.unknown().optional(),
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
  const { total, page, limit } = parsed.data;
  let { totalPages } = parsed.data;
  if (totalPages === undefined && total !== undefined && limit !== undefined && limit > 0) {
    totalPages = Math.ceil(total / limit);
  }
  return { total, page, limit, totalPages };
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
