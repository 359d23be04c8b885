/**
 * Field-level helpers shared by the rule files: type reports, optional strings, unknown fields.
 * The hot path (a well-formed invoice) only ever reaches the cheap `typeof` tests; everything that
 * builds a message runs only once a problem is found.
 */
import type { IssueCollector, IssuePath } from '../issues.js';
import { didYouMean } from '../suggest.js';

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a string is empty or only whitespace, without allocating a trimmed copy. */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Printable ASCII first: the first character of a real value settles it in two comparisons.
    if (c > 32 && c < 127) return false;
    // space, tab, LF, CR, VT, FF, NBSP, and the Unicode spaces a copy-paste brings along
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12 && c !== 160 && !(c >= 0x2000 && c <= 0x200b) && c !== 0x3000 && c !== 0xfeff) {
      return false;
    }
  }
  return true;
}

/**
 * Whether `String.prototype.trim` removes this UTF-16 code unit: the ECMAScript WhiteSpace (tab,
 * VT, FF, space, NBSP, ZWNBSP and the Unicode Zs spaces) and LineTerminator (LF, CR, U+2028,
 * U+2029) characters, and nothing else (not U+200B). Printable ASCII settles in two comparisons.
 */
export function isTrimmedSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Reports a value of the wrong type, with a corrected rendering where one is obvious. */
export function reportWrongType(
  issues: IssueCollector,
  path: IssuePath,
  value: unknown,
  expected: string,
  suggestion?: string,
): void {
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

/** Checks an optional string field; null counts as absent. */
export function checkOptionalString(issues: IssueCollector, value: unknown, path: IssuePath): void {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    reportWrongType(issues, path, value, 'a string');
  }
}

/** What kind of object a field sits in, for the UNKNOWN_FIELD wording. */
export type FieldOwner = 'invoice' | 'buyer' | 'line';

/** Field names that are a known misconception at one level, with the code that explains it. */
export interface SpecialFields {
  tax: ReadonlySet<string>;
  total: ReadonlySet<string>;
}

/**
 * Reports one field the service does not read. Called only for keys that failed the owner's
 * known-field test, so it may take its time: special tax and total fields get their own codes,
 * everything else a "did you mean".
 */
export function reportUnknownField(
  issues: IssueCollector,
  owner: FieldOwner,
  basePath: IssuePath,
  key: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>>,
  special: SpecialFields | undefined,
): void {
  const path = [...basePath, key];
  if (special !== undefined) {
    if (special.tax.has(key)) return issues.add('TAX_FIELD_NOT_ACCEPTED', path, { value: key });
    if (special.total.has(key)) return issues.add('TOTAL_FIELD_NOT_ACCEPTED', path, { value: key });
  }
  issues.add('UNKNOWN_FIELD', path, {
    value: key,
    reason: owner === 'invoice' ? 'invoice' : owner === 'buyer' ? 'buyer' : 'invoice line',
    suggestion: didYouMean(key, known, aliases),
  });
}
