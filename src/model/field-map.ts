/** Reading a stored invoice whose field names the service does not publish. */
import { normalizeStatus } from './status.js';
import { doubleScale, toDecimalString } from './decimal.js';
import { epochMs, isoDateTime } from './timestamp.js';
import type { Invoice } from './canonical-invoice.js';

/**
 * The canonical invoice fields read through aliases.
 * @example
 * ```ts
 * const field: InvoiceField = 'total';
 * ```
 */
export type InvoiceField = 'id' | 'status' | 'subtotal' | 'taxTotal' | 'total' | 'buyer' | 'lines' | 'dueDate' | 'updatedAt'
  | 'errorMessage' | 'recoveryAttempts' | 'attempts'; // `attempts`: deprecated, the same as `recoveryAttempts`

/**
 * How to read stored invoices: for any canonical field, the aliases to read, in order (a dotted one walks into objects).
 * @example
 * ```ts
 * new InvoicingClient({ fieldMap: { total: ['amounts.gross', ...DEFAULT_FIELD_MAP.total], status: 'state' } });
 * ```
 */
export type FieldMap = Partial<Record<InvoiceField, string | readonly string[]>>;

const ATTEMPT_ALIASES = ['attempts', 'attemptCount', 'retryCount', 'retries', 'submissionAttempts', 'submitAttempts'] as const;

/**
 * The aliases read by default.
 * @example
 * ```ts
 * DEFAULT_FIELD_MAP.id; // ['id', '_id', 'invoiceId', 'uuid']
 * ```
 */
export const DEFAULT_FIELD_MAP: Readonly<Record<InvoiceField, readonly string[]>> = /* @__PURE__ */ Object.freeze({
  id: ['id', '_id', 'invoiceId', 'uuid'],
  status: ['status', 'invoiceStatus', 'state'],
  subtotal: ['subtotal', 'subTotal', 'netAmount', 'totals.subtotal'],
  taxTotal: ['taxTotal', 'taxAmount', 'totalTax', 'vatAmount', 'totals.tax'],
  total: ['total', 'totalAmount', 'grandTotal', 'totals.total'],
  buyer: ['buyer'],
  lines: ['lines', 'items'],
  dueDate: ['dueDate', 'due_date'],
  updatedAt: ['updatedAt', 'updated_at', 'lastModified'],
  errorMessage: ['errorMessage', 'error', 'failureReason', 'message'],
  recoveryAttempts: ATTEMPT_ALIASES,
  attempts: ATTEMPT_ALIASES,
});

/**
 * A field map with every field's aliases spelled out.
 * @example
 * ```ts
 * const map: ResolvedFieldMap = resolveFieldMap({ total: 'gross' });
 * ```
 */
export type ResolvedFieldMap = Readonly<Record<InvoiceField, readonly string[]>>;

// Maps this module resolved, so that resolving one again returns it as is (schemas are cached per map).
const resolved = /* @__PURE__ */ new WeakSet<object>();

/**
 * Merges the caller's field map over the defaults, field by field.
 * @example
 * ```ts
 * resolveFieldMap({ status: 'state' }).status; // ['state']
 * ```
 */
