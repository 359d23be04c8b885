/** Field-level helpers shared by the rule files: type reports, optional strings, unknown fields. */
import type { CheckIssueCode, MessageContext } from '../catalogue.js';
import { formatIssuePath, type IssueCollector, type IssuePath } from '../issues.js';
import { didYouMean } from '../suggest.js';
import { isObject as isRecord } from '../../model/field-map.js';

export { isRecord };

/** Whether JSON.stringify sends exactly the fields a rule reads. */
export function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Each view made by sentView, to the object it was copied from: asked only to say why a field is missing.
const SENT_FROM = /* @__PURE__ */ new WeakMap<object, object>();

/** JSON.stringify sends own enumerable properties only, so rules read this view. */
export function sentView(value: object, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  let source = value;
  if (typeof toJSON === 'function') {
    const json: unknown = toJSON.call(value, key);
    if (typeof json !== 'object' || json === null || Array.isArray(json) || isPlainObject(json)) return json;
    source = json;
  }
  const view = { ...source };
  SENT_FROM.set(view, source);
  return view;
}

/** The invoice as JSON.stringify would send it; `input` itself when all of it is plain. */
export function sentInvoice(input: Record<string, unknown>, maxLines: number): unknown {
  let invoice = input;
  if (!isPlainObject(input)) {
    const view = sentView(input, '');
    if (!isRecord(view)) return view;
    invoice = view;
  }
  const buyer = invoice.buyer;
  if (isRecord(buyer) && !isPlainObject(buyer)) {
    if (invoice === input) invoice = { ...input };
    invoice.buyer = sentView(buyer, 'buyer');
  }
  const lines = invoice.lines;
  if (Array.isArray(lines) && lines.length <= maxLines) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line: unknown = lines[i];
      if (isRecord(line) && !isPlainObject(line)) {
        copy ??= lines.slice();
        copy[i] = sentView(line, String(i));
      }
    }
    if (copy !== undefined) {
      if (invoice === input) invoice = { ...input };
      invoice.lines = copy;
    }
  }
  return invoice;
}

/** Why a field the view lacks is still on `source`, if it is. */
function notSentReason(source: object, key: string): string | undefined {
  try {
    if (Object.hasOwn(source, key)) {
      return Object.prototype.propertyIsEnumerable.call(source, key) ? undefined : 'an own property that is not enumerable';
    }
    return key in source ? 'inherited (from a prototype or a class getter)' : undefined;
  } catch {
    return undefined; // a proxy trap that throws: say nothing more than "missing"
  }
}

/** Reports a required field missing or null from `record`, explaining one not sent. */
export function reportRequired(issues: IssueCollector, path: IssuePath, value: unknown, expected: string, record: object): void {
  if (reportNotJsonRecord(issues, record, path.slice(0, -1))) return;
  const source = SENT_FROM.get(record);
  const reason = source !== undefined && value === undefined ? notSentReason(source, String(path[path.length - 1])) : undefined;
  issues.add('FIELD_REQUIRED', path, { value, expected, reason });
}

/** A value JSON.stringify cannot send as it is (a Map where an object belongs) is reported once, not as each field missing. */
export function reportNotJsonRecord(issues: IssueCollector, record: unknown, path: IssuePath): boolean {
  const source = SENT_FROM.get(record as object) ?? record;
  const kind = notJsonData(source);
  if (kind === undefined) return false;
  issues.add('INPUT_NOT_PLAIN_DATA', path, { value: source, reason: kind });
  return true;
}

/** For CLASSIFICATION_MISSING: which code the caller's line has but does not send. */
export function codesNotSent(line: object): string | undefined {
  const source = SENT_FROM.get(line);
  if (source === undefined) return undefined;
  for (const key of ['hsnCode', 'isicCode']) {
    const reason = notSentReason(source, key);
    if (reason !== undefined) return `${key} is ${reason}`;
  }
  return undefined;
}

/** Whether a string is empty or only whitespace, without allocating a trimmed copy. */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Printable ASCII first: the first character of a real value settles it in two comparisons.
    if (c > 32 && c < 127) return false;
    // space, tab, LF, CR, VT, FF, NBSP, and the Unicode spaces a copy-paste brings along
    if (c === 32 || (c >= 9 && c <= 13) || c === 160 || (c >= 0x2000 && c <= 0x200b) || c === 0x3000 || c === 0xfeff) continue;
    return false;
  }
  return true;
}

/** Whether `String.prototype.trim` removes this UTF-16 code unit. */
export function isTrimmedSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Reports a value of the wrong type, with a corrected rendering where one is obvious. */
export function reportWrongType(issues: IssueCollector, path: IssuePath, value: unknown, expected: string, suggestion?: string): void {
  if (suggestion === undefined) {
    if (expected === 'a number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
      suggestion = `the number ${Number(value)} (without quotes)`;
    } else if (expected === 'a string' && (typeof value === 'number' || typeof value === 'boolean')) {
      suggestion = `the string "${String(value)}"`;
    } else if (expected.startsWith('a string') && value instanceof Date && !Number.isNaN(value.getTime())) {
      suggestion = `"${value.toISOString()}" (date.toISOString())`;
    }
  }
  issues.add('FIELD_WRONG_TYPE', path, { value, expected, suggestion });
}

export function checkRequiredText(
  issues: IssueCollector, path: IssuePath, value: unknown, expected: string, record: object, blank: CheckIssueCode,
): void {
  if (value === undefined || value === null) reportRequired(issues, path, value, expected, record);
  else if (typeof value !== 'string') reportWrongType(issues, path, value, 'a string');
  else if (isBlank(value)) issues.add(blank, path, { value });
}

