/** The canonical invoice the SDK returns once a record's aliases are read. */
import * as z from 'zod';
import { InvoiceStatus } from './status.js';

/**
 * A canonical invoice status (the closed {@link InvoiceStatus} union).
 *
 * @example
 * ```ts
 * import { InvoiceStatusSchema } from 'invoicing-sdk';
 * InvoiceStatusSchema.parse('ACCEPTED'); // 'ACCEPTED'
 * InvoiceStatusSchema.safeParse('Accepted').success; // false: normalizeStatus() reads server spellings
 * ```
 */
export const InvoiceStatusSchema = z.enum(InvoiceStatus);

/**
 * An amount as the SDK returns it: a decimal string (`"107.50"`, `"-3"`), never a binary float.
 *
 * @example
 * ```ts
 * import { DecimalStringSchema } from 'invoicing-sdk';
 * DecimalStringSchema.parse('107.50'); // '107.50'
 * ```
 */
export const DecimalStringSchema = z.string().regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string such as "107.50"');

const text = z.string().optional();

// The stored buyer and lines as the record carries them: each field read where it has the documented type, left out
// otherwise (the whole record stays in `raw`).
const StoredBuyerSchema = z.object({
  /** `B2B`, `B2C` or `B2G` as the service wrote it. */
  type: text,
  /** Tax identification number. */
  tin: text,
  /** The buyer's name. */
  name: text,
  /** The buyer's email address. */
  email: text,
});

const StoredLineSchema = z.object({
  /** What was sold. */
  description: text,
  /** How many units (decimal string, as written). */
  quantity: DecimalStringSchema.optional(),
  /** Price of one unit before tax (decimal string, two decimals or more). */
  unitPrice: DecimalStringSchema.optional(),
  /** Tax rate in percent (decimal string, as written). */
  taxRate: DecimalStringSchema.optional(),
  /** Discount in percent (decimal string, as written). */
  discountRate: DecimalStringSchema.optional(),
  /** HS subheading of a good. */
  hsnCode: text,
  /** ISIC class of a service. */
  isicCode: text,
  /** The seller's stock-keeping unit. */
  sku: text,
  /** The seller's inventory item id. */
  inventoryItemId: text,
  /** Descriptive label of a good. */
  productCategory: text,
  /** Descriptive label of a service. */
  serviceCategory: text,
});

/**
 * The canonical invoice, after the aliases are read: what `retrieve()`, `list()` and the filing helpers return.
 *
 * @example
 * ```ts
 * import { CanonicalInvoiceSchema } from 'invoicing-sdk';
 * const cached = '{"id":"inv_1","status":"ACCEPTED","raw":{}}';
 * const invoice = CanonicalInvoiceSchema.parse(JSON.parse(cached));
 * ```
 */
export const CanonicalInvoiceSchema = z.object({
  /** The invoice's id, for `retrieve`, `validate`, `sign`, `submit`. */
  id: z.string().min(1),
  /** Canonical status; `UNKNOWN` for a spelling the SDK does not recognise (see `rawStatus`). */
  status: InvoiceStatusSchema,
  /** The status exactly as the server sent it. */
  rawStatus: z.string().optional(),
  /** Sum of the lines before tax, as the service computed it (decimal string, two decimals). */
  subtotal: DecimalStringSchema.optional(),
  /** Tax, as the service computed it from the per-line rates (decimal string, two decimals). */
  taxTotal: DecimalStringSchema.optional(),
  /** Subtotal plus tax (decimal string, two decimals). */
  total: DecimalStringSchema.optional(),
  /** The buyer, where the record carries one. */
  buyer: StoredBuyerSchema.optional(),
  /** The lines, in the record's order (a line that is not an object reads as `{}`). */
  lines: z.array(StoredLineSchema).optional(),
  /** The due date as the service wrote it; epoch seconds or milliseconds become an ISO date-time. */
  dueDate: z.string().optional(),
  /** When the service last changed the record, as it wrote it; epoch seconds or milliseconds become an ISO date-time. */
  updatedAt: z.string().optional(),
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */
  errorMessage: z.string().optional(),
  /** Automatic-recovery attempts used, where the record carries a count. */
  recoveryAttempts: z.number().int().nonnegative().optional(),
  /** @deprecated The same count as `recoveryAttempts`. */
  attempts: z.number().int().nonnegative().optional(),
  /** The server's clock when this record was read (the envelope's `timestamp`). */
  observedAt: z.string().optional(),
  /** The record exactly as the service returned it. */
  raw: z.record(z.string(), z.unknown()),
});

/**
 * A stored invoice as the SDK returns it.
 *
 * @example
 * ```ts
 * const invoice = await client.invoices.retrieve('inv_123');
 * console.log(invoice.id, invoice.status, invoice.total, invoice.buyer?.tin, invoice.lines?.length, invoice.dueDate);
 * ```
 */
export type Invoice = z.infer<typeof CanonicalInvoiceSchema>;
