/**
 * The request shape of `POST /api/v1/invoices`, exactly as the service document's Invoice, Buyer and
 * Invoice line tables give it. Plain types (no runtime code): `check/` reads them without pulling in
 * the transport.
 */

/**
 * Who buys: business, consumer or government.
 *
 * @example
 * ```ts
 * import type { BuyerType } from 'invoicing-sdk';
 * const t: BuyerType = 'B2B';
 * ```
 */
export type BuyerType = 'B2B' | 'B2C' | 'B2G';

/**
 * The buyer. Only `type` is required by the service, but send the real `tin`: the tax authority
 * accepts a placeholder and files a document naming the wrong party.
 *
 * @example
 * ```ts
 * import type { Buyer } from 'invoicing-sdk';
 * const buyer: Buyer = { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd' };
 * ```
 */
export interface Buyer {
  /** B2B, B2C or B2G: the only field the service requires inside `buyer`. */
  type: BuyerType;
  /** Tax identification number. Optional for the service; required in practice (see above). */
  tin?: string | undefined;
  /** The buyer's name. */
  name?: string | undefined;
  /** The buyer's email address. */
  email?: string | undefined;
}

/**
 * One invoice line. Exactly one of `hsnCode` (a good, `NNNN.NN`) and `isicCode` (a service, four
 * digits, one of the 419 ISIC Rev. 4 classes). `taxRate` is a percentage: 7.5 means 7.5 %.
 * Money amounts are JSON numbers on the wire; the SDK computes with them as exact decimals.
 *
 * @example
 * ```ts
 * import type { InvoiceLineInput } from 'invoicing-sdk';
 * const line: InvoiceLineInput = {
 *   description: 'Consulting, October', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202',
 * };
 * ```
 */
export interface InvoiceLineInput {
  /** What was sold. */
  description: string;
  /** How many units. */
  quantity: number;
  /** Price of one unit, before tax. */
  unitPrice: number;
  /** A percentage: 7.5 means 7.5 percent, not 0.075. Required on every line. */
  taxRate: number;
  /** HS subheading of a good, `NNNN.NN`. Never a four-digit service code padded with `.00`. */
  hsnCode?: string | undefined;
  /** ISIC Rev. 4 class of a service, four digits. */
  isicCode?: string | undefined;
  /** Your stock-keeping unit. */
  sku?: string | undefined;
  /** A percentage, 0 to 100. */
  discountRate?: number | undefined;
  /** Your inventory item's id. */
  inventoryItemId?: string | undefined;
  /** Descriptive label; a very short value is rejected by the service. */
  productCategory?: string | undefined;
  /** Descriptive label; a very short value is rejected by the service. */
  serviceCategory?: string | undefined;
}

/**
 * The body of `client.invoices.create()`. There is no invoice-level tax field: tax is per line.
 *
 * @example
 * ```ts
 * import type { InvoiceCreateParams } from 'invoicing-sdk';
 * const input: InvoiceCreateParams = {
 *   businessId: 'biz_123',
 *   buyer: { type: 'B2B', tin: '12345678-0001' },
 *   dueDate: '2026-12-31T00:00:00Z',
 *   lines: [{ description: 'Widget', quantity: 2, unitPrice: 9.99, taxRate: 7.5, hsnCode: '8471.30' }],
 * };
 * ```
 */
export interface InvoiceCreateParams {
  /** The business the invoice belongs to (a BUSINESS key may use only its own). */
  businessId: string;
  /** Who buys. */
  buyer: Buyer;
  /** ISO 8601 date-time, e.g. `2026-12-31T00:00:00Z` (a bare date is not a date-time). */
  dueDate: string;
  /** At least one line. */
  lines: InvoiceLineInput[];
}
