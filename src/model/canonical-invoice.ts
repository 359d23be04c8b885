/** The canonical invoice's schema and type: what the SDK returns for a stored record. */
import * as z from 'zod/mini';
import { lazySchema } from './lazy.js';
import { InvoiceStatus } from './status.js';

export const InvoiceStatusSchema = /* @__PURE__ */ lazySchema(() => z.enum(InvoiceStatus));

// Fields are plain properties, not getters: typedoc reads their comments only from those.
const text = () => z.optional(z.string());
// An amount as the SDK returns it: a decimal string, never a binary float.
const decimal = () => z.optional(z.string().check(z.regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string such as "107.50"')));
const count = () => z.optional(z.number().check(z.int(), z.nonnegative()));

// The stored buyer and lines: each field read where it has the documented type, left out otherwise (`raw` keeps all).
const storedBuyer = () => z.object({
  /** `B2B`, `B2C` or `B2G` as the service wrote it. */ type: text(),
  /** Tax identification number. */ tin: text(),
  /** The buyer's name. */ name: text(),
  /** The buyer's email address. */ email: text(),
});

const storedLine = () => z.object({
  /** What was sold. */ description: text(),
  /** How many units (decimal string, as written). */ quantity: decimal(),
  /** Price of one unit before tax (decimal string, two decimals or more). */ unitPrice: decimal(),
  /** Tax rate in percent (decimal string, as written). */ taxRate: decimal(),
  /** Discount in percent (decimal string, as written). */ discountRate: decimal(),
  /** HS subheading of a good. */ hsnCode: text(),
  /** ISIC class of a service. */ isicCode: text(),
  /** The seller's stock-keeping unit. */ sku: text(),
  /** The seller's inventory item id. */ inventoryItemId: text(),
  /** Descriptive label of a good. */ productCategory: text(),
  /** Descriptive label of a service. */ serviceCategory: text(),
});

/**
 * The canonical invoice, after the aliases are read: what `retrieve()`, `list()` and the filing helpers return.
 * @example
 * ```ts
 * const invoice = CanonicalInvoiceSchema.parse(JSON.parse('{"id":"inv_1","status":"ACCEPTED","raw":{}}'));
 * ```
 */
export const CanonicalInvoiceSchema = /* @__PURE__ */ lazySchema(() => z.object({
  /** The id for `retrieve`, `validate`, `sign`, `submit`. */ id: z.string().check(z.minLength(1)),
  /** Canonical status; `UNKNOWN` for a spelling the SDK does not recognise (see `rawStatus`). */ status: InvoiceStatusSchema,
  /** The status exactly as the server sent it. */ rawStatus: text(),
  /** Sum of the lines before tax, as the service computed it (decimal string, two decimals or more). */ subtotal: decimal(),
  /** Tax, as the service computed it (decimal string, two decimals or more). */ taxTotal: decimal(),
  /** Subtotal plus tax (decimal string, two decimals or more). */ total: decimal(),
  /** The buyer, where the record carries one. */ buyer: z.optional(storedBuyer()),
  /** The lines in the record's order (a line that is not an object reads as `{}`). */ lines: z.optional(z.array(storedLine())),
  /** The due date as the service wrote it; epoch seconds or milliseconds become an ISO date-time. */ dueDate: text(),
  /** When the service last changed the record, as it wrote it; epoch seconds or milliseconds become an ISO date-time. */ updatedAt: text(),
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */ errorMessage: text(),
  /** Automatic-recovery attempts used, where the record carries a count. */ recoveryAttempts: count(),
  /** @deprecated The same count as `recoveryAttempts`. */ attempts: count(),
  /** The server's clock when this record was read (the envelope's `timestamp`). */ observedAt: text(),
  /** The record exactly as the service returned it. */ raw: z.record(z.string(), z.unknown()),
}));

/**
 * A stored invoice as the SDK returns it.
 * @example
 * ```ts
 * const { id, status, total, buyer, lines }: Invoice = await client.invoices.retrieve('inv_123');
 * ```
 */
export type Invoice = z.infer<typeof CanonicalInvoiceSchema>;
