/** Classification rules (service document, "Classification rules" 1–7 and the Errors table): */
import { PADDED_ISIC_HS_CODES } from '../../codes/isic-codes.js';
import type { IssueCollector } from '../issues.js';
import type { CodeLookup, ResolvedCheckOptions } from '../options.js';
import { codesNotSent, reportNotJsonRecord, reportWrongType } from './fields.js';

/** Whether s[from] to s[to - 1] are all ASCII digits (by character codes: no regex on the hot path). */
function allDigits(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The last two digits (0 to 99) of an `NNNN.NN`, or -1 when `s` is not written so. */
function hsSubheading(s: string): number {
  if (s.length !== 7 || s.charCodeAt(4) !== 46 || !allDigits(s, 0, 4) || !allDigits(s, 5, 7)) return -1;
  return (s.charCodeAt(5) - 48) * 10 + s.charCodeAt(6) - 48;
}

const isFourDigits = (s: string): boolean => s.length === 4 && allDigits(s, 0, 4);

const NON_DIGITS = /\D/g;
const DIGITS_AND_SEPARATORS = /^[\d.\s-]+$/;
const HS_ONE_DECIMAL = /^\d{4}\.\d$/;
const ISIC_WITH_ZERO_DECIMALS = /^\d{4}\.0+$/;
const SECTION_PREFIXED = /^[A-Ua-u]\s?\d{4}$/;

/** Up to `max` codes of a list that start with `prefix`, for "did you mean" hints. */
function sameGroup(list: CodeLookup, prefix: string, max: number): string | undefined {
  if (list.codes === undefined) return undefined;
  const found: string[] = [];
  for (const code of list.codes) if (code.startsWith(prefix) && found.push(code) === max) break;
  return found.length === 0 ? undefined : found.join(', ');
}

const hsnPath = (i: number): (string | number)[] => ['lines', i, 'hsnCode'];
const isicPath = (i: number): (string | number)[] => ['lines', i, 'isicCode'];

/** Checks `hsnCode` / `isicCode` of line `i` (a plain object, or the sentView of the caller's line: see sentInvoice). */
export function checkClassification(line: Record<string, unknown>, i: number, o: ResolvedCheckOptions, issues: IssueCollector): void {
  const hsn = line.hsnCode;
  const isic = line.isicCode;
  const hasHsn = hsn !== undefined && hsn !== null;
  const hasIsic = isic !== undefined && isic !== null;
  // Rule 6 rejects both "with different values" only.
  if (hasHsn && hasIsic && hsn !== isic) {
    const hsnValid = typeof hsn === 'string' && hsSubheading(hsn) >= 0 && hsn !== '0000.00' &&
      (o.hs !== undefined ? o.hs.has(hsn) : !isPaddedService(hsn, o) || PADDED_ISIC_HS_CODES.has(hsn));
    const isicValid = typeof isic === 'string' && isFourDigits(isic) && isic !== '0000' && (o.isicFormatOnly || o.isic.has(isic));
    issues.add('CLASSIFICATION_BOTH', ['lines', i], {
      value: { hsnCode: hsn, isicCode: isic },
      suggestion: hsnValid === isicValid ? undefined : hsnValid ? 'hsnCode' : 'isicCode',
      reason: hsnValid && isicValid ? 'both valid' : hsnValid || isicValid ? undefined : 'neither valid',
    });
  } else if (!hasHsn && !hasIsic) {
    if (!reportNotJsonRecord(issues, line, ['lines', i])) issues.add('CLASSIFICATION_MISSING', ['lines', i], { reason: codesNotSent(line) });
    return;
  }
  if (hasHsn) {
    const subheading = typeof hsn === 'string' ? hsSubheading(hsn) : -1;
    if (typeof hsn !== 'string' || subheading < 0) hsnProblem(hsn, i, o, issues);
    // A padded service code that is also a real HS subheading is a coincidence worth a look, not a certain mistake.
    else if (hsn === '0000.00') issues.add('HSN_CODE_PLACEHOLDER', hsnPath(i), { value: hsn });
    else if (subheading === 0 && o.isic.has(hsn.slice(0, 4))) {
      const real = o.hs !== undefined ? o.hs.has(hsn) : PADDED_ISIC_HS_CODES.has(hsn);
      issues.add(real ? 'HSN_CODE_LOOKS_PADDED' : 'HSN_CODE_PADDED_ISIC', hsnPath(i), { value: hsn, suggestion: hsn.slice(0, 4) });
    } else if (o.hs !== undefined && !o.hs.has(hsn)) {
      const code = o.hs.bundled === true ? 'HSN_CODE_UNKNOWN' : 'HSN_CODE_NOT_LISTED';
      issues.add(code, hsnPath(i), { value: hsn, suggestion: sameGroup(o.hs, hsn.slice(0, 4), 6) });
    }
  }
  if (hasIsic) {
    if (typeof isic === 'string' && isFourDigits(isic)) {
      if (isic === '0000') issues.add('ISIC_CODE_PLACEHOLDER', isicPath(i), { value: isic });
      else if (!o.isicFormatOnly && !o.isic.has(isic)) {
        const group = isic.slice(0, 3);
        const code = o.isic.bundled === true ? 'ISIC_CODE_UNKNOWN' : 'ISIC_CODE_NOT_LISTED';
        issues.add(code, isicPath(i), { value: isic, reason: `${group}x`, suggestion: sameGroup(o.isic, group, 9) });
      }
    } else isicProblem(isic, i, o, issues);
  }
}

/** NNNN.00 where NNNN is an ISIC class: the padded service code that must never be suggested. */
function isPaddedService(code: string, o: ResolvedCheckOptions): boolean {
  return code.endsWith('.00') && o.isic.has(code.slice(0, 4));
}

const HSN_EXPECTED = 'a string such as "8471.30"';
const HS_STRING = "the good's six-digit HS subheading as a string NNNN.NN (never padded to NNNN.00";
// A number that was an NNNN.NN and lost its trailing zero (8471.3) or leading zeros (101.21).
const NUMBER_WITH_DECIMALS = /^\d{1,4}\.\d{1,2}$/;

function hsnProblem(hsn: unknown, i: number, o: ResolvedCheckOptions, issues: IssueCollector): void {
  const path = hsnPath(i);
  if (typeof hsn !== 'string') {
    if (typeof hsn !== 'number') return reportWrongType(issues, path, hsn, HSN_EXPECTED);
    let reason: string | undefined;
    let suggestion: string | undefined;
    if (Number.isInteger(hsn) && hsn >= 1 && hsn <= 9999) {
      const code = String(hsn).padStart(4, '0');
      reason = 'which looks like a four-digit (ISIC service) code';
      suggestion = o.isic.has(code)
        ? `isicCode "${code}" if this line is a service, or ${HS_STRING})`
        : `${HS_STRING}; ${code} is no ISIC class either)`;
    } else if (hsn === 0) reason = 'which is the placeholder the service rejects';
    else if (hsn > 0 && hsn < 10000 && NUMBER_WITH_DECIMALS.test(String(hsn))) {
      const code = hsn.toFixed(2).padStart(7, '0');
      if (!isPaddedService(code, o)) suggestion = `the string "${code}" (a number loses leading and trailing zeros)`;
    }
    return issues.add('FIELD_WRONG_TYPE', path, { value: hsn, expected: HSN_EXPECTED, reason, suggestion });
  }
  if (hsn === '0000') return issues.add('HSN_CODE_PLACEHOLDER', path, { value: hsn });
  if (isFourDigits(hsn)) return issues.add('HSN_CODE_FOUR_DIGITS', path, { value: hsn, suggestion: o.isic.has(hsn) ? hsn : undefined });
  const trimmed = hsn.trim();
  if (trimmed !== hsn && hsSubheading(trimmed) >= 0) {
    return issues.add('HSN_CODE_FORMAT', path, { value: hsn, reason: 'it has surrounding spaces', suggestion: trimmed });
  }
  if (trimmed === '') return issues.add('HSN_CODE_FORMAT', path, { value: hsn, reason: 'it is empty' });
  const digits = hsn.replace(NON_DIGITS, '');
  if (digits.length > 0 && /^0+$/.test(digits)) return issues.add('HSN_CODE_PLACEHOLDER', path, { value: hsn });
  const six = `${digits.slice(0, 4)}.${digits.slice(4, 6)}`;
  let reason: string | undefined;
  let candidate: string | undefined;
  if (HS_ONE_DECIMAL.test(hsn)) {
    reason = 'the last pair of digits is incomplete (a number loses its trailing zero)';
    candidate = `${hsn}0`;
  } else if (DIGITS_AND_SEPARATORS.test(hsn) && digits.length === 6) candidate = six;
  else if (DIGITS_AND_SEPARATORS.test(hsn) && digits.length >= 8 && digits.length <= 12) {
    reason = 'a national tariff line; the service takes the six-digit HS subheading';
    candidate = six;
  }
  // Never suggest a service code padded to NNNN.00 (6202.0 or 620200 would give 6202.00).
  const suggestion = candidate !== undefined && !isPaddedService(candidate, o) ? candidate : undefined;
  issues.add('HSN_CODE_FORMAT', path, { value: hsn, reason, suggestion });
}

const ISIC_EXPECTED = 'a string of four digits such as "6202"';

function isicProblem(isic: unknown, i: number, o: ResolvedCheckOptions, issues: IssueCollector): void {
  const path = isicPath(i);
  if (typeof isic !== 'string') {
    if (typeof isic !== 'number') return reportWrongType(issues, path, isic, ISIC_EXPECTED);
    const reason = isic === 0 ? 'which is the placeholder the service rejects' : undefined;
    const whole = Number.isInteger(isic) && isic >= 1 && isic < 10000;
    const suggestion = whole ? `the string "${String(isic).padStart(4, '0')}" (a number loses leading zeros)` : undefined;
    return issues.add('FIELD_WRONG_TYPE', path, { value: isic, expected: ISIC_EXPECTED, reason, suggestion });
  }
  const trimmed = isic.trim();
  if (trimmed === '') return issues.add('ISIC_CODE_FORMAT', path, { value: isic, reason: 'it is empty' });
  if (trimmed !== isic && isFourDigits(trimmed)) {
    return issues.add('ISIC_CODE_FORMAT', path, { value: isic, reason: 'it has surrounding spaces', suggestion: trimmed });
  }
  const digits = isic.replace(NON_DIGITS, '');
  if (digits.length > 0 && /^0+$/.test(digits)) return issues.add('ISIC_CODE_PLACEHOLDER', path, { value: isic });
  let reason: string | undefined;
  let suggestion: string | undefined;
  if (ISIC_WITH_ZERO_DECIMALS.test(isic)) {
    reason = 'an ISIC code has no decimals (NNNN.00 reads as an HS code)';
    suggestion = isic.slice(0, 4);
  } else if (hsSubheading(isic) >= 0) reason = 'NNNN.NN is the form of an HS code of a good: send a good as hsnCode';
  else if (/^\d{1,3}$/.test(isic) && o.isic.has(isic.padStart(4, '0'))) {
    reason = 'a leading zero is missing';
    suggestion = isic.padStart(4, '0');
  } else if (SECTION_PREFIXED.test(isic)) {
    reason = 'the section letter is not part of the code';
    suggestion = digits;
  }
  issues.add('ISIC_CODE_FORMAT', path, { value: isic, reason, suggestion });
}
