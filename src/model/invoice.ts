/** The stored invoice as the SDK returns it. */
import * as z from 'zod/mini';
import { DEFAULT_FIELD_MAP, isObject, readInvoice, resolveFieldMap, type FieldMap, type ResolvedFieldMap } from './field-map.js';
import { InvoiceStatus } from './status.js';

/** A canonical invoice status (the closed {@link InvoiceStatus} union). */
export const InvoiceStatusSchema = /* @__PURE__ */ z.enum(InvoiceStatus);

// Output schemas are built now: typedoc reads their fields' comments only from plain properties.
const text = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.string());
// An amount as the SDK returns it: a decimal string, never a binary float.
const decimal = /* @__PURE__ */ z.optional(
  /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^-?\d+(?:\.\d+)?$/, 'a decimal string such as "107.50"')),
);
const count = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.number().check(/* @__PURE__ */ z.int(), /* @__PURE__ */ z.nonnegative()));

// The stored buyer and lines: each field read where it has the documented type, left out otherwise (`raw` keeps all).
const StoredBuyerSchema = /* @__PURE__ */ z.object({
  /** `B2B`, `B2C` or `B2G` as the service wrote it. */ type: text,
  /** Tax identification number. */ tin: text,
  /** The buyer's name. */ name: text,
  /** The buyer's email address. */ email: text,
});

const StoredLineSchema = /* @__PURE__ */ z.object({
  /** What was sold. */ description: text,
  /** How many units (decimal string, as written). */ quantity: decimal,
  /** Price of one unit before tax (decimal string, two decimals or more). */ unitPrice: decimal,
  /** Tax rate in percent (decimal string, as written). */ taxRate: decimal,
  /** Discount in percent (decimal string, as written). */ discountRate: decimal,
  /** HS subheading of a good. */ hsnCode: text,
  /** ISIC class of a service. */ isicCode: text,
  /** The seller's stock-keeping unit. */ sku: text,
  /** The seller's inventory item id. */ inventoryItemId: text,
  /** Descriptive label of a good. */ productCategory: text,
  /** Descriptive label of a service. */ serviceCategory: text,
});

/**
 * The canonical invoice, after the aliases are read: what `retrieve()`, `list()` and the filing helpers return.
 * @example
 * ```ts
 * const invoice = CanonicalInvoiceSchema.parse(JSON.parse('{"id":"inv_1","status":"ACCEPTED","raw":{}}'));
 * ```
 */
export const CanonicalInvoiceSchema = /* @__PURE__ */ z.object({
  /** The invoice's id, for `retrieve`, `validate`, `sign`, `submit`. */
  id: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1)),
  /** Canonical status; `UNKNOWN` for a spelling the SDK does not recognise (see `rawStatus`). */ status: InvoiceStatusSchema,
  /** The status exactly as the server sent it. */ rawStatus: text,
  /** Sum of the lines before tax, as the service computed it (decimal string, two decimals or more). */ subtotal: decimal,
  /** Tax, as the service computed it (decimal string, two decimals or more). */ taxTotal: decimal,
  /** Subtotal plus tax (decimal string, two decimals or more). */ total: decimal,
  /** The buyer, where the record carries one. */ buyer: /* @__PURE__ */ z.optional(StoredBuyerSchema),
  /** The lines, in the record's order (a line that is not an object reads as `{}`). */
  lines: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(StoredLineSchema)),
  /** The due date as the service wrote it; epoch seconds or milliseconds become an ISO date-time. */ dueDate: text,
  /** When the service last changed the record, as it wrote it; epoch seconds or milliseconds become an ISO date-time. */ updatedAt: text,
  /** Why a submission failed, for an invoice in `ERROR` (the service's words). */ errorMessage: text,
  /** Automatic-recovery attempts used, where the record carries a count. */ recoveryAttempts: count,
  /** @deprecated The same count as `recoveryAttempts`. */ attempts: count,
  /** The server's clock when this record was read (the envelope's `timestamp`). */ observedAt: text,
  /** The record exactly as the service returned it. */
  raw: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
});

