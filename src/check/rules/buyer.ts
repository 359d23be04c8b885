/**
 * Buyer rules (service document, Buyer table): `type` is B2B, B2C or B2G and the only required
 * field; `tin` is optional for the service, but the tax authority accepts a placeholder without
 * complaint and files a document naming the wrong party, so a missing TIN on a B2B/B2G invoice is
 * a warning and an obvious placeholder is an error.
 */
import type { IssueCollector } from '../issues.js';
import type { ResolvedCheckOptions } from '../options.js';
import { checkOptionalString, reportUnknownField, reportWrongType, type SpecialFields } from './fields.js';

export const BUYER_FIELDS = ['type', 'tin', 'name', 'email'] as const;
const BUYER_TYPES = ['B2B', 'B2C', 'B2G'];
const BUYER_ALIASES: Record<string, string> = {
  taxid: 'tin', tax_id: 'tin', taxnumber: 'tin', tax_number: 'tin', vat: 'tin', vatid: 'tin', vatnumber: 'tin',
  vat_number: 'tin', tinnumber: 'tin', kind: 'type', buyertype: 'type', category: 'type', mail: 'email',
  emailaddress: 'email', e_mail: 'email', companyname: 'name', fullname: 'name', legalname: 'name',
};
const TYPE_ALIASES: Record<string, string> = {
  BUSINESS: 'B2B', COMPANY: 'B2B', CONSUMER: 'B2C', INDIVIDUAL: 'B2C', PERSON: 'B2C', CUSTOMER: 'B2C',
  GOVERNMENT: 'B2G', GOV: 'B2G', PUBLIC: 'B2G',
};
const NO_SPECIAL: SpecialFields | undefined = undefined;

/** TINs that are a word, not a number (compared without separators, upper-cased). */
export const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set([
  'NA', 'NONE', 'NULL', 'NIL', 'UNKNOWN', 'TBD', 'TBA', 'TBC', 'PENDING', 'TEST', 'TIN', 'NOTIN', 'NOTAPPLICABLE',
  'UNDEFINED', 'EMPTY', 'DUMMY', 'PLACEHOLDER', 'SAMPLE', 'EXAMPLE', 'MISSING', 'NOTAVAILABLE', 'ABC123', 'ABCDEF',
]);
const LONGEST_WORD = 13;
// tinPlaceholderReason settles a TIN that starts with a digit early, as long as no word does.
const NO_WORD_STARTS_WITH_DIGIT = [...PLACEHOLDER_WORDS].every((w) => !(w.charCodeAt(0) >= 48 && w.charCodeAt(0) <= 57));

function isTinSeparator(c: number): boolean {
  // space, tab, NBSP, '-', '.', '/', '_': the ways TINs are commonly grouped
  return c === 32 || c === 9 || c === 160 || c === 45 || c === 46 || c === 47 || c === 95;
}

/**
 * Why a TIN is an obvious placeholder, or undefined when it could be real. One pass over the
 * characters (this runs for every B2B invoice); strings are built only for short non-numeric values.
 */
export function tinPlaceholderReason(tin: string, minLength: number): string | undefined {
  const n = tin.length;
  let core = 0;
  let first = -1;
  let prev = -1;
  let same = true;
  let digits = true;
  let up = true;
  let down = true;
  for (let i = 0; i < n; i++) {
    const c = tin.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // Digits are most of a real TIN. Between two digits, a step of +1 (or 9 to 0) continues a
      // rising run and -1 (or 0 to 9) a falling one; after a letter, `digits` is already false and
      // the runs no longer matter.
      core++;
      if (prev === -1) {
        first = c;
        prev = c;
        continue;
      }
      const step = c - prev;
      prev = c;
      if (step === 0) {
        up = false;
        down = false;
        continue;
      }
      same = false;
      if (step !== 1 && step !== -9) up = false;
      if (step !== -1 && step !== 9) down = false;
      // Settled: no run, not one character, long enough, and (starting with a digit) no placeholder
      // word. The rest of the characters cannot change the answer.
      if (!up && !down && core >= minLength && first <= 57 && first >= 48 && NO_WORD_STARTS_WITH_DIGIT) return undefined;
      continue;
    }
    if (isTinSeparator(c)) continue;
    digits = false;
    core++;
    if (first === -1) first = c;
    else if (c !== first) same = false;
    prev = c;
  }
  if (core === 0) return 'it is blank';
  if (!digits && core <= LONGEST_WORD) {
    let word = '';
    for (let i = 0; i < tin.length; i++) if (!isTinSeparator(tin.charCodeAt(i))) word += tin[i];
    if (PLACEHOLDER_WORDS.has(word.toUpperCase())) return 'a placeholder word';
  }
  if (same && core > 1) return digits ? 'all one digit' : 'one character repeated';
  if (digits && core >= 4 && (up || down)) return 'a run of consecutive digits';
  if (core < minLength) return `too short: ${core} letters and digits, fewer than ${minLength}`;
  return undefined;
}

