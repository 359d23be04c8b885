// Public exports only, no logic.
export { VERSION } from './version.js';
export * from './filing/status.js';
export type { Buyer, BuyerType, InvoiceCreateParams, InvoiceLineInput } from './schemas/invoice-input.js';
export type { Invoice } from './schemas/invoice.js';
