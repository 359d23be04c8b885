/**
 * The wire envelope: `{ success: true, data, timestamp, message? }`, and for listings `meta
 * { total, page, limit, totalPages }`. Extra fields are allowed (the service may add some). A body
 * that is not this envelope becomes an `InvalidResponseError`, never a `TypeError` further on.
 *
 * Hand-written rather than a schema library: the whole check is a few property reads, and it sits
 * on every request and in every bundle of the client. A zod schema of the same envelope was the
 * definition until 0.2.0 (about 10 KB gzip in a bundle, two thirds of the client's budget); it now
 * lives in the tests as the reference, and a property test holds this module to it
 * (test/core/envelope-reference.test.ts).
 */
import { requestIdOf, summarizeBody } from './error-hints.js';
import { InvalidResponseError } from './errors.js';

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

/** The envelope in `body` (parsed JSON), or `undefined` when it is not one. */
export function readEnvelope(body: unknown): Envelope | undefined {
  if (!isRecord(body) || body.success !== true || !('data' in body)) return undefined;
  const { timestamp, message } = body;
  return {
    data: body.data,
    timestamp: typeof timestamp === 'string' ? timestamp : undefined,
    message: typeof message === 'string' ? message : undefined,
    meta: readMeta(body.meta),
  };
}

/**
 * The envelope in `body` (parsed JSON, or the text when it was not JSON, or `undefined` when
 * empty), or an `InvalidResponseError` saying what was wrong with it.
 */
export function unwrapEnvelope(body: unknown, source: BodySource): Envelope {
  const envelope = readEnvelope(body);
  if (envelope === undefined) throw invalid(body, source, describeProblem(body));
  return envelope;
}

/**
 * Listing meta, or `undefined` when the body carries none that can be read. Every field is optional
 * on the wire; a count may come as a string of digits; `totalPages` is derived when missing.
 */
export function readMeta(meta: unknown): ListingMeta | undefined {
  if (!isRecord(meta)) return undefined;
  const total = readCount(meta.total);
  const page = readCount(meta.page);
  const limit = readCount(meta.limit);
  let totalPages = readCount(meta.totalPages);
  if (total === NOT_A_COUNT || page === NOT_A_COUNT || limit === NOT_A_COUNT || totalPages === NOT_A_COUNT) return undefined;
  if (totalPages === undefined && total !== undefined && limit !== undefined && limit > 0) {
    totalPages = Math.ceil(total / limit);
  }
  return { total, page, limit, totalPages };
}

const NOT_A_COUNT: unique symbol = Symbol('invoicing-sdk.not-a-count');
const DIGITS = /^\s*\d+\s*$/;

/** A non-negative safe integer, or a string of digits (read as a number); absent is `undefined`. */
function readCount(value: unknown): number | undefined | typeof NOT_A_COUNT {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : NOT_A_COUNT;
  return typeof value === 'string' && DIGITS.test(value) ? Number(value) : NOT_A_COUNT;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  if (!isRecord(body)) return 'The response is JSON but not the { success, data } envelope.';
  if (body.success === false) {
    const said = summarizeBody(body).message;
    return said === undefined ? 'The service answered success: false.' : `The service answered success: false: ${said}`;
  }
  if (!('data' in body)) return 'The response envelope has no data.';
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
