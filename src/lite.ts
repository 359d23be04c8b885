// Public exports of `invoicing-sdk/lite`, no logic: the client without the local checks and the
// filing workflow, for the smallest bundle. Everything here is also exported by `invoicing-sdk`.
export { VERSION } from './version.js';
export * from './model/status.js';
export type { TransitionOptions } from './filing/transition.js';
export type { Buyer, BuyerType, InvoiceCreateParams, InvoiceLineInput } from './model/invoice-input.js';
export type { Invoice } from './model/invoice.js';

export { InvoicingLiteClient, type LiteClientOptions } from './lite-client.js';
export { CLIENT_DEFAULTS, type ClientOptions, type Fetch } from './core/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { MutationRequestOptions, RequestOptions } from './core/request-options.js';
export { Page, PagePromise, type PageLoader } from './core/pagination.js';
export { APIResource } from './core/resource.js';
export type { QueryValue } from './core/transport.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  BusinessNotFoundError,
  ConflictError,
  FilingError,
  generateAPIError,
  IdempotencyConflictError,
  InternalServerError,
  InvalidInputError,
  InvalidResponseError,
  InvalidTransitionError,
  InvoiceCheckError,
  InvoicingError,
  isAPIConnectionError,
  isAPIConnectionTimeoutError,
  isAPIError,
  isAPIUserAbortError,
  isAuthenticationError,
  isBadRequestError,
  isBusinessNotFoundError,
  isConflictError,
  isFilingError,
  isIdempotencyConflictError,
  isInternalServerError,
  isInvalidInputError,
  isInvalidResponseError,
  isInvalidTransitionError,
  isInvoiceCheckError,
  isInvoicingError,
  isNotFoundError,
  isPermissionDeniedError,
  isRateLimitError,
  isRecoveryInProgressError,
  isResponseTooLargeError,
  isTotalsMismatchError,
  isWaitTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RecoveryInProgressError,
  ResponseTooLargeError,
  TotalsMismatchError,
  WaitTimeoutError,
  type APIConnectionErrorInit,
  type APIErrorInit,
  type ErrorResponse,
  type FilingErrorInit,
  type FilingStep,
  type InvalidInputErrorInit,
  type InvalidTransitionErrorInit,
  type InvoicingErrorName,
  type InvoicingErrorOptions,
  type RecoveryInProgressErrorInit,
  type ResponseTooLargeErrorInit,
  type TotalsFigures,
  type TotalsMismatchErrorInit,
  type WaitTimeoutErrorInit,
} from './core/errors.js';
export { DEFAULT_FIELD_MAP, type FieldMap, type InvoiceField } from './model/field-map.js';
export type { ListingMeta } from './core/envelope.js';
export { LiteInvoices, type InvoiceChecker, type InvoiceCreateOptions, type InvoiceListParams } from './resources/lite-invoices.js';
