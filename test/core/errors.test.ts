import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/core/errors.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  BusinessNotFoundError,
  ConflictError,
  ERROR_NAMES,
  generateAPIError,
  IdempotencyConflictError,
  InternalServerError,
  isErrorKind,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ErrorResponse,
} from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redact.js';
import * as sdk from '../../src/index.js';
import type { Invoice } from '../../src/model/invoice.js';
import { sampleErrors } from './error-samples.js';

function make(status: number, body: unknown, extra: Partial<ErrorResponse> = {}): APIError {
  return generateAPIError({ status, headers: new Headers(), body, method: 'POST', path: '/api/v1/invoices', ...extra });
}

describe('core/errors APIError.generate', () => {
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

  it('is the same factory as generateAPIError', () => {
    const response: ErrorResponse = {
      status: 429,
      headers: new Headers({ 'retry-after': '2', 'x-request-id': 'req_9' }),
      body: { message: 'slow down', code: 'RATE' },
      method: 'GET',
      path: '/api/v1/invoices',
    };
    const viaClass = APIError.generate(response);
    const viaFunction = generateAPIError(response);
    expect(viaClass).toBeInstanceOf(RateLimitError);
    expect(viaClass.constructor).toBe(viaFunction.constructor);
    expect(viaClass.toJSON()).toEqual(viaFunction.toJSON());
    expect(viaClass.toJSON()).toMatchObject({ status: 429, code: 'RATE', requestId: 'req_9', retryAfter: 2000 });
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

describe('core/errors guards', () => {
  it('every class has a const name equal to its class name, listed in the family table', () => {
    const samples = sampleErrors();
    expect(new Set(samples.map((e) => e.name))).toEqual(new Set(ERROR_NAMES));
    for (const error of samples) {
      expect(error.name).toBe(error.constructor.name);
      expect(ERROR_NAMES).toContain(error.name);
      expect(String(error)).toMatch(new RegExp(`^${error.name}: `));
      expect(error.stack?.startsWith(`${error.name}: `)).toBe(true);
    }
  });

  it('exports every class and its guard from the package entry', () => {
    for (const name of ERROR_NAMES) {
      expect(typeof (sdk as Record<string, unknown>)[name], name).toBe('function');
      expect(typeof (sdk as Record<string, unknown>)[`is${name}`], `is${name}`).toBe('function');
    }
    expect(Object.keys(sdk)).not.toContain('isErrorKind');
    expect(Object.keys(sdk)).not.toContain('ERROR_NAMES');
  });

  it('every guard agrees with instanceof for every error', () => {
    const guards = Object.entries(errors).filter(
      ([key, value]) => /^is\w+Error$/.test(key) && typeof value === 'function',
    ) as [string, (v: unknown) => boolean][];
    expect(guards.map(([key]) => key.slice(2)).sort()).toEqual([...ERROR_NAMES].sort());
    for (const [guardName, guard] of guards) {
      const cls = (errors as Record<string, unknown>)[guardName.slice(2)] as new (...args: never[]) => Error;
      expect(typeof cls).toBe('function');
      for (const error of sampleErrors()) {
        expect(guard(error), `${guardName}(${error.name})`).toBe(error instanceof cls);
      }
    }
  });

  it('an InvalidTransitionError is a ConflictError whose status stays as the service answered', () => {
    const refusal = (status: number) =>
      new errors.InvalidTransitionError({
        invoiceId: 'inv_1',
        transition: 'submit',
        currentStatus: 'DRAFT',
        cause: errors.generateAPIError({ status, headers: new Headers(), body: { message: 'wrong state' }, method: 'POST', path: '/api/v1/invoices/inv_1/submit' }),
      });
    for (const status of [409, 400]) {
      const error = refusal(status);
      expect(error).toBeInstanceOf(errors.ConflictError);
      expect(errors.isConflictError(error)).toBe(true);
      expect(errors.isAPIError(error)).toBe(true);
      expect(errors.isIdempotencyConflictError(error)).toBe(false);
      expect(error.status).toBe(status);
    }
    const foreign = runInNewContext(`(() => { const e = new Error('x'); e.name = 'InvalidTransitionError'; return e; })()`) as unknown;
    expect(errors.isConflictError(foreign)).toBe(true);
  });

  it('guards work across realms, where instanceof does not', () => {
    const foreign = runInNewContext(`(() => { const e = new Error('x'); e.name = 'RateLimitError'; return e; })()`) as unknown;
    expect(foreign instanceof errors.RateLimitError).toBe(false);
    expect(errors.isRateLimitError(foreign)).toBe(true);
    expect(errors.isAPIError(foreign)).toBe(true);
    expect(errors.isInvoicingError(foreign)).toBe(true);
    expect(errors.isNotFoundError(foreign)).toBe(false);
  });

  it('guards reject non-errors safely', () => {
    for (const value of [undefined, null, 0, 'RateLimitError', {}, { name: 42 }, { name: 'Error' }]) {
      expect(errors.isInvoicingError(value)).toBe(false);
    }
    expect(isErrorKind({ name: 'toString' }, 'InvoicingError')).toBe(false);
  });
});

describe('core/errors ResponseTooLargeError', () => {
  it('is an APIError that carries the limit, with a message naming it', () => {
    const error = new errors.ResponseTooLargeError({ status: 200, method: 'GET', path: '/api/v1/invoices', limit: 10_485_760 });
    expect(errors.isAPIError(error)).toBe(true);
    expect(errors.isResponseTooLargeError(error)).toBe(true);
    expect(errors.isInvalidResponseError(error)).toBe(false);
    expect(error.limit).toBe(10_485_760);
    expect(error.message).toBe('Response body larger than 10485760 bytes; it was not read.');
    expect(error.toJSON()).toMatchObject({ name: 'ResponseTooLargeError', status: 200, method: 'GET', path: '/api/v1/invoices', limit: 10_485_760 });
    expect(new errors.ResponseTooLargeError({ message: 'too big', limit: 1 }).message).toBe('too big');
  });
});

describe('core/errors InvalidInputError', () => {
  it('is a local InvoicingError with the path into the input and a hint', () => {
    const path: (string | number)[] = ['lines', 2, 'meta'];
    const error = new errors.InvalidInputError({ message: 'lines[2].meta refers to itself', hint: 'Pass plain data.', path });
    path.push('changed');
    expect(errors.isInvoicingError(error)).toBe(true);
    expect(errors.isInvalidInputError(error)).toBe(true);
    expect(errors.isAPIError(error)).toBe(false);
    expect(error.path).toEqual(['lines', 2, 'meta']);
    expect(error.hint).toBe('Pass plain data.');
    expect(error.toJSON()).toEqual({ name: 'InvalidInputError', message: 'lines[2].meta refers to itself', hint: 'Pass plain data.', path: ['lines', 2, 'meta'] });
    expect(new errors.InvalidInputError({ message: 'not plain data' }).toJSON()).toEqual({ name: 'InvalidInputError', message: 'not plain data' });
  });
});

describe('core/errors RecoveryInProgressError', () => {
  const invoice = { id: 'inv_7', status: 'ERROR', rawStatus: 'Error' } as unknown as Invoice;

  it('says when the next automatic attempt is due, how many are left, and that force sends anyway', () => {
    const error = new errors.RecoveryInProgressError({ invoiceId: 'inv_7', nextAttemptAt: '2026-05-01T10:20:00.000Z', attemptsLeft: 2, invoice });
    expect(errors.isRecoveryInProgressError(error)).toBe(true);
    expect(errors.isAPIError(error)).toBe(false);
    expect(error.message).toBe(
      'Invoice inv_7 is in automatic recovery: the next automatic attempt is due by 2026-05-01T10:20:00.000Z (2 automatic attempts left). ' +
        'Submit was not sent; pass { force: true } to send it anyway.',
    );
    expect(error).toMatchObject({ invoiceId: 'inv_7', nextAttemptAt: '2026-05-01T10:20:00.000Z', attemptsLeft: 2, invoice });
    expect(error.hint).toContain("client.invoices.waitFor('inv_7')");
    expect(error.toJSON()).toMatchObject({ invoiceId: 'inv_7', nextAttemptAt: '2026-05-01T10:20:00.000Z', attemptsLeft: 2 });
    expect(error.toJSON()).not.toHaveProperty('invoice');
  });

  it('says so when the time of the next attempt is not known, and takes a hint of its own', () => {
    const error = new errors.RecoveryInProgressError({ invoiceId: 'inv_7', attemptsLeft: 1, hint: 'Wait.' });
    expect(error.message).toContain('when the next attempt is due is not known');
    expect(error.message).toContain('(1 automatic attempt left)');
    expect(error.message).toContain('{ force: true }');
    expect(error.hint).toBe('Wait.');
    expect(new errors.RecoveryInProgressError({ invoiceId: 'inv_7' }).message).not.toContain('left)');
  });
});

describe('core/errors secrets', () => {
  it('scrubs a secret from message, hint, code, request id, path, body and cause, and from toJSON and inspect', () => {
    const secret = 'sk_test_errors_0123456789abcdef';
    const error = new errors.BadRequestError({
      redactor: new Redactor([secret]),
      message: `bad key ${secret}`,
      hint: `use ${secret}`,
      code: secret,
      requestId: secret,
      path: `/api/v1/invoices/${secret}`,
      body: { nested: [{ key: secret }] },
      cause: Object.assign(new Error(`socket ${secret}`), { request: { headers: { 'x-api-key': secret } } }),
    });
    const shown = [error.message, error.hint, error.code, error.requestId, error.path, JSON.stringify(error.body), JSON.stringify(error), inspect(error, { depth: Infinity }), String(error.cause), error.stack];
    for (const text of shown) expect(text).not.toContain(secret);
    expect((error.cause as Record<string, unknown>).request).toBeUndefined();
  });
});

/**
 * The classes as the build ships them: esbuild renames a class whose body names itself (`class
 * _InvoicingError`), which `err.constructor.name` would show, and the ESM and CommonJS builds are two
 * copies of every class in one process.
 */
describe('core/errors as bundled', () => {
  async function bundle(format: 'esm' | 'cjs'): Promise<string> {
    const result = await build({
      entryPoints: [join(import.meta.dirname, '../../src/core/errors.ts')],
      bundle: true,
      format,
      platform: 'neutral',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  }

  async function copies(): Promise<{ esm: typeof errors; cjs: typeof errors }> {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-errors-'));
    try {
      const file = join(dir, 'errors.mjs');
      writeFileSync(file, await bundle('esm'));
      const esm = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof errors;
      const module = { exports: {} as typeof errors };
      new Function('module', 'exports', await bundle('cjs'))(module, module.exports);
      return { esm, cjs: module.exports };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('shows the class name as constructor.name in both builds', async () => {
    const { esm, cjs } = await copies();
    for (const build of [esm, cjs]) {
      for (const name of ERROR_NAMES) {
        const cls = (build as Record<string, unknown>)[name] as { name: string };
        expect(cls.name).toBe(name);
      }
      const error = new build.InvoicingError('x');
      expect(error.constructor.name).toBe('InvoicingError');
      expect(new build.APIError({ message: 'x' }).constructor.name).toBe('APIError');
    }
  });

  it('has the guards of one copy recognise the errors of the other', async () => {
    const { esm, cjs } = await copies();
    const fromCjs = cjs.generateAPIError({ status: 429, headers: new Headers(), body: 'slow', method: 'GET', path: '/x' });
    expect(fromCjs instanceof esm.RateLimitError).toBe(false);
    expect(esm.isRateLimitError(fromCjs)).toBe(true);
    expect(esm.isAPIError(fromCjs)).toBe(true);
    const fromEsm = new esm.FilingError({ invoiceId: 'inv_1', step: 'sign', cause: fromCjs });
    expect(cjs.isFilingError(fromEsm)).toBe(true);
    expect(cjs.isAPIError(fromEsm)).toBe(false);
    expect(errors.isRecoveryInProgressError(new cjs.RecoveryInProgressError({ invoiceId: 'inv_1' }))).toBe(true);
  });
});