/**
 * A stored invoice as the SDK returns it.
 * @example
 * ```ts
 * const { id, status, total, buyer, lines }: Invoice = await client.invoices.retrieve('inv_123');
 * ```
 */
export type Invoice = z.infer<typeof CanonicalInvoiceSchema>;

// One schema per field map, built on first use: a client resolves its map once.
const schemas = /* @__PURE__ */ new WeakMap<ResolvedFieldMap, z.ZodMiniType<Invoice, Record<string, unknown>>>();

/** The schema reading stored records through `fieldMap` (default: the built-in aliases). */
export function invoiceSchemaFor(fieldMap?: FieldMap | ResolvedFieldMap): z.ZodMiniType<Invoice, Record<string, unknown>> {
  const map = resolveFieldMap(fieldMap as FieldMap | undefined);
  let schema = schemas.get(map);
  if (schema === undefined) {
    schema = z.pipe(
      z.custom<Record<string, unknown>>(isObject, { message: 'A stored invoice must be a JSON object' }),
      z.transform((record: Record<string, unknown>, ctx) => {
        const invoice = readInvoice(record, { fieldMap: map });
        if (invoice !== undefined) return invoice;
        ctx.issues.push({
          code: 'custom',
          path: ['id'],
          input: record,
          message: `No readable id: none of ${map.id.join(', ')} holds a non-empty string or a number`,
        });
        return z.NEVER;
      }),
    );
    schemas.set(map, schema);
  }
  return schema;
}

/**
 * The stored invoice record read through the default field aliases into the canonical {@link Invoice}, `raw` untouched.
 * @example
 * ```ts
 * InvoiceSchema.parse({ _id: 'inv_1', invoiceStatus: 'Validated', totalAmount: 107.5 }).total; // '107.50'
 * ```
 */
export const InvoiceSchema: z.ZodMiniType<Invoice, Record<string, unknown>> = /* @__PURE__ */ invoiceSchemaFor(DEFAULT_FIELD_MAP);

/**
 * What {@link readInvoiceRecord} gives: the invoice, or the field that could not be read and why.
 * @example
 * ```ts
 * const result: InvoiceReadResult = readInvoiceRecord(JSON.parse('{"status":"draft"}'));
 * if (!result.ok) console.error(`cannot read ${result.field}: ${result.message}`);
 * ```
 */
export type InvoiceReadResult =
  | {
      /** The record was read. */ ok: true;
      /** The canonical invoice. */ invoice: Invoice;
    }
  | {
      /** The record could not be read. */ ok: false;
      /** The field that could not be read, as a dotted path (`'id'`); `''` for the record itself. */ field: string;
      /** What is wrong with it. */ message: string;
      /** The zod issues, with their paths. */ issues: z.core.$ZodIssue[];
    };

/**
 * Reads one stored record into the canonical {@link Invoice} through `fieldMap`, stamping the envelope's `observedAt`.
 * @example
 * ```ts
 * declare const envelope: { data: unknown; timestamp?: string }; // a success envelope
 * const result = readInvoiceRecord(envelope.data, { observedAt: envelope.timestamp });
 * ```
 */
export function readInvoiceRecord(
  record: unknown,
  opts: { fieldMap?: FieldMap | ResolvedFieldMap | undefined; observedAt?: string | undefined; fallbackId?: string | undefined } = {},
): InvoiceReadResult {
  const map = resolveFieldMap(opts.fieldMap as FieldMap | undefined);
  const invoice = readInvoice(record, { fieldMap: map, observedAt: opts.observedAt, fallbackId: opts.fallbackId });
  if (invoice === undefined) {
    // The schema wraps the same reader: it runs only to say why a record cannot be read.
    const issues = invoiceSchemaFor(map).safeParse(record).error?.issues ?? [];
    const issue = issues[0];
    return { ok: false, field: issue?.path.join('.') ?? '', message: issue?.message ?? 'unreadable record', issues };
  }
  return { ok: true, invoice };
}