/** Checks an optional string field; null counts as absent. */
export function checkOptionalString(issues: IssueCollector, value: unknown, path: IssuePath): void {
  if (value !== undefined && value !== null && typeof value !== 'string') reportWrongType(issues, path, value, 'a string');
}

/** One object of the invoice: its fields, the aliases "did you mean" knows, and names that are a known misconception. */
export interface Level {
  owner: 'invoice' | 'buyer' | 'invoice line';
  known: readonly string[];
  aliases: Readonly<Record<string, string>>;
  tax?: ReadonlySet<string>;
  total?: ReadonlySet<string>;
}

/** Reports one field the service does not read; `enclosing` are the objects it sits in, outermost first. */
export function reportUnknownField(issues: IssueCollector, level: Level, path: IssuePath, value: unknown, enclosing: object[]): void {
  const key = path[path.length - 1] as string;
  if (level.tax?.has(key)) issues.add('TAX_FIELD_NOT_ACCEPTED', path, { value: key });
  else if (level.total?.has(key)) issues.add('TOTAL_FIELD_NOT_ACCEPTED', path, { value: key });
  else issues.add('UNKNOWN_FIELD', path, { value: key, reason: level.owner, suggestion: didYouMean(key, level.known, level.aliases) });
  // The service ignores the field, but JSON.stringify still has to send it.
  checkSendable(value, path, enclosing, issues);
}

/**
 * How deep input is read: a value's level is the length of its path (`lines[0].description` is level 3).
 *
 * @example
 * ```ts
 * import { checkInvoice, MAX_INPUT_DEPTH } from 'invoicing-sdk';
 * let deep: object = {};
 * for (let i = 0; i < MAX_INPUT_DEPTH; i++) deep = { a: deep };
 * checkInvoice({ ...input, extra: deep }).errors[0]?.code; // "INPUT_TOO_DEEP"
 * ```
 */
export const MAX_INPUT_DEPTH = 64;

/** What a non-JSON value is and what JSON.stringify does with it; undefined for JSON data. */
export function notJsonData(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt, on which JSON.stringify throws a TypeError';
    case 'function':
    case 'symbol':
      return `a ${typeof value}, which JSON.stringify leaves out`;
    case 'object': {
      if (value === null || Array.isArray(value) || isPlainObject(value)) return undefined;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      const tag = Object.prototype.toString.call(value);
      if (tag === '[object Map]' || tag === '[object WeakMap]') return 'a Map, which JSON.stringify sends as {} (its entries are lost)';
      if (tag === '[object Set]' || tag === '[object WeakSet]') return 'a Set, which JSON.stringify sends as {} (its values are lost)';
      if (tag === '[object Promise]' || tag === '[object RegExp]') return `a ${tag.slice(8, -1)}, which JSON.stringify sends as {}`;
      if (tag === '[object BigInt]') return 'a BigInt object, on which JSON.stringify throws a TypeError';
      if (ArrayBuffer.isView(value) || tag === '[object ArrayBuffer]') return 'binary data, which JSON.stringify does not send as it is';
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Walks an unknown field's value for cycles, excess depth and non-JSON data; reports the first problem. */
export function checkSendable(value: unknown, path: IssuePath, enclosing: readonly object[], issues: IssueCollector): void {
  if (typeof value !== 'object' || value === null) return void reportNotJsonRecord(issues, value, path);
  const at = [...path];
  const report = (code: 'INPUT_CYCLIC' | 'INPUT_TOO_DEEP' | 'INPUT_NOT_PLAIN_DATA', context: Omit<MessageContext, 'field'>): number => {
    issues.add(code, [...at], context);
    return -1;
  };
  // The objects on the current path, each to its path's length (naming a reference back), and each done one's height.
  const open = new Map<object, number>();
  for (let k = 0; k < enclosing.length; k++) open.set(enclosing[k] as object, k);
  const heights = new Map<object, number>();
  // The height of `v`'s subtree (0 for a leaf), or -1 once a problem was reported.
  const visit = (v: unknown, depth: number): number => {
    const kind = notJsonData(v);
    if (kind !== undefined) return report('INPUT_NOT_PLAIN_DATA', { value: v, reason: kind });
    if (depth > MAX_INPUT_DEPTH) return report('INPUT_TOO_DEEP', { min: MAX_INPUT_DEPTH });
    if (typeof v !== 'object' || v === null) return 0;
    const back = open.get(v);
    if (back !== undefined) return report('INPUT_CYCLIC', { suggestion: formatIssuePath(at.slice(0, back)) });
    const known = heights.get(v);
    if (known !== undefined) return depth + known > MAX_INPUT_DEPTH ? report('INPUT_TOO_DEEP', { min: MAX_INPUT_DEPTH }) : known;
    // An object with toJSON is sent as toJSON returns it: not walked (a Date is a string there).
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return 0;
    open.set(v, at.length);
    let height = 0;
    const keys: (string | number)[] = Array.isArray(v) ? Array.from({ length: v.length }, (_, i) => i) : Object.keys(v);
    for (const key of keys) {
      const child = (v as Record<string | number, unknown>)[key];
      if (child === undefined) continue;
      at.push(key);
      const h = visit(child, depth + 1);
      at.pop();
      if (h < 0) return -1;
      if (h + 1 > height) height = h + 1;
    }
    open.delete(v);
    heights.set(v, height);
    return height;
  };
  visit(value, path.length);
}
