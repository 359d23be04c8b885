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
export * from './core/errors/index.js';
export { DEFAULT_FIELD_MAP, type FieldMap, type InvoiceField } from './model/field-map.js';
export type { ListingMeta } from './core/envelope.js';
export { LiteInvoices, type InvoiceChecker, type InvoiceCreateOptions, type InvoiceListParams } from './resources/lite-invoices.js';
