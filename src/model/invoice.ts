import type { InvoiceStatusValue } from './status.js';

/**
 * A stored invoice as the SDK returns it. The service does not publish its field names, so these
 * canonical fields are read through the client's `fieldMap` (aliases such as `_id`, `invoiceStatus`,
 * `totalAmount`); the record as the server sent it is always kept in `raw`.
 *
 * Money fields are decimal strings (`"107.50"`), never binary floats; `undefined` when the record
 * carries no such field.
 *
 * @example
 * ```ts
 * const invoice = await client.invoices.retrieve('inv_123');
 * console.log(invoice.id, invoice.status, invoice.rawStatus, invoice.total);
 * ```
 */
export interface Invoice {
  /** The invoice's id, for `retrieve`, `validate`, `sign`, `submit`. */
  id: string;
  /** Canonical status (`DRAFT` … `ERROR`, or a later status kept as the server spelled it). */
  status: InvoiceStatusValue;
  /** The status exactly as the server sent it. */
  rawStatus: string | undefined;
  /** Sum of the lines before tax, as the service computed it (decimal string). */
  subtotal: string | undefined;
  /** Tax, as the service computed it from the per-line rates (decimal string). */
  taxTotal: string | undefined;
  /** Subtotal plus tax (decimal string). */
  total: string | undefined;
  /** When the service last changed the record, as it wrote it; epoch seconds or milliseconds (a number or digits) become an ISO date-time. */
  updatedAt: string | undefined;
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */
  errorMessage: string | undefined;
  /** Automatic-recovery attempts used, where the record carries a count. */
  attempts: number | undefined;
  /**
   * The server's clock when this record was read (the envelope's `timestamp`). Recovery rules
   * ("touched in the last 24 hours") are judged against it, not against the local clock.
   */
  observedAt: string | undefined;
  /** The record exactly as the service returned it. */
  raw: Record<string, unknown>;
}
