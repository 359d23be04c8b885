import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as errors from '../../../src/core/errors/index.js';
import { ERROR_NAMES, isErrorKind } from '../../../src/core/errors/names.js';
import { sampleErrors } from './samples.js';

describe('core/errors guards', () => {
  it('every class has a const name equal to its class name, listed in the family table', () => {
    for (const error of sampleErrors()) {
      expect(error.name).toBe(error.constructor.name);
      expect(ERROR_NAMES).toContain(error.name);
      expect(String(error)).toMatch(new RegExp(`^${error.name}: `));
      expect(error.stack?.startsWith(`${error.name}: `)).toBe(true);
    }
  });

  it('every guard agrees with instanceof for every error', () => {
    const guards = Object.entries(errors).filter(([key, value]) => key.startsWith('is') && typeof value === 'function') as [
      string,
      (v: unknown) => boolean,
    ][];
    expect(guards.length).toBeGreaterThanOrEqual(19);
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
