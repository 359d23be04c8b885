/** The request shape of `POST /api/v1/invoices` as zod schemas. Object fields are getters: zod builds them on first use. */
import * as z from 'zod/mini';
import { isDecimalText } from './decimal.js';
import { lazySchema } from './lazy.js';

// A JSON number, or a decimal string ("850.50") that invoices.create() sends as a JSON number written from the same digits.
const amount = () =>
  z.union([
    z.number(),
    z.string().check(z.refine(isDecimalText, { error: 'a decimal string such as "850.50" (no exponent, spaces or separators)' })),
  ]);
const text = () => z.optional(z.string());

/**
 * Who buys: business, consumer or government.
 * @example
 * ```ts
 * BuyerTypeSchema.parse('B2B'); // 'B2B'
 * ```
 */
export const BuyerTypeSchema = /* @__PURE__ */ lazySchema(() => z.enum(['B2B', 'B2C', 'B2G']));

/**
 * Who buys: business, consumer or government.
 * @example
 * ```ts
 * const t: BuyerType = 'B2B';
 * ```
 */
export type BuyerType = z.infer<typeof BuyerTypeSchema>;

const buyerShape = {
  /** The only field the service requires inside `buyer`. */ get type() { return BuyerTypeSchema; },
  /** Tax identification number: optional for the service, required in practice for B2B and B2G. */ get tin() { return text(); },
  get name() { return text(); },
  get email() { return text(); },
};

/**
 * The buyer, as sent.
 * @example
 * ```ts
 * BuyerSchema.safeParse({ type: 'B2X' }).error?.issues[0]?.path; // ['type']
 * ```
 */
export const BuyerSchema = /* @__PURE__ */ lazySchema(() => z.looseObject(buyerShape));

/**
 * The buyer.
 * @example
 * ```ts
 * const buyer: Buyer = { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd' };
 * ```
 */
export type Buyer = z.infer<z.ZodMiniObject<typeof buyerShape>>;

const lineShape = {
  get description() { return z.string(); },
  /** A number or a decimal string (`"2.5"`). */ get quantity() { return amount(); },
  /** Price of one unit before tax: a number or a decimal string (`"850.50"`). */ get unitPrice() { return amount(); },
  /** A percentage: 7.5 means 7.5 percent, not 0.075. */ get taxRate() { return amount(); },
  /** HS subheading of a good, `NNNN.NN`. Never a four-digit service code padded with `.00`. */ get hsnCode() { return text(); },
  /** ISIC Rev. 4 class of a service, four digits. */ get isicCode() { return text(); },
  get sku() { return text(); },
  /** A percentage taken off the line (10 for 10 %). */ get discountRate() { return z.optional(amount()); },
  get inventoryItemId() { return text(); },
  /** Descriptive label; a very short value is rejected by the service. */ get productCategory() { return text(); },
  /** Descriptive label; a very short value is rejected by the service. */ get serviceCategory() { return text(); },
};

/**
 * One invoice line, as sent.
 * @example
 * ```ts
 * InvoiceLineSchema.parse({ description: 'Consulting', quantity: 1, unitPrice: 150, taxRate: 7.5, isicCode: '6202' });
 * ```
 */
export const InvoiceLineSchema = /* @__PURE__ */ lazySchema(() => z.looseObject(lineShape));

/**
 * One invoice line.
 * @example
 * ```ts
 * const line: InvoiceLineInput = { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' };
 * ```
 */
export type InvoiceLineInput = z.infer<z.ZodMiniObject<typeof lineShape>>;

const createShape = {
  /** The business the invoice belongs to (a BUSINESS key may use only its own). */ get businessId() { return z.string(); },
  get buyer() { return BuyerSchema; },
  /** ISO 8601 date-time, e.g. `2026-12-31T00:00:00Z` (a bare date is not a date-time). */ get dueDate() { return z.string(); },
  /** At least one line. */ get lines() { return z.array(InvoiceLineSchema).check(z.minLength(1)); },
};

/**
 * The body of `client.invoices.create()`, as sent.
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { InvoiceCreateParamsSchema } from 'invoicing-sdk';
 * const Job = z.object({ invoice: InvoiceCreateParamsSchema, externalRef: z.string() });
 * declare const body: string;
 * await client.invoices.createAndFile(Job.parse(JSON.parse(body)).invoice);
 * ```
 */
export const InvoiceCreateParamsSchema = /* @__PURE__ */ lazySchema(() => z.looseObject(createShape));

/**
 * The body of `client.invoices.create()`.
 * @example
 * ```ts
 * const input: InvoiceCreateParams = { businessId: 'biz_123', buyer: { type: 'B2C' }, dueDate: '2026-12-31T00:00:00Z', lines };
 * ```
 */
export type InvoiceCreateParams = Omit<z.infer<z.ZodMiniObject<typeof createShape>>, 'buyer' | 'lines'> & {
  /** Who buys. */ buyer: Buyer;
  /** At least one line. */ lines: InvoiceLineInput[];
};
