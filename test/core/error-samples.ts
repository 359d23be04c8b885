/** One instance of every error class, built the way the SDK builds them, for tests over the family. */
import type { CheckReport } from '../../src/check/index.js';
import * as errors from '../../src/core/errors.js';
import type { Invoice } from '../../src/model/invoice.js';

export const failingReport: CheckReport = {
  ok: false,
  errors: [
    { code: 'LINE_CLASSIFICATION_MISSING', severity: 'error', path: ['lines', 0, 'hsnCode'], message: 'Line 1 has no classification code.' },
    { code: 'BUYER_TYPE_INVALID', severity: 'error', path: ['buyer', 'type'], message: 'buyer.type must be B2B, B2C or B2G.' },
    { code: 'DUE_DATE_INVALID', severity: 'error', path: ['dueDate'], message: 'dueDate must be an ISO 8601 date-time.' },
    { code: 'LINES_EMPTY', severity: 'error', path: [], message: 'At least one line.' },
  ],
  warnings: [],
  totals: undefined,
} as unknown as CheckReport;

export function sampleErrors(body: unknown = { message: 'boom' }, cause: unknown = new Error('underlying')): Error[] {
  const init = { message: 'service said no', status: 400, body, method: 'POST', path: '/api/v1/invoices', cause };
  return [
    new errors.InvoicingError('plain', { hint: 'do this', cause }),
    new errors.APIError(init),
    new errors.BadRequestError(init),
    new errors.AuthenticationError({ ...init, status: 401 }),
    new errors.PermissionDeniedError({ ...init, status: 403 }),
    new errors.NotFoundError({ ...init, status: 404 }),
    new errors.BusinessNotFoundError({ ...init, status: 404 }),
    new errors.ConflictError({ ...init, status: 409 }),
    new errors.IdempotencyConflictError({ ...init, status: 409 }),
    new errors.RateLimitError({ ...init, status: 429, retryAfter: 1000 }),
    new errors.InternalServerError({ ...init, status: 500 }),
    new errors.InvalidResponseError({ ...init, status: 200 }),
    new errors.ResponseTooLargeError({ ...init, status: 200, limit: 1024 }),
    new errors.APIConnectionError({ method: 'GET', path: '/api/v1/invoices', cause }),
    new errors.APIConnectionTimeoutError({ method: 'GET', path: '/api/v1/invoices' }),
    new errors.APIUserAbortError({ method: 'GET', path: '/api/v1/invoices', cause }),
    new errors.InvalidTransitionError({
      invoiceId: 'inv_1',
      transition: 'sign',
      currentStatus: 'DRAFT',
      rawStatus: 'draft',
      cause: new errors.ConflictError({ ...init, status: 409 }),
    }),
    new errors.InvoiceCheckError(failingReport),
    new errors.TotalsMismatchError({
      invoiceId: 'inv_1',
      expected: { subtotal: '100.00', taxTotal: '7.50', total: '107.50' },
      actual: { subtotal: '100.00', taxTotal: '7.50', total: '110.00' },
      differences: [{ field: 'total', expected: '107.50', actual: '110.00' }],
    }),
    new errors.FilingError({ invoiceId: 'inv_1', step: 'sign', cause }),
    new errors.WaitTimeoutError({ invoiceId: 'inv_1', lastInvoice: undefined, timeoutMs: 1000 }),
    new errors.InvalidInputError({ message: `input is not plain data: ${JSON.stringify(body)}`, hint: 'pass plain data', path: ['buyer', 'self'] }),
    new errors.RecoveryInProgressError({
      invoiceId: 'inv_1',
      nextAttemptAt: '2026-05-01T10:20:00.000Z',
      attemptsLeft: 2,
      invoice: { id: 'inv_1', status: 'ERROR', rawStatus: 'Error' } as unknown as Invoice,
    }),
    new errors.NotSubmittedError({ invoice: { id: 'inv_1', status: 'SIGNED', rawStatus: 'Signed' } as unknown as Invoice, nextStep: 'submit' }),
  ];
}
