// The `{ success, data, timestamp, message?, meta? }` envelope, read with the model's zod schemas; anything else is an InvalidResponseError naming the field.
import * as z from 'zod/mini';
import { requestIdOf, summarizeBody } from './error-hints.js';
import { InvalidResponseError } from './errors.js';
import type { Redactor } from './redact.js';
import { EnvelopeSchema, TolerantEnvelopeSchema, type ListingMeta } from '../model/listing.js';

export type { ListingMeta } from '../model/listing.js';

export interface Envelope {
  data: unknown;
  /** The server's clock when it answered. */ timestamp: string | undefined;
  message: string | undefined;
  /** Present on listings. */ meta: ListingMeta | undefined;
}

export function readEnvelope(body: unknown): Envelope | undefined {
  const parsed = TolerantEnvelopeSchema.safeParse(body);
  return parsed.success ? toEnvelope(parsed.data) : undefined;
}

export function unwrapEnvelope(body: unknown, source: Source): Envelope {
  const parsed = EnvelopeSchema.safeParse(body);
  if (parsed.success) return toEnvelope(parsed.data);
  const wrapped = isRecord(body) && body.success === true && 'data' in body;
  throw invalidResponse({ ...source, body }, {
    message: wrapped ? describeIssue(parsed.error.issues[0]!) : describeProblem(body),
    code: summarizeBody(body).code,
    hint:
      'The service answered with a success status but not the documented envelope; a proxy or ' +
      'gateway may have answered instead. The request may have taken effect: read the resource ' +
      'before repeating a mutating call.',
  });
}

function toEnvelope(body: { data?: unknown; timestamp?: string | undefined; message?: string | undefined; meta?: ListingMeta | undefined }): Envelope {
  return { data: body.data, timestamp: body.timestamp, message: body.message, meta: body.meta };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.');
  return `The response envelope's ${field === '' ? 'body' : field} cannot be read: ${issue.message}.`;
}

function describeProblem(body: unknown): string {
  if (body === undefined) return 'The response body is empty; expected the { success, data } envelope.';
  if (typeof body === 'string') {
    if (/^\s*[{[]/.test(body)) return 'The response body is not valid JSON (truncated or malformed).';
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

type Source = { status: number; headers: Headers | undefined; method: string; path: string; redactor?: Redactor | undefined };

export function invalidResponse(
  { status, body, headers, method, path, redactor }: Source & { body: unknown },
  init: { message: string; hint?: string | undefined; cause?: unknown; code?: string | undefined },
): InvalidResponseError {
  return new InvalidResponseError({ ...init, status, body, requestId: requestIdOf(headers), method, path, redactor });
}