export function resolveFieldMap(fieldMap: FieldMap | ResolvedFieldMap | undefined): ResolvedFieldMap {
  if (fieldMap === undefined || fieldMap === DEFAULT_FIELD_MAP) return DEFAULT_FIELD_MAP;
  if (resolved.has(fieldMap)) return fieldMap as ResolvedFieldMap;
  const out: Record<string, readonly string[]> = { ...DEFAULT_FIELD_MAP };
  for (const [field, aliases] of Object.entries(fieldMap)) {
    if (aliases === undefined) continue;
    const list: readonly string[] = typeof aliases === 'string' ? [aliases] : [...(aliases as readonly string[])];
    out[field] = list;
    if (field === 'attempts' || field === 'recoveryAttempts') out.attempts = out.recoveryAttempts = list;
  }
  const frozen = Object.freeze(out) as ResolvedFieldMap;
  resolved.add(frozen);
  return frozen;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at the first alias present; a dotted alias walks into nested objects. */
export function readAlias(record: Record<string, unknown>, aliases: readonly string[]): unknown {
  let compiled = compiledAliases.get(aliases);
  if (compiled === undefined) compiledAliases.set(aliases, (compiled = compile(aliases)));
  return readAny(record, compiled);
}

// The alias lists callers pass are constants: each is compiled once.
const compiledAliases = /* @__PURE__ */ new WeakMap<readonly string[], readonly CompiledAlias[]>();

type CompiledAlias = readonly [key: string, path: readonly string[] | undefined];
type CompiledMap = Readonly<Record<InvoiceField, readonly CompiledAlias[]>>;

// Aliases are split once per map, not on every record read.
const compiledMaps = /* @__PURE__ */ new WeakMap<object, CompiledMap>();

const compile = (aliases: readonly string[]): readonly CompiledAlias[] =>
  aliases.map((key) => [key, key.includes('.') ? key.split('.') : undefined] as const);

function compileMap(map: ResolvedFieldMap): CompiledMap {
  let compiled = compiledMaps.get(map);
  if (compiled === undefined) {
    compiled = Object.fromEntries(Object.entries(map).map(([field, aliases]) => [field, compile(aliases)])) as CompiledMap;
    compiledMaps.set(map, compiled);
  }
  return compiled;
}

/** The first alias whose value `read` accepts, so a blank `id` gives way to `_id`. */
function readFirst<T>(record: Record<string, unknown>, aliases: readonly CompiledAlias[], read: (value: unknown) => T | undefined): T | undefined {
  for (let i = 0; i < aliases.length; i++) {
    const out = read(readAt(record, aliases[i]!));
    if (out !== undefined) return out;
  }
  return undefined;
}

function readAny(record: Record<string, unknown>, aliases: readonly CompiledAlias[]): unknown {
  for (let i = 0; i < aliases.length; i++) {
    const value = readAt(record, aliases[i]!);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

function readAt(record: Record<string, unknown>, [key, path]: CompiledAlias): unknown {
  const value = record[key];
  return (value === undefined ? path === undefined : Object.hasOwn(record, key)) ? value : path && readPath(record, path);
}

const readStatusText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

function readPath(record: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = record;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What {@link readInvoice} needs besides the record: `observedAt` is the envelope's `timestamp`, `fallbackId` the id asked for. */
export type ReadInvoiceContext = { fieldMap: ResolvedFieldMap; observedAt?: string | undefined; fallbackId?: string | undefined };

/** The canonical {@link Invoice} for a stored record, or `undefined` without a readable id. */
export function readInvoice(record: unknown, ctx: ReadInvoiceContext): Invoice | undefined {
  if (!isObject(record)) return undefined;
  const map = compileMap(ctx.fieldMap);
  const id = readFirst(record, map.id, readId) ?? ctx.fallbackId;
  if (id === undefined) return undefined;
  const rawStatus = readFirst(record, map.status, readStatusText);
  const attempts = readCount(readAny(record, map.recoveryAttempts));
  return {
    id,
    status: normalizeStatus(rawStatus),
    rawStatus,
    subtotal: readMoney(readAny(record, map.subtotal)),
    taxTotal: readMoney(readAny(record, map.taxTotal)),
    total: readMoney(readAny(record, map.total)),
    buyer: readBuyer(readAny(record, map.buyer)),
    lines: readLines(readAny(record, map.lines)),
    dueDate: readTimestamp(readAny(record, map.dueDate)),
    updatedAt: readTimestamp(readAny(record, map.updatedAt)),
    errorMessage: readText(readAny(record, map.errorMessage)),
    recoveryAttempts: attempts,
    attempts,
    observedAt: ctx.observedAt,
    raw: record,
  };
}

/** True when `record` reads as an invoice with a status (an id may come from the context). */
export function hasReadableStatus(record: unknown, fieldMap: ResolvedFieldMap): boolean {
  return isObject(record) && readFirst(record, compileMap(fieldMap).status, readStatusText) !== undefined;
}

const readId = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : readStatusText(value);

function readTimestamp(value: unknown): string | undefined {
  const ms = epochMs(value);
  // NaN fails the comparison; past ±8.64e15 ms a Date is invalid.
  return Math.abs(ms) <= 8.64e15 ? isoDateTime(ms) : readStatusText(value);
}

// A record nested thousands deep must not exhaust the stack (a RangeError instead of an invoice).
const MAX_TEXT_DEPTH = 8;

function readText(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (depth >= MAX_TEXT_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const parts = value.map((item) => readText(item, depth + 1)).filter((part): part is string => part !== undefined);
    return parts.length === 0 ? undefined : parts.join('; ');
  }
  if (!isObject(value)) return undefined;
  return readText(value.message, depth + 1) ?? readText(value.msg, depth + 1) ?? readText(value.detail, depth + 1);
}

/** An amount with at least two decimals, never rounded. */
function readMoney(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return `${value}.00`;
    const scale = doubleScale(value);
    if (scale === 0) return plainMoney(toDecimalString(value));
    const digits = String(Math.abs(Math.round(value * 10 ** scale))).padStart(scale + 1, '0');
    return money(value < 0, digits.slice(0, -scale), digits.slice(-scale));
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // No amount has a thousand digits; an exponent is written out first.
  return text.length > 1000 ? undefined : (plainMoney(text) ?? plainMoney(toDecimalString(text)));
}

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function plainMoney(s: string | undefined): string | undefined {
  const m = s === undefined ? null : PLAIN.exec(s);
  return m === null || (m[2] === '' && !m[3]) ? undefined : money(m[1] === '-', m[2]!, m[3] ?? '');
}

/** Money text from integer and fraction digits: no leading zeros, two decimals or more, no `-0.00`. */
function money(negative: boolean, int: string, frac: string): string {
  let start = 0;
  while (start < int.length - 1 && int.charCodeAt(start) === 48) start++;
  let end = frac.length;
  while (end > 2 && frac.charCodeAt(end - 1) === 48) end--;
  const whole = int === '' ? '0' : int.slice(start);
  const fraction = end >= 2 ? frac.slice(0, end) : (frac + '00').slice(0, 2);
  return negative && (whole !== '0' || fraction !== '00') ? `-${whole}.${fraction}` : `${whole}.${fraction}`;
}

// Field by field, with literal keys: V8 reads and adds literal properties far faster than keys from a list.
function readBuyer(value: unknown): Invoice['buyer'] {
  if (!isObject(value)) return undefined;
  const buyer: NonNullable<Invoice['buyer']> = {};
  let v: unknown;
  if (typeof (v = value.type) === 'string') buyer.type = v;
  if (typeof (v = value.tin) === 'string') buyer.tin = v;
  if (typeof (v = value.name) === 'string') buyer.name = v;
  if (typeof (v = value.email) === 'string') buyer.email = v;
  return buyer;
}

const readLines = (value: unknown): Invoice['lines'] => (Array.isArray(value) ? value.map(readLine) : undefined);

function readLine(item: unknown): NonNullable<Invoice['lines']>[number] {
  const line: NonNullable<Invoice['lines']>[number] = {};
  if (!isObject(item)) return line;
  let v: unknown;
  if (typeof (v = item.description) === 'string') line.description = v;
  if (typeof (v = item.hsnCode) === 'string') line.hsnCode = v;
  if (typeof (v = item.isicCode) === 'string') line.isicCode = v;
  if (typeof (v = item.sku) === 'string') line.sku = v;
  if (typeof (v = item.inventoryItemId) === 'string') line.inventoryItemId = v;
  if (typeof (v = item.productCategory) === 'string') line.productCategory = v;
  if (typeof (v = item.serviceCategory) === 'string') line.serviceCategory = v;
  if ((v = toDecimalString(item.quantity)) !== undefined) line.quantity = v as string;
  if ((v = toDecimalString(item.taxRate)) !== undefined) line.taxRate = v as string;
  if ((v = toDecimalString(item.discountRate)) !== undefined) line.discountRate = v as string;
  if ((v = readMoney(item.unitPrice)) !== undefined) line.unitPrice = v as string;
  return line;
}

function readCount(value: unknown): number | undefined {
  // A list of attempt records counts its entries.
  if (Array.isArray(value)) return value.length;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
