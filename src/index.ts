// Public exports only, no logic: what sdk-api.md names, and the types users need to write their code.
export { VERSION } from './version.js';

// The client, its resources, per-call options and pages.
export { InvoicingClient } from './client.js';
export type { ClientOptions, Fetch } from './core/options.js';
export type { ClientHooks, FetchOptions } from './core/transport.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { MutationRequestOptions, RequestOptions } from './core/request-options.js';
export type { Query, QueryValue } from './core/query.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise, type PageLoader } from './core/pagination.js';
export { APIResource } from './core/resource.js';
export type { ListingMeta } from './core/envelope.js';
export { ListingMetaSchema } from './model/listing.js';
export { Invoices, type InvoiceCreateOptions, type InvoiceListParams } from './resources/invoices.js';
export { APIKeys, type RotatedAPIKey } from './resources/api-keys.js';
export { Codes, type CodeLookupParams } from './resources/codes.js';
export type { DiagnoseOptions, Diagnosis, DiagnosisCheck, DiagnosisStatus } from './diagnose/types.js';
export { deriveIdempotencyKey } from './core/idempotency.js';
export { isAmbiguousError, isRetryableError, mayPassLater } from './core/retry.js';

// Statuses and the document's recovery rules.
export {
  AUTOMATIC_RECOVERY,
  canTransition,
  DEFAULT_FINAL_STATUSES,
  hasPassed,
  isAfterSubmitted,
  isFinalStatus,
  isTerminalStatus,
  InvoiceStatus,
  nextTransition,
  normalizeStatus,
  recoveryState,
  recoveryVerdict,
  statusRank,
  TRANSITIONS,
  UNKNOWN_STATUS,
  type FilingTransition,
  type InvoiceStatusValue,
  type KnownInvoiceStatus,
  type RecoveryEvidence,
  type RecoveryVerdict,
} from './model/status.js';

// Filing: exactly-once transitions, waiting, createAndFile / resumeFiling, bulk.
export type { WaitClock } from './filing/clock.js';
export { describeFailure, type FilingFailure, type FilingFailureKind } from './filing/failure.js';
export type { FilingRetryOptions } from './filing/retry.js';
export type { TransitionOptions } from './filing/transition.js';
export type { WaitOptions, WaitResult } from './filing/wait.js';
export type { InvoiceWatch, WatchChange, WatchedStatus, WatchOptions, WatchStats } from './filing/watch.js';
export type { CreateAndFileOptions, FilingOptions, FilingResult, FilingStepEvent, FilingStepRecord, ResumeFilingOptions } from './filing/file.js';
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
export { CanonicalInvoiceSchema, InvoiceSchema, readInvoiceRecord, type Invoice, type InvoiceReadResult } from './model/invoice.js';
export {
  ApiKeyCreateParamsSchema,
  ApiKeyRecordSchema,
  ApiKeySchema,
  ApiKeyScopeSchema,   type APIKey,
  type APIKeyCreateParams,
  type APIKeyScope,
} from './model/api-key.js';
export { ClassificationCodeSchema, HsCodeSchema, ServiceCodeSchema, type ClassificationCode } from './model/codes.js';
export { DEFAULT_FIELD_MAP, resolveFieldMap, type FieldMap, type InvoiceField, type ResolvedFieldMap } from './model/field-map.js';

// Errors: one root, a class and a guard per case.
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
  MAX_INPUT_DEPTH,
  toMinorUnits,
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
