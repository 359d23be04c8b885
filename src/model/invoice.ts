/** The stored invoice as the SDK returns it. */
import * as z from 'zod/mini';
import { CanonicalInvoiceSchema, type Invoice } from './canonical-invoice.js';
import { lazySchema } from './lazy.js';
import { DEFAULT_FIELD_MAP, isObject, readInvoice, resolveFieldMap, type FieldMap, type ResolvedFieldMap } from './field-map.js';

export { CanonicalInvoiceSchema, InvoiceStatusSchema, type Invoice } from './canonical-invoice.js';

// One schema per field map, built on first use: a client resolves its map once.
const schemas = /* @__PURE__ */ new WeakMap<ResolvedFieldMap, z.ZodMiniType<Invoice, Record<string, unknown>>>();

export function invoiceSchemaFor(fieldMap?: FieldMap | ResolvedFieldMap): z.ZodMiniType<Invoice, Record<string, unknown>> {
  const map = resolveFieldMap(fieldMap as FieldMap | undefined);
  const cached = schemas.get(map);
  if (cached !== undefined) return cached;
  const schema = z.pipe(
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
  return schema;
}

/**
 * The stored invoice record read through the default field aliases into the canonical {@link Invoice}, `raw` untouched.
 * @example
 * ```ts
 * InvoiceSchema.parse({ _id: 'inv_1', invoiceStatus: 'Validated', totalAmount: 107.5 }).total; // '107.50'
 * ```
 */
export const InvoiceSchema: z.ZodMiniType<Invoice, Record<string, unknown>> = /* @__PURE__ */ lazySchema(() => invoiceSchemaFor(DEFAULT_FIELD_MAP));

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
  if (invoice !== undefined) return { ok: true, invoice };
  // The schema wraps the same reader: it runs only to say why a record cannot be read.
  const issues = invoiceSchemaFor(map).safeParse(record).error?.issues ?? [];
  const issue = issues[0];
  return { ok: false, field: issue?.path.join('.') ?? '', message: issue?.message ?? 'unreadable record', issues };
}
