/** Buyer rules: a placeholder TIN is filed without complaint, so it is an error. */
import type { IssueCollector } from '../issues.js';
import type { ResolvedCheckOptions } from '../options.js';
import { checkOptionalString, reportRequired, reportUnknownField, reportWrongType, type Level } from './fields.js';

const BUYER: Level = {
  owner: 'buyer',
  known: ['type', 'tin', 'name', 'email'],
  aliases: {
    taxid: 'tin', tax_id: 'tin', taxnumber: 'tin', tax_number: 'tin', vat: 'tin', vatid: 'tin', vatnumber: 'tin',
    vat_number: 'tin', tinnumber: 'tin', kind: 'type', buyertype: 'type', category: 'type', mail: 'email',
    emailaddress: 'email', e_mail: 'email', companyname: 'name', fullname: 'name', legalname: 'name',
  },
};
const TYPE_ALIASES: Record<string, string> = {
  B2B: 'B2B', B2C: 'B2C', B2G: 'B2G', BUSINESS: 'B2B', COMPANY: 'B2B', CONSUMER: 'B2C', INDIVIDUAL: 'B2C', PERSON: 'B2C', CUSTOMER: 'B2C',
  GOVERNMENT: 'B2G', GOV: 'B2G', PUBLIC: 'B2G',
};

/** TINs that are a word, not a number (compared without separators, upper-cased). */
export const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set([
  'NA', 'NONE', 'NULL', 'NIL', 'UNKNOWN', 'TBD', 'TBA', 'TBC', 'PENDING', 'TEST', 'TIN', 'NOTIN', 'NOTAPPLICABLE',
  'UNDEFINED', 'EMPTY', 'DUMMY', 'PLACEHOLDER', 'SAMPLE', 'EXAMPLE', 'MISSING', 'NOTAVAILABLE', 'ABC123', 'ABCDEF',
]);
const LONGEST_WORD = 13;
// tinPlaceholderReason settles a TIN that starts with a digit early, as long as no word does.
const NO_WORD_STARTS_WITH_DIGIT = /* @__PURE__ */ [...PLACEHOLDER_WORDS].every((w) => !(w.charCodeAt(0) >= 48 && w.charCodeAt(0) <= 57));

// The patterns tinPlaceholderReason follows, as the step between two digits modulo 10.
const RUN_SAME = 0;
const RUN_UP = 1;
const RUN_DOWN = 9;
const RUN_NONE = 10;
const RUN_UNKNOWN = -1;

const RUN_REASON = 'a run of consecutive digits';
const SHORT_REASON = 'too short';

function isTinSeparator(c: number): boolean {
  // space, tab, NBSP, '-', '.', '/', '_': the ways TINs are commonly grouped
  return c === 32 || c === 9 || c === 160 || c === 45 || c === 46 || c === 47 || c === 95;
}

/** Why a TIN is an obvious placeholder, or undefined when it could be real. */
export function tinPlaceholderReason(tin: string, minLength: number): string | undefined {
  let core = 0;
  let first = -1;
  let prev = -1;
  let digits = true;
  // What the characters so far have in common, known from the second one (a RUN_ step, or RUN_NONE).
  let run = RUN_UNKNOWN;
  for (let i = 0; i < tin.length; i++) {
    const c = tin.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // Digits first: they are most of a real TIN, and no separator is a digit.
      core++;
      if (prev >= 48 && prev <= 57) {
        let step = c - prev;
        if (step < 0) step += 10;
        if (step !== run) {
          if (core === 2 && (step === RUN_SAME || step === RUN_UP || step === RUN_DOWN)) run = step;
          else {
            run = RUN_NONE;
            // Settled: no pattern, long enough, and (starting with a digit) no placeholder word.
            if (core >= minLength && first >= 48 && first <= 57 && NO_WORD_STARTS_WITH_DIGIT) return undefined;
          }
        }
      } else if (prev === -1) first = c;
      else run = RUN_NONE; // a digit after a letter
      prev = c;
      continue;
    }
    if (isTinSeparator(c)) continue;
    digits = false;
    core++;
    if (prev === -1) first = c;
    else if (c !== prev) run = RUN_NONE;
    else if (core === 2) run = RUN_SAME;
    prev = c;
  }
  if (core === 0) return 'it is blank';
  if (!digits && core <= LONGEST_WORD) {
    let word = '';
    for (let i = 0; i < tin.length; i++) if (!isTinSeparator(tin.charCodeAt(i))) word += tin[i];
    if (PLACEHOLDER_WORDS.has(word.toUpperCase())) return 'a placeholder word';
  }
  if (run === RUN_SAME) return digits ? 'all one digit' : 'one character repeated';
  if (digits && core >= 4 && (run === RUN_UP || run === RUN_DOWN)) return RUN_REASON;
  if (core < minLength) return `${SHORT_REASON}: ${core} letters and digits, fewer than ${minLength}`;
  return undefined;
}

/** name@domain.tld in its loosest form. */
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

/** Checks `buyer` as sent (see sentInvoice). */
export function checkBuyer(buyer: Record<string, unknown>, o: ResolvedCheckOptions, issues: IssueCollector, invoice: object): void {
  const type = buyer.type;
  let knownType: string | undefined;
  if (type === undefined || type === null) reportRequired(issues, ['buyer', 'type'], type, 'B2B, B2C or B2G', buyer);
  else if (typeof type !== 'string') reportWrongType(issues, ['buyer', 'type'], type, 'a string: B2B, B2C or B2G');
  else if (type === 'B2B' || type === 'B2C' || type === 'B2G') knownType = type;
  else {
    const upper = type.trim().toUpperCase();
    const suggestion = Object.hasOwn(TYPE_ALIASES, upper) ? TYPE_ALIASES[upper] : undefined;
    issues.add('BUYER_TYPE_INVALID', ['buyer', 'type'], { value: type, suggestion });
  }

  const tin = buyer.tin;
  if (tin === undefined || tin === null) {
    if (knownType === 'B2B' || knownType === 'B2G') issues.add('BUYER_TIN_MISSING', ['buyer', 'tin'], { buyerType: knownType });
  } else if (typeof tin !== 'string') reportWrongType(issues, ['buyer', 'tin'], tin, 'a string');
  else {
    const reason = tinPlaceholderReason(tin, o.minTinLength);
    if (reason !== undefined) {
      // A run or a short TIN is a guess (the format is not shown), not an obvious placeholder.
      const guess = reason === RUN_REASON || reason.startsWith(SHORT_REASON);
      issues.add(guess ? 'BUYER_TIN_SUSPICIOUS' : 'BUYER_TIN_PLACEHOLDER', ['buyer', 'tin'], { value: tin, reason });
    }
  }

  const name = buyer.name;
  if (typeof name !== 'string') checkOptionalString(issues, name, ['buyer', 'name']);
  const email = buyer.email;
  if (typeof email !== 'string') checkOptionalString(issues, email, ['buyer', 'email']);
  else if (!looksLikeEmail(email)) issues.add('BUYER_EMAIL_INVALID', ['buyer', 'email'], { value: email });

  for (const key in buyer) {
    if (key !== 'type' && key !== 'tin' && key !== 'name' && key !== 'email' && buyer[key] !== undefined) {
      reportUnknownField(issues, BUYER, ['buyer', key], buyer[key], [invoice, buyer]);
    }
  }
}
