import { describe, expect, it } from 'vitest';
import { isInvalidResponseError } from '../../src/core/errors.js';
import { unwrapEnvelope } from '../../src/core/envelope.js';
import { ListingMetaSchema } from '../../src/model/listing.js';

const source = { status: 200, headers: new Headers({ 'x-request-id': 'req_9' }), method: 'GET', path: '/api/v1/invoices' };

function failure(body: unknown): Error & { status?: number; requestId?: string } {
  try {
    unwrapEnvelope(body, source);
  } catch (error) {
    expect(isInvalidResponseError(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected unwrapEnvelope to throw');
}

describe('core/envelope', () => {
  it('unwraps data, timestamp and message, allowing extra fields', () => {
    expect(unwrapEnvelope({ success: true, data: { id: 1 }, timestamp: 't', message: 'ok', extra: 1 }, source)).toEqual({
      data: { id: 1 },
      timestamp: 't',
      message: 'ok',
      meta: undefined,
    });
  });

  it('accepts data: null and a missing message', () => {
    expect(unwrapEnvelope({ success: true, data: null, timestamp: 't' }, source).data).toBeNull();
  });

  it('unwraps listing meta, numeric strings included', () => {
    const env = unwrapEnvelope({ success: true, data: [], meta: { total: '7', page: 2, limit: 3, totalPages: 3 } }, source);
    expect(env.meta).toEqual({ total: 7, page: 2, limit: 3, totalPages: 3 });
  });

  it('derives totalPages when the meta leaves it out', () => {
    expect(ListingMetaSchema.safeParse({ total: 7, limit: 3 }).data?.totalPages).toBe(3);
    expect(ListingMetaSchema.safeParse({ total: 0, limit: 3 }).data?.totalPages).toBe(0);
    expect(ListingMetaSchema.safeParse('nope').data).toBeUndefined();
  });

  it.each([
    ['an HTML page', '<html><title>Login</title></html>', /got "Login \(HTML response\)"/],
    ['truncated JSON', '{"success":true,"data":{"id":', /not valid JSON/],
    ['success: false', { success: false, message: 'Invoice locked' }, /success: false: Invoice locked/],
    ['a missing data', { success: true, timestamp: 't' }, /no data/],
    ['an empty body', undefined, /empty/],
    ['a bare array', [1, 2], /not the \{ success, data \} envelope/],
    ['a number', 42, /not the \{ success, data \} envelope/],
  ])('turns %s into an InvalidResponseError', (_label, body, message) => {
    const error = failure(body);
    expect(error.message).toMatch(message);
    expect(error).toMatchObject({ status: 200, requestId: 'req_9' });
  });
});
