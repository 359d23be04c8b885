// The service's checks on `POST /invoices` as the document describes them, and no more.
import { ISIC_CODES } from '../codes/isic-codes.js';
import { badRequest } from './errors.js';
import type { ResolvedOptions } from './options.js';

/** The document's classification message; the sandbox prefixes it with the line (`lines[1] …`). @example expect(body.message).toBe(`lines[1] ${CLASSIFICATION_MESSAGE}`); */
export const CLASSIFICATION_MESSAGE = 'has an invalid or missing classification code';

// The document's tables, in the order the checks report them; the API description is built from them too.
export const BUYER_TYPES = ['B2B', 'B2C', 'B2G'];
export const BUYER_FIELDS = { type: 'string', tin: 'string', name: 'string', email: 'string' };
export const LINE_FIELDS: Record<string, 'string' | 'number'> = {
  description: 'string', quantity: 'number', unitPrice: 'number', taxRate: 'number', discountRate: 'number', hsnCode: 'string',
  isicCode: 'string', sku: 'string', inventoryItemId: 'string', productCategory: 'string', serviceCategory: 'string',
};
export const REQUIRED_LINE_FIELDS = ['description', 'quantity', 'unitPrice', 'taxRate'];
const HS_FORMAT = /^\d{4}\.\d{2}$/;
const FOUR_DIGITS = /^\d{4}$/;
const PLACEHOLDERS = new Set(['0000', '0000.00']);
// A date and a time, the offset optional, that exist (Date.parse alone reads 2026-02-30 as 2 March).
const ISO_8601_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const pick = (source: Record<string, unknown>, fields: string[]): Record<string, unknown> =>
  Object.fromEntries(fields.filter((f) => source[f] !== undefined).map((f) => [f, source[f]]));

/** The accepted input, with the lines holding an unpublished four-digit code (`reject-on-validate`), or a 400 `SandboxHttpError`. */
export function validateCreateBody(body: unknown, settings: Pick<ResolvedOptions, 'categoryMinLength' | 'unknownIsicCode'>) {
  const b = isObject(body) ? body : {};
  const messages: string[] = [];

  if (typeof b.businessId !== 'string') messages.push('businessId must be a string');
  else if (b.businessId.trim() === '') messages.push('businessId should not be empty');

  const buyer = isObject(b.buyer) ? b.buyer : undefined;
  if (buyer === undefined) messages.push('buyer must be an object');
  if (!BUYER_TYPES.includes(buyer?.type as string)) messages.push('buyer.type must be one of the following values: B2B, B2C, B2G');
  const notText = ['tin', 'name', 'email'].filter((f) => buyer?.[f] !== undefined && typeof buyer[f] !== 'string');
  messages.push(...notText.map((f) => `buyer.${f} must be a string`));
  if (typeof b.dueDate !== 'string' || !isDateTime(b.dueDate)) messages.push('dueDate must be a valid ISO 8601 date string');
  const lines = Array.isArray(b.lines) ? (b.lines as unknown[]) : undefined;
  if (lines === undefined) messages.push('lines must be an array');
  if (!lines?.length) messages.push('lines must contain at least 1 elements');
  lines?.forEach((line, i) => messages.push(...lineFieldMessages(line, i, settings.categoryMinLength)));
  if (messages.length > 0) throw badRequest(messages);

  const goodLines = lines as Record<string, unknown>[];
  const unknownIsicLines: number[] = [];
  goodLines.forEach((line, i) => {
    const code = classificationOf(line, i);
    if (FOUR_DIGITS.test(code) && !ISIC_CODES.has(code)) {
      if (settings.unknownIsicCode === 'reject') throw badRequest(`lines[${i}] ${CLASSIFICATION_MESSAGE}`);
      if (settings.unknownIsicCode === 'reject-on-validate') unknownIsicLines.push(i);
    }
  });
  return {
    businessId: b.businessId as string,
    buyer: pick(buyer!, Object.keys(BUYER_FIELDS)),
    dueDate: b.dueDate as string,
    lines: goodLines.map((line) => pick(line, Object.keys(LINE_FIELDS))),
    unknownIsicLines,
  };
}

function isDateTime(value: string): boolean {
  const m = ISO_8601_DATE_TIME.exec(value);
  if (m === null) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = m.slice(1).map((part) => Number(part ?? 0));
  // A day that does not exist rolls over into the next month.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

function lineFieldMessages(line: unknown, i: number, categoryMinLength: number): string[] {
  const at = `lines.${i}`;
  if (!isObject(line)) return [`${at} must be an object`];
  const out: string[] = [];
  for (const [f, type] of Object.entries(LINE_FIELDS)) {
    const value = line[f];
    if (value === undefined && !REQUIRED_LINE_FIELDS.includes(f)) continue;
    if (type === 'number' && !isNumber(value)) out.push(`${at}.${f} must be a number conforming to the specified constraints`);
    else if (type === 'string' && typeof value !== 'string') out.push(`${at}.${f} must be a string`);
    else if (f === 'description' && (value as string).trim() === '') out.push(`${at}.description should not be empty`);
  }
  const short = ['productCategory', 'serviceCategory'].filter((f) => typeof line[f] === 'string' && line[f].length < categoryMinLength);
  return [...out, ...short.map((f) => `${at}.${f} must be longer than or equal to ${categoryMinLength} characters`)];
}

// A four-digit code is an ISIC class whichever field carries it; `NNNN.NN` is not looked up.
function classificationOf(line: Record<string, unknown>, i: number): string {
  const hs = line.hsnCode as string | undefined;
  const isic = line.isicCode as string | undefined;
  if (hs !== undefined && isic !== undefined && hs !== isic) {
    throw badRequest(`lines[${i}] has both hsnCode and isicCode with different values; send exactly one`);
  }
  const code = hs ?? isic ?? '';
  if (code === '' || PLACEHOLDERS.has(code) || !(HS_FORMAT.test(code) || FOUR_DIGITS.test(code))) {
    throw badRequest(`lines[${i}] ${CLASSIFICATION_MESSAGE}`);
  }
  return code;
}
