/** The request shape of `POST /api/v1/invoices` as zod schemas. */
import * as z from 'zod/mini';
import { isDecimalText } from './decimal.js';

// An amount as a billing system holds it: a JSON number, or a decimal string ("850.50") that invoices.create() sends as
// a JSON number written from the same digits.
const amount = z.union([
  z.number(),
  z.string().check(z.refine(isDecimalText, { error: 'a decimal string such as "850.50" (no exponent, spaces or separators)' })),
]);
const text = z.optional(z.string());

/**
 * Who buys: business, consumer or government.
 *
 * @example
 * ```ts
 * import { BuyerTypeSchema } from 'invoicing-sdk';
 * BuyerTypeSchema.parse('B2B'); // 'B2B'
 * ```
 */
export const BuyerTypeSchema = z.enum(['B2B', 'B2C', 'B2G']);

/**
 * Who buys: business, consumer or government.
 *
 * @example
 * ```ts
 * import type { BuyerType } from 'invoicing-sdk';
 * const t: BuyerType = 'B2B';
 * ```
 */
export type BuyerType = z.infer<typeof BuyerTypeSchema>;

const buyerShape = {
  /** B2B, B2C or B2G: the only field the service requires inside `buyer`. */
  type: BuyerTypeSchema,
  /** Tax identification number. Optional for the service; required in practice (see {@link Buyer}). */
  tin: text,
  /** The buyer's name. */
  name: text,
  /** The buyer's email address. */
  email: text,
};

/**
 * The buyer, as sent.
 *
 * @example
 * ```ts
 * import { BuyerSchema } from 'invoicing-sdk';
 * const result = BuyerSchema.safeParse({ type: 'B2X' });
 * result.success; // false; result.error.issues[0].path is ['type']
 * ```
 */
export const BuyerSchema = z.looseObject(buyerShape);

/**
 * The buyer.
 *
 * @example
 * ```ts
 * import type { Buyer } from 'invoicing-sdk';
 * const buyer: Buyer = { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd' };
 * ```
 */
export type Buyer = z.infer<z.ZodMiniObject<typeof buyerShape>>;

const lineShape = {
  /** What was sold. */
  description: z.string(),
  /** How many units: a number or a decimal string (`"2.5"`). */
  quantity: amount,
  /** Price of one unit, before tax: a number or a decimal string (`"850.50"`). */
  unitPrice: amount,
  /** A percentage: 7.5 means 7.5 percent, not 0.075. Required on every line. A number or a decimal string. */
  taxRate: amount,
  /** HS subheading of a good, `NNNN.NN`. Never a four-digit service code padded with `.00`. */
  hsnCode: text,
  /** ISIC Rev. 4 class of a service, four digits. */
  isicCode: text,
  /** Your stock-keeping unit. */
  sku: text,
  /** A percentage taken off the line (10 for 10 %). A number or a decimal string. */
  discountRate: z.optional(amount),
  /** Your inventory item's id. */
  inventoryItemId: text,
  /** Descriptive label; a very short value is rejected by the service. */
  productCategory: text,
  /** Descriptive label; a very short value is rejected by the service. */
  serviceCategory: text,
};

/**
 * One invoice line, as sent.
 *
 * @example
 * ```ts
 * import { InvoiceLineSchema } from 'invoicing-sdk';
 * InvoiceLineSchema.parse({ description: 'Consulting', quantity: 1, unitPrice: 150, taxRate: 7.5, isicCode: '6202' });
 * ```
 */
export const InvoiceLineSchema = z.looseObject(lineShape);

/**
 * One invoice line.
 *
 * @example
 * ```ts
 * import type { InvoiceLineInput } from 'invoicing-sdk';
 * const line: InvoiceLineInput = {
 *   description: 'Consulting, October', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202',
 * };
 * ```
 */
export type InvoiceLineInput = z.infer<z.ZodMiniObject<typeof lineShape>>;

const createShape = {
  /** The business the invoice belongs to (a BUSINESS key may use only its own). */
  businessId: z.string(),
  /** Who buys. */
  buyer: BuyerSchema,
  /** ISO 8601 date-time, e.g. `2026-12-31T00:00:00Z` (a bare date is not a date-time). */
  dueDate: z.string(),
  /** At least one line. */
  lines: z.array(InvoiceLineSchema).check(z.minLength(1)),
};

/**
 * The body of `client.invoices.create()`, as sent.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { InvoiceCreateParamsSchema } from 'invoicing-sdk';
 * const Job = z.object({ invoice: InvoiceCreateParamsSchema, externalRef: z.string() });
 * declare const body: string;
 * await client.invoices.createAndFile(Job.parse(JSON.parse(body)).invoice);
 * ```
 */
export const InvoiceCreateParamsSchema = z.looseObject(createShape);

/**
 * The body of `client.invoices.create()`.
 *
 * @example
 * ```ts
 * import type { InvoiceCreateParams } from 'invoicing-sdk';
 * const input: InvoiceCreateParams = { businessId: 'biz_123', buyer: { type: 'B2C' }, dueDate: '2026-12-31T00:00:00Z',
 *   lines: [{ description: 'Widget', quantity: 2, unitPrice: 9.99, taxRate: 7.5, hsnCode: '8471.30' }] };
 * ```
 */
export type InvoiceCreateParams = Omit<z.infer<z.ZodMiniObject<typeof createShape>>, 'buyer' | 'lines'> & {
  /** Who buys. */
  buyer: Buyer;
  /** At least one line. */
  lines: InvoiceLineInput[];
};