/**
 * name@domain.tld in its loosest form: one "@", something before it, a dot with something on both
 * sides after it, no whitespace. Deliberately permissive: it catches a name or a phone number typed
 * into the field, not every RFC 5322 corner. Hand-written: it runs for every invoice.
 */
export function looksLikeEmail(s: string): boolean {
  // One pass over the characters (indexOf twice plus lastIndexOf cost more than the whole scan).
  let at = -1;
  let dot = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Letters first: they are most of an address, and the only character above "@" refused is NBSP.
    if (c > 64) {
      if (c === 160) return false;
      continue;
    }
    if (c <= 32) return false;
    if (c === 64) {
      if (at !== -1) return false;
      at = i;
    } else if (c === 46) dot = i;
  }
  return at >= 1 && dot >= at + 2 && dot !== s.length - 1;
}

/** Checks `buyer` (already known to be a plain object). */
export function checkBuyer(buyer: Record<string, unknown>, o: ResolvedCheckOptions, issues: IssueCollector): void {
  const type = buyer.type;
  let knownType: string | undefined;
  if (type === undefined || type === null) {
    issues.add('FIELD_REQUIRED', ['buyer', 'type'], { value: type, expected: 'B2B, B2C or B2G' });
  } else if (typeof type !== 'string') {
    reportWrongType(issues, ['buyer', 'type'], type, 'a string: B2B, B2C or B2G');
  } else if (type === 'B2B' || type === 'B2C' || type === 'B2G') {
    knownType = type;
  } else {
    const upper = type.trim().toUpperCase();
    const suggestion = BUYER_TYPES.includes(upper) ? upper : TYPE_ALIASES[upper];
    issues.add('BUYER_TYPE_INVALID', ['buyer', 'type'], { value: type, suggestion });
  }

  const tin = buyer.tin;
  if (tin === undefined || tin === null) {
    if (knownType === 'B2B' || knownType === 'B2G') {
      issues.add('BUYER_TIN_MISSING', ['buyer', 'tin'], { buyerType: knownType });
    }
  } else if (typeof tin !== 'string') {
    reportWrongType(issues, ['buyer', 'tin'], tin, 'a string');
  } else {
    const reason = tinPlaceholderReason(tin, o.minTinLength);
    if (reason !== undefined) issues.add('BUYER_TIN_PLACEHOLDER', ['buyer', 'tin'], { value: tin, reason });
  }

  const name = buyer.name;
  if (name !== undefined && name !== null && typeof name !== 'string') checkOptionalString(issues, name, ['buyer', 'name']);
  const email = buyer.email;
  if (typeof email === 'string') {
    if (!looksLikeEmail(email)) issues.add('BUYER_EMAIL_INVALID', ['buyer', 'email'], { value: email });
  } else checkOptionalString(issues, email, ['buyer', 'email']);

  for (const key in buyer) {
    if (key !== 'type' && key !== 'tin' && key !== 'name' && key !== 'email' && buyer[key] !== undefined) {
      reportUnknownField(issues, 'buyer', ['buyer'], key, BUYER_FIELDS, BUYER_ALIASES, NO_SPECIAL);
    }
  }
}
