/**
 * The canonical invoice: what the SDK returns once a stored record's aliases are read (field-map.ts
 * reads them, invoice.ts validates whole records).
 */
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

/**
 * The canonical invoice, after the aliases are read: what `retrieve()`, `list()` and the filing
 * helpers return. Use it to validate an invoice you stored yourself (for example as JSON in a cache).
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
  /** Sum of the lines before tax, as the service computed it (decimal string). */
  subtotal: DecimalStringSchema.optional(),
  /** Tax, as the service computed it from the per-line rates (decimal string). */
  taxTotal: DecimalStringSchema.optional(),
  /** Subtotal plus tax (decimal string). */
  total: DecimalStringSchema.optional(),
  /** When the service last changed the record, as it wrote it; epoch seconds or milliseconds become an ISO date-time. */
  updatedAt: z.string().optional(),
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */
  errorMessage: z.string().optional(),
  /** Automatic-recovery attempts used, where the record carries a count. */
  recoveryAttempts: z.number().int().nonnegative().optional(),
  /** @deprecated The same count as `recoveryAttempts`. */
  attempts: z.number().int().nonnegative().optional(),
  /**
   * The server's clock when this record was read (the envelope's `timestamp`). Recovery rules
   * ("touched in the last 24 hours") are judged against it, not against the local clock.
   */
  observedAt: z.string().optional(),
  /** The record exactly as the service returned it. */
  raw: z.record(z.string(), z.unknown()),
});

/**
 * A stored invoice as the SDK returns it. The service does not publish its field names, so these
 * canonical fields are read through the client's `fieldMap` (aliases such as `_id`, `invoiceStatus`,
 * `totalAmount`); the record as the server sent it is always kept in `raw`. Money fields are decimal
 * strings (`"107.50"`), never binary floats; `undefined` when the record carries no such field.
 *
 * @example
 * ```ts
 * const invoice = await client.invoices.retrieve('inv_123');
 * console.log(invoice.id, invoice.status, invoice.rawStatus, invoice.total);
 * ```
 */
export type Invoice = z.infer<typeof CanonicalInvoiceSchema>;
