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
  FileManyOptions,
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
  type APIKey,
  type APIKeyCreateParams,
  type APIKeyScope,
} from './model/api-key.js';
export {
  ClassificationCodeSchema,
  CODE_ENTRY_FIELDS,
  HsCodeSchema,
  ServiceCodeSchema,
  type ClassificationCode,
} from './model/codes.js';
export { ListingMetaSchema } from './model/listing.js';

// Core: the client, its options, per-call options, pagination and errors.
export { InvoicingClient } from './client.js';
export { CLIENT_DEFAULTS, type ClientOptions, type Fetch } from './core/options.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { MutationRequestOptions, RequestOptions } from './core/request-options.js';
export { deriveIdempotencyKey, IDEMPOTENCY_NAMESPACE } from './core/idempotency.js';
export { Page, PagePromise, type PageLoader } from './core/pagination.js';
export { APIResource } from './core/resource.js';
export type { QueryValue } from './core/transport.js';
export * from './core/errors/index.js';
export { DEFAULT_FIELD_MAP, resolveFieldMap, type FieldMap, type InvoiceField, type ResolvedFieldMap } from './model/field-map.js';
export type { ListingMeta } from './core/envelope.js';
export { Invoices } from './resources/invoices.js';
export { LiteInvoices, type InvoiceChecker, type InvoiceCreateOptions, type InvoiceListParams } from './resources/lite-invoices.js';
export { InvoicingLiteClient, type LiteClientOptions } from './lite-client.js';
export { APIKeys } from './resources/api-keys.js';
export { Codes, type CodeLookupParams } from './resources/codes.js';

// Local pre-filing checks and exact totals (no network). The code tables are in `invoicing-sdk/codes`.
export {
  CHECK_RULES,
  checkInvoice,
  checkInvoiceAsSent,
  compareTotals,
  computeTotals,
  decimalEquals,
  formatIssuePath,
  formatMinorUnits,
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
