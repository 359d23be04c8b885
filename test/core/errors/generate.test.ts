import { describe, expect, it } from 'vitest';
import { APIError } from '../../../src/core/errors/api-error.js';
import { AuthenticationError } from '../../../src/core/errors/authentication-error.js';
import { BadRequestError } from '../../../src/core/errors/bad-request-error.js';
import { BusinessNotFoundError } from '../../../src/core/errors/business-not-found-error.js';
import { ConflictError } from '../../../src/core/errors/conflict-error.js';
import { generateAPIError, type ErrorResponse } from '../../../src/core/errors/generate.js';
import { IdempotencyConflictError } from '../../../src/core/errors/idempotency-conflict-error.js';
import { InternalServerError } from '../../../src/core/errors/internal-server-error.js';
import { NotFoundError } from '../../../src/core/errors/not-found-error.js';
import { PermissionDeniedError } from '../../../src/core/errors/permission-denied-error.js';
import { RateLimitError } from '../../../src/core/errors/rate-limit-error.js';

function make(status: number, body: unknown, extra: Partial<ErrorResponse> = {}): APIError {
  return generateAPIError({ status, headers: new Headers(), body, method: 'POST', path: '/api/v1/invoices', ...extra });
}

describe('core/errors/generate', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
    [418, APIError],
  ])('picks the class for HTTP %i', (status, cls) => {
    const error = make(status, undefined);
    expect(error).toBeInstanceOf(cls);
    expect(error.constructor).toBe(cls);
    expect(error.status).toBe(status);
  });

  it('reads a NestJS body with a string message', () => {
    const error = make(400, { statusCode: 400, message: 'dueDate must be an ISO 8601 date string', error: 'Bad Request' });
    expect(error.message).toBe('dueDate must be an ISO 8601 date string');
  });

  it('reads a NestJS body with an array message', () => {
    const error = make(400, { statusCode: 400, message: ['lines should not be empty', 'buyer.type must be one of B2B, B2C, B2G'], error: 'Bad Request' });
    expect(error.message).toBe('lines should not be empty; buyer.type must be one of B2B, B2C, B2G');
  });

  it('reads { error } as a string and as an object with a code', () => {
    expect(make(400, { error: 'Invalid buyer' }).message).toBe('Invalid buyer');
    const nested = make(400, { error: { message: 'Invalid buyer', code: 'BUYER_INVALID' } });
    expect(nested.message).toBe('Invalid buyer');
    expect(nested.code).toBe('BUYER_INVALID');
  });

  it('reads { errors: [...] } of strings and of field objects', () => {
    expect(make(400, { errors: ['a is wrong', 'b is wrong'] }).message).toBe('a is wrong; b is wrong');
    expect(make(400, { errors: [{ field: 'buyer.tin', message: 'is required' }, { path: ['lines', 0], msg: 'bad' }] }).message).toBe(
      'buyer.tin: is required; lines.0: bad',
    );
  });

  it('combines a generic message with the listed field errors', () => {
    expect(make(400, { message: 'Validation failed', errors: [{ field: 'dueDate', message: 'required' }] }).message).toBe(
      'Validation failed: dueDate: required',
    );
  });

  it('reads a code where the body has one', () => {
    expect(make(400, { message: 'x', code: 'E_BAD' }).code).toBe('E_BAD');
    expect(make(400, { message: 'x', errorCode: 1234 }).code).toBe('1234');
    expect(make(400, { message: 'x', error: 'Bad Request' }).code).toBeUndefined();
  });

  it('reads plain text', () => {
    expect(make(500, 'upstream exploded\n').message).toBe('upstream exploded');
  });

  it('reads an HTML page by its title and does not copy the page into the message', () => {
    const html = `<html><head><title>503 Service Temporarily Unavailable</title></head><body>${'x'.repeat(5000)}</body></html>`;
    const error = make(503, html);
    expect(error.message).toBe('503 Service Temporarily Unavailable (HTML response)');
    expect(error.body).toBe(html);
  });

  it('bounds a long text message', () => {
    expect(make(500, 'y'.repeat(2000)).message.length).toBeLessThanOrEqual(501);
  });

  it('falls back to the status when the body says nothing', () => {
    expect(make(502, undefined).message).toBe('502 Bad Gateway');
    expect(make(500, {}).message).toBe('500 Internal Server Error');
    expect(make(418, null).message).toBe('418 HTTP error');
  });

  it('reads an RFC 7807 problem body', () => {
    expect(make(403, { type: 'about:blank', title: 'Forbidden', detail: 'Missing scope invoices:write' }).message).toBe(
      'Missing scope invoices:write',
    );
  });

  it('takes requestId from x-request-id, method and path from the request', () => {
    const error = make(500, 'boom', { headers: new Headers({ 'x-request-id': 'req_123' }), method: 'GET', path: '/api/v1/invoices/x' });
    expect(error).toMatchObject({ requestId: 'req_123', method: 'GET', path: '/api/v1/invoices/x' });
  });

  it('makes a 404 "Business not found" a BusinessNotFoundError with the BUSINESS-key hint', () => {
    const error = make(404, { statusCode: 404, message: 'Business not found', error: 'Not Found' });
    expect(error).toBeInstanceOf(BusinessNotFoundError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('Business not found');
    expect(error.hint).toMatch(/not owned/);
    expect(error.hint).toMatch(/BUSINESS key/);
    expect(error.hint).toMatch(/USER key/);
  });

  it('keeps other 404s a plain NotFoundError', () => {
    const error = make(404, { message: 'Invoice not found' }, { method: 'GET', path: '/api/v1/invoices/x' });
    expect(error.constructor).toBe(NotFoundError);
    expect(error.hint).toBeUndefined();
  });

  it('makes a 409 about the idempotency key an IdempotencyConflictError', () => {
    const error = make(409, { message: 'Idempotency key already used with a different request body' });
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.hint).toMatch(/deriveIdempotencyKey/);
    expect(make(409, { message: 'Invoice already signed' }).constructor).toBe(ConflictError);
  });

  it('carries Retry-After on a RateLimitError, in milliseconds', () => {
    const error = make(429, 'slow', { headers: new Headers({ 'retry-after': '3' }) });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3000);
    expect((make(429, 'slow') as RateLimitError).retryAfter).toBeUndefined();
  });

  describe('hints', () => {
    it('401 says only X-API-Key works and keys are revoked by a newer key of the same type', () => {
      const hint = make(401, { message: 'Unauthorized' }).hint ?? '';
      expect(hint).toMatch(/Only the X-API-Key header/);
      expect(hint).toMatch(/revokes the existing key of the same type/);
    });

    it('401 on a key-management route speaks of the session token', () => {
      const hint = make(401, { message: 'Unauthorized' }, { method: 'GET', path: '/api/v1/api-key' }).hint ?? '';
      expect(hint).toMatch(/session token/);
    });

    it.each([
      ['POST', '/api/v1/invoices/inv_1/validate'],
      ['POST', '/api/v1/invoices/inv_1/sign'],
      ['POST', '/api/v1/invoices/inv_1/submit'],
    ])('403 on %s %s names the documented scope invoices:write', (method, path) => {
      const hint = make(403, { message: 'Forbidden' }, { method, path }).hint ?? '';
      expect(hint).toContain('This call needs the scope invoices:write.');
      expect(hint).not.toMatch(/probably|does not document/);
    });

    it.each([
      ['POST', '/api/v1/invoices', 'invoices:write'],
      ['GET', '/api/v1/invoices', 'invoices:read'],
      ['GET', '/api/v1/invoices/inv_1', 'invoices:read'],
      ['GET', '/api/v1/invoices/inv_1/sign', 'invoices:read'],
      ['GET', '/api/v1/taxauth/hs-codes', 'taxauth:read'],
    ])('403 on %s %s says the scope is probably %s, undocumented', (method, path, scope) => {
      expect(make(403, { message: 'Forbidden' }, { method, path }).hint).toContain(
        `probably the scope ${scope} (the service does not document this route's scope)`,
      );
    });

    it('403 on a route with no known scope names none', () => {
      const hint = make(403, { message: 'Forbidden' }, { method: 'GET', path: '/api/v1/businesses' }).hint ?? '';
      expect(hint).toContain('a scope this key does not hold');
    });

    it('a classification 400 names the line and field and the lookup endpoints', () => {
      const hint = make(400, { message: ['lines.2.hsnCode has an invalid or missing classification code'] }).hint ?? '';
      expect(hint).toContain('Line 3 (lines[2].hsnCode)');
      expect(hint).toContain('/api/v1/taxauth/hs-codes');
      expect(hint).toContain('/api/v1/taxauth/service-codes');
    });

    it('a classification 400 that counts lines from 1 is read as such', () => {
      const hint = make(400, { message: 'Line 1 has an invalid or missing classification code' }).hint ?? '';
      expect(hint).toContain('Line 1 (lines[0])');
    });

    it('a classification 400 without a line says how to find it', () => {
      const hint = make(400, { message: 'has an invalid or missing classification code' }).hint ?? '';
      expect(hint).toContain('checkInvoice(input)');
      expect(hint).toContain('/api/v1/taxauth/service-codes');
    });

    it('a 400 for a missing idempotency-key says the SDK sends it', () => {
      expect(make(400, { message: 'idempotency-key header is required' }).hint).toMatch(/custom fetch or proxy/);
    });
  });
});
