export { APIConnectionError, isAPIConnectionError, type APIConnectionErrorInit } from './api-connection-error.js';
export { APIConnectionTimeoutError, isAPIConnectionTimeoutError } from './api-connection-timeout-error.js';
export { APIError, isAPIError, type APIErrorInit } from './api-error.js';
export { APIUserAbortError, isAPIUserAbortError } from './api-user-abort-error.js';
export { AuthenticationError, isAuthenticationError } from './authentication-error.js';
export { BadRequestError, isBadRequestError } from './bad-request-error.js';
export { BusinessNotFoundError, isBusinessNotFoundError } from './business-not-found-error.js';
export { ConflictError, isConflictError } from './conflict-error.js';
export { FilingError, isFilingError, type FilingErrorInit, type FilingStep } from './filing-error.js';
export { generateAPIError, type ErrorResponse } from './generate.js';
export { IdempotencyConflictError, isIdempotencyConflictError } from './idempotency-conflict-error.js';
export { InternalServerError, isInternalServerError } from './internal-server-error.js';
export { InvalidResponseError, isInvalidResponseError } from './invalid-response-error.js';
export {
  InvalidTransitionError,
  isInvalidTransitionError,
  type InvalidTransitionErrorInit,
} from './invalid-transition-error.js';
export { InvoiceCheckError, isInvoiceCheckError } from './invoice-check-error.js';
export { InvoicingError, isInvoicingError, type InvoicingErrorOptions } from './invoicing-error.js';
export type { InvoicingErrorName } from './names.js';
export { NotFoundError, isNotFoundError } from './not-found-error.js';
export { PermissionDeniedError, isPermissionDeniedError } from './permission-denied-error.js';
export { ResponseTooLargeError, isResponseTooLargeError } from './response-too-large-error.js';
export { RateLimitError, isRateLimitError } from './rate-limit-error.js';
export {
  TotalsMismatchError,
  isTotalsMismatchError,
  type TotalsFigures,
  type TotalsMismatchErrorInit,
} from './totals-mismatch-error.js';
export { WaitTimeoutError, isWaitTimeoutError, type WaitTimeoutErrorInit } from './wait-timeout-error.js';
