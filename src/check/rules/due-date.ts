/** Invoice rule: `dueDate` is an ISO 8601 date-time (Invoice table: "string, ISO 8601 date-time"). */
import type { IssueCollector } from '../issues.js';
import { reportRequired, reportWrongType } from './fields.js';

// Extended format only (the one every JSON API and toISOString() uses). Compiled once.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:([Tt ])(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|z|[+-](\d{2})(?::?(\d{2}))?)?)?$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Two digits at i as a number, or -1. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function upTo(s: string, i: number, max: number): boolean {
  const d = twoDigits(s, i);
  return d >= 0 && d <= max;
}

/** The well-formed case without a regex: YYYY-MM-DDThh:mm:ss(.s+)?(Z|±hh:mm), a real calendar date and time. */
function isCompleteDateTime(s: string): boolean {
  const n = s.length;
  if (n < 20) return false;
  if (!upTo(s, 0, 99) || !upTo(s, 2, 99)) return false;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(twoDigits(s, 0) * 100 + twoDigits(s, 2), month)) return false;
  if (!upTo(s, 11, 23) || !upTo(s, 14, 59) || !upTo(s, 17, 59)) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    i++;
    const start = i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === start) return false;
  }
  if (i === n - 1) return s.charCodeAt(i) === 90;
  const sign = s.charCodeAt(i);
  return i === n - 6 && (sign === 43 || sign === 45) && s.charCodeAt(i + 3) === 58 && upTo(s, i + 1, 23) && upTo(s, i + 4, 59);
}

/** Checks `dueDate` of `invoice` (asked only when the date is missing, for why: see sentInvoice). */
export function checkDueDate(value: unknown, issues: IssueCollector, invoice: object): void {
  if (typeof value === 'string' && isCompleteDateTime(value)) return;
  if (value === undefined || value === null) {
    return reportRequired(issues, ['dueDate'], value, 'an ISO 8601 date-time such as "2026-12-31T00:00:00Z"', invoice);
  }
  if (typeof value !== 'string') return reportWrongType(issues, ['dueDate'], value, 'a string (an ISO 8601 date-time)');
  const invalid = (reason: string, suggestion?: string): void => issues.add('DUE_DATE_INVALID', ['dueDate'], { value, reason, suggestion });
  const m = DATE_TIME.exec(value);
  if (m === null) {
    const trimmed = value.trim();
    if (trimmed !== value && DATE_TIME.test(trimmed)) return invalid('it has surrounding spaces', trimmed);
    return invalid('expected YYYY-MM-DDThh:mm:ssZ');
  }
  const month = Number(m[2]);
  if (month < 1 || month > 12) return invalid(`there is no month ${m[2]}`);
  const days = daysInMonth(Number(m[1]), month);
  const day = Number(m[3]);
  if (day < 1 || day > days) return invalid(`${MONTHS[month - 1]} ${m[1]} has ${days} days, there is no day ${m[3]}`);
  if (m[4] === undefined) return issues.add('DUE_DATE_NOT_DATE_TIME', ['dueDate'], { value, suggestion: `${value}T00:00:00Z` });
  if (Number(m[5]) > 23) return invalid(`hour ${m[5]} does not exist (00 to 23)`);
  if (Number(m[6]) > 59) return invalid(`minute ${m[6]} does not exist (00 to 59)`);
  if (m[7] !== undefined && Number(m[7]) > 59) return invalid(`second ${m[7]} does not exist (00 to 59)`);
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10] ?? 0) > 59)) return invalid(`the UTC offset ${m[8]} does not exist`);
  if (m[4] === ' ') {
    const suggestion = `${value.slice(0, 10)}T${value.slice(11)}${m[8] === undefined ? 'Z' : ''}`;
    return invalid('ISO 8601 separates the date and the time with "T", not a space', suggestion);
  }
  if (m[8] === undefined) issues.add('DUE_DATE_NO_OFFSET', ['dueDate'], { value, suggestion: `${value}Z` });
}
