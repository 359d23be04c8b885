/** The canonical invoice the SDK returns once a record's aliases are read. Object fields are getters, built on first use. */
import * as z from 'zod/mini';
import { InvoiceStatus } from './status.js';

/** A canonical invoice status (the closed {@link InvoiceStatus} union). @example InvoiceStatusSchema.parse('CANCELLED'); */
export const InvoiceStatusSchema = /* @__PURE__ */ z.enum(InvoiceStatus);

const text = () => z.optional(z.string());
// An amount as the SDK returns it: a decimal string, never a binary float.
const decimal = () => z.optional(z.string().check(z.regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string such as "107.50"')));
const count = () => z.optional(z.number().check(z.int(), z.nonnegative()));

// The stored buyer and lines: each field read where it has the documented type, left out otherwise (`raw` keeps all).
const storedBuyer = () => z.object({ type: text(), tin: text(), name: text(), email: text() });

const storedLine = () =>
  z.object({
    description: text(),
    quantity: decimal(),
    unitPrice: decimal(),
    taxRate: decimal(),
    discountRate: decimal(),
    hsnCode: text(),
    isicCode: text(),
    sku: text(),
    inventoryItemId: text(),
    productCategory: text(),
    serviceCategory: text(),
  });

/**
 * The canonical invoice, after the aliases are read: what `retrieve()`, `list()` and the filing helpers return.
 * @example const invoice = CanonicalInvoiceSchema.parse(JSON.parse('{"id":"inv_1","status":"ACCEPTED","raw":{}}'));
 */
export const CanonicalInvoiceSchema = /* @__PURE__ */ z.object({
  /** The invoice's id, for `retrieve`, `validate`, `sign`, `submit`. */
  get id() { return z.string().check(z.minLength(1)); },
  /** Canonical status; `UNKNOWN` for a spelling the SDK does not recognise (see `rawStatus`). */
  get status() { return InvoiceStatusSchema; },
  /** The status exactly as the server sent it. */
  get rawStatus() { return text(); },
  /** Sum of the lines before tax, as the service computed it (decimal string, two decimals or more). */
  get subtotal() { return decimal(); },
  /** Tax, as the service computed it (decimal string). */
  get taxTotal() { return decimal(); },
  /** Subtotal plus tax (decimal string). */
  get total() { return decimal(); },
  /** The buyer, where the record carries one. */
  get buyer() { return z.optional(storedBuyer()); },
  /** The lines, in the record's order (a line that is not an object reads as `{}`). */
  get lines() { return z.optional(z.array(storedLine())); },
  /** The due date as the service wrote it; epoch seconds or milliseconds become an ISO date-time. */
  get dueDate() { return text(); },
  /** When the service last changed the record; epoch seconds or milliseconds become an ISO date-time. */
  get updatedAt() { return text(); },
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */
  get errorMessage() { return text(); },
  /** Automatic-recovery attempts used, where the record carries a count. */
  get recoveryAttempts() { return count(); },
  /** @deprecated The same count as `recoveryAttempts`. */
  get attempts() { return count(); },
  /** The server's clock when this record was read (the envelope's `timestamp`). */
  get observedAt() { return text(); },
  /** The record exactly as the service returned it. */
  get raw() { return z.record(z.string(), z.unknown()); },
});

/**
 * A stored invoice as the SDK returns it.
 * @example
 * ```ts
 * const invoice = await client.invoices.retrieve('inv_123');
 * console.log(invoice.id, invoice.status, invoice.total, invoice.buyer?.tin, invoice.lines?.length);
 * ```
 */
export type Invoice = z.infer<typeof CanonicalInvoiceSchema>;
