// Public exports only, no logic.
export { VERSION } from './version.js';
export * from './model/status.js';

// Filing: exactly-once transitions, waiting, createAndFile / resumeFiling, bulk.
export { realClock, type WaitClock } from './filing/clock.js';
export {
  classifyFailureMessage,
  describeFailure,
  type FailureClassification,
  type FilingFailure,
  type FilingFailureKind,
} from './filing/failure.js';
export type { FilingRetryOptions } from './filing/retry.js';
export type { TransitionOptions } from './filing/transition.js';
export { WAIT_DEFAULTS, type WaitOptions, type WaitResult } from './filing/wait.js';
export {
  WATCH_DEFAULTS,
  type InvoiceWatch,
  type WatchChange,
  type WatchedStatus,
  type WatchOptions,
  type WatchStats,
} from './filing/watch.js';
export type {
  CreateAndFileOptions,
  FilingOptions,
  FilingResult,
  FilingStepEvent,
  FilingStepRecord,
  ResumeFilingOptions,
} from './filing/file.js';
export type {
  FileManyFailure,
  FileManyNotStarted,
  FileManyOptions,
  FileManyOutcome,
  FileManyProgress,
  FileManyResult,
  FileManySuccess,
} from './filing/file-many.js';

// Schemas of what is sent and received; the types are inferred from them.
export {
  BuyerSchema,
  BuyerTypeSchema,
  InvoiceCreateParamsSchema,
  InvoiceLineSchema,
  type Buyer,
  type BuyerType,
  type InvoiceCreateParams,
  type InvoiceLineInput,
} from './model/invoice-input.js';
export {
  CanonicalInvoiceSchema,
  DecimalStringSchema,
  InvoiceSchema,
  InvoiceStatusSchema,
  invoiceSchemaFor,
  readInvoiceRecord,
  type Invoice,
  type InvoiceReadResult,
} from './model/invoice.js';
export {
  API_KEY_FIELD_ALIASES,
  ApiKeyCreateParamsSchema,
  ApiKeyRecordSchema,
  ApiKeySchema,
  ApiKeyScopeSchema,
  readApiKeyRecord,
  type ApiKeyReadResult,
} from './model/api-key.js';
export {
  ClassificationCodeSchema,
  CODE_ENTRY_FIELDS,
  HsCodeSchema,
  ServiceCodeSchema,
} from './model/codes.js';
export { EnvelopeSchema, ListingMetaSchema, type EnvelopeBody } from './model/listing.js';

// Core: the client, its options, per-call options, pagination and errors.
export { InvoicingClient } from './client.js';
export type { DiagnoseOptions, Diagnosis, DiagnosisCheck, DiagnosisStatus } from './diagnose/types.js';
export { CLIENT_DEFAULTS, type ClientOptions, type Fetch } from './core/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { MutationRequestOptions, RequestOptions } from './core/request-options.js';
export { deriveIdempotencyKey, IDEMPOTENCY_NAMESPACE, mintIdempotencyKey } from './core/idempotency.js';
export { Page, PagePromise, type PageLoader } from './core/pagination.js';
export { APIResource } from './core/resource.js';
export type { ClientHooks, FetchOptions } from './core/transport.js';
export { isCredentialParam, type Query, type QueryValue } from './core/query.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  failureOf,
  isAmbiguousError,
  isRateLimitedError,
  isRetryableError,
  isRetryableFailure,
  mayPassLater,
  RETRYABLE_STATUSES,
  shouldRetry,
  type AttemptFailure,
  type RetryDecisionInput,
} from './core/retry.js';
export { parseJsonSafely } from './core/safe-json.js';
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
  isNotSubmittedError,
  isPermissionDeniedError,
  isRateLimitError,
  isRecoveryInProgressError,
  isResponseTooLargeError,
  isTotalsMismatchError,
  isWaitTimeoutError,
  NotFoundError,
  NotSubmittedError,
  PermissionDeniedError,
  RateLimitError,
  RecoveryInProgressError,
  redactError,
  ResponseTooLargeError,
  TotalsMismatchError,
  WaitTimeoutError,
  type APIConnectionErrorInit,
  type APIErrorInit,
  type ErrorResponse,
  type FilingErrorCause,
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
export { MIN_PARTIAL_LENGTH, REDACTED, Redactor, TOO_DEEP } from './core/redact.js';
export { DEFAULT_FIELD_MAP, resolveFieldMap, type FieldMap, type InvoiceField, type ResolvedFieldMap } from './model/field-map.js';
export type { ListingMeta } from './core/envelope.js';
export { Invoices, type InvoiceCreateOptions, type InvoiceListParams } from './resources/invoices.js';
export { APIKeys, type RotatedAPIKey } from './resources/api-keys.js';
export type { APIKey, APIKeyCreateParams, APIKeyScope } from './model/api-key.js';
export { Codes, type CodeLookupParams } from './resources/codes.js';
export type { ClassificationCode } from './model/codes.js';

// Local pre-filing checks and exact totals (no network). The code tables are in `invoicing-sdk/codes`.
export {
  CHECK_RULES,
  checkInvoice,
  checkInvoiceAsSent,
  compareTotals,
  computeTotals,
  decimalEquals,
  DEFAULT_STANDARD_TAX_RATES,
  formatIssuePath,
  formatMinorUnits,
  MAX_INPUT_DEPTH,
  normalizeDecimal,
  toMinorUnits,
  tryMinorUnits,
} from './check/index.js';
export type {
  CheckArea,
  CheckIssue,
  CheckIssueCode,
  CheckOptions,
  CheckReport,
  CheckRule,
  CheckSeverity,
  CodeList,
  ComputeTotalsOptions,
  DecimalInput,
  ExpectedTotals,
  InvoiceTotals,
  IssuePath,
  LineTotals,
  RateTotals,
  RoundingLevel,
  RoundingMode,
  TotalsDifference,
  TotalsLineInput,
} from './check/index.js';
