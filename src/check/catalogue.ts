/** Every rule `checkInvoice` reports (a stable code never reused, severity, area, summary, wording) and how values show. */
import { MAX_LINES } from '../model/money.js';

/** What a getter, proxy trap or iterator threw, for a message: `Error: boom`. */
export function describeThrown(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return typeof err === 'string' ? err : 'a non-Error value was thrown';
  } catch {
    return 'a value was thrown';
  }
}

/** A short, safe rendering of any value for a message (strings quoted and cut). */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  if (typeof value !== 'object') return String(value);
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return `an array of ${value.length}`;
    if (value instanceof Date) return 'a Date object';
  } catch {
    // A revoked proxy, or a getPrototypeOf trap that throws: still an object.
  }
  return 'an object';
}

/** A value with its type said once: `a string "abc"`, `the number 5`. */
export function showTyped(value: unknown): string {
  const type = typeof value;
  if (type === 'string') return `a string ${showValue(value)}`;
  return type === 'number' || type === 'boolean' ? `the ${type} ${showValue(value)}` : showValue(value);
}

/**
 * Whether an issue stops filing (`error`) or deserves a look (`warning`).
 *
 * @example
 * ```ts
 * import type { CheckSeverity } from 'invoicing-sdk';
 * const blocking: CheckSeverity = 'error';
 * ```
 */
export type CheckSeverity = 'error' | 'warning';

/**
 * The area of the service document a rule comes from.
 *
 * @example
 * ```ts
 * import { CHECK_RULES, type CheckArea } from 'invoicing-sdk';
 * const area: CheckArea = CHECK_RULES.HSN_CODE_PADDED_ISIC.area; // "classification"
 * ```
 */
export type CheckArea = 'input' | 'invoice' | 'buyer' | 'line' | 'classification' | 'tax' | 'totals';

/** What a rule found, for its wording: `field` is the display path (`lines[2].hsnCode`). */
export interface MessageContext {
  field: string;
  value?: unknown;
  expected?: string;
  suggestion?: string | undefined;
  reason?: string | undefined;
  min?: number;
  buyerType?: string;
  expectedTotal?: string;
  actualTotal?: string;
  difference?: string;
  rounding?: string;
}

/** Severity, area, summary, then a message and hint whose `{key}` placeholders are filled in, or a function of the context. */
export type IssueDefinition = readonly [
  severity: CheckSeverity,
  area: CheckArea,
  summary: string,
  message: string | ((c: MessageContext) => readonly [message: string, hint?: string]),
  hint?: string,
];

// Each template split once: text and placeholder names take turns.
const split = new Map<string, string[]>();

function fill(template: string, c: MessageContext): string {
  let parts = split.get(template);
  if (parts === undefined) split.set(template, (parts = template.split(/\{(\w+)\}/)));
  let out = parts[0] as string;
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k] as string;
    out += (DERIVED[name]?.(c) ?? String(c[name as keyof MessageContext])) + parts[k + 1];
  }
  return out;
}

export function wording(rule: IssueDefinition, c: MessageContext): readonly [message: string, hint?: string] {
  const [, , , message, hint] = rule;
  if (typeof message !== 'string') return message(c);
  return [fill(message, c), hint === undefined ? undefined : fill(hint, c)];
}

const NOT_SENT = 'JSON.stringify (the request body) sends only own enumerable properties';
const didYouMean = (s: string): string => (s.includes(', ') ? `Did you mean one of ${s}?` : `Did you mean "${s}"?`);
const LOOKUPS = 'Codes: invoicing-sdk/codes, or GET /api/v1/taxauth/hs-codes and /api/v1/taxauth/service-codes (client.codes).';
const REJECTED = 'the service rejects it (invalid or missing classification code)';

const v = (c: MessageContext): string => showValue(c.value);
const is = (c: MessageContext, what: string): string => `${c.field} ${v(c)} ${what}`;
const opt = (s: string | undefined, pre: string, post = ''): string => (s ? `${pre}${s}${post}` : '');
const near = (c: MessageContext): string => opt(c.suggestion && didYouMean(c.suggestion), '', ' ');
const group = (c: MessageContext): string => opt(c.suggestion && `Classes in group ${c.reason}: ${c.suggestion}.`, '', ' ');
const lastName = (field: string): string => field.slice(field.lastIndexOf('.') + 1);
// Placeholders computed from the context; constants too, so that bundles which never use the table drop it.
const DERIVED: Partial<Record<string, (c: MessageContext) => string>> = {
  value: v, name: (c) => lastName(c.field), near, group, why: (c) => opt(c.reason, ' (', ')'),
  lookups: () => LOOKUPS, rejected: () => REJECTED, maxLines: () => String(MAX_LINES),
};

/** Every rule, keyed by its code, in the order of the service document's sections. */
export const ISSUE_TABLE = {
  INVOICE_NOT_OBJECT: ['error', 'input', 'The invoice is a JSON object.',
    'The invoice must be a JSON object, got {value}.',
    'Pass an object with businessId, buyer, dueDate and lines.'],
  INPUT_UNREADABLE: ['error', 'input', 'The input can be read (no throwing getter or proxy).',
    'The input could not be read: {reason}.',
    'Pass plain data, such as the result of JSON.parse.'],
  INPUT_CYCLIC: ['error', 'input', 'The input has no cycle (JSON.stringify throws on one).',
    '{field} refers back to {suggestion}: JSON.stringify throws on a cycle.',
    'Remove the reference back.'],
  INPUT_TOO_DEEP: ['error', 'input', 'The input is nested at most 64 levels deep.',
    '{field} is nested more than {min} levels deep.',
    'Remove the deeply nested value.'],
  INPUT_NOT_PLAIN_DATA: ['error', 'input', 'The input is JSON data (no Map, Set, function, symbol or BigInt).',
    '{field} is {reason}, so what would be sent is not what was checked.',
    'Send plain JSON data.'],
  OPTION_INVALID: ['error', 'input', 'Each option has a usable value.', (c) =>
    c.reason === undefined
      ? [`Option ${c.field} is ${v(c)}; expected ${c.expected}.`, 'Fix the option; this is not a problem of the invoice itself.']
      : [
          `Option ${c.field} ${c.value === undefined ? 'could not be read' : `threw when asked about ${v(c)}`}: ${c.reason}.`,
          'Pass plain values (a code list returns true or false); its default was used. This is not a problem of the invoice itself.',
        ]],
  FIELD_REQUIRED: ['error', 'invoice', 'Required fields are present.', (c) => [
    `${c.field} is required${c.value === null ? ' and was null' : ' and is missing'}.`,
    c.reason !== undefined
      ? `${lastName(c.field)} is ${c.reason}, and ${NOT_SENT}: set it on the object itself.`
      : `Add ${lastName(c.field)} (${c.expected}).`,
  ]],
  FIELD_WRONG_TYPE: ['error', 'invoice', 'Each field has the type the service document gives it.', (c) => [
    `${c.field} must be ${c.expected}, got ${showTyped(c.value)}${opt(c.reason, ', ')}.`,
    `Send ${c.suggestion ?? `${lastName(c.field)} as ${c.expected}`}.`,
  ]],
  NUMBER_NOT_FINITE: ['error', 'line', 'Numbers are finite.',
    '{field} must be a finite number, got {value}.',
    'Fix the computation that made it: JSON cannot carry it.'],
  UNKNOWN_FIELD: ['warning', 'invoice', 'No field outside the service document.', (c) => [
    `${c.field} is not a field of the service's ${c.reason}, which does not read it.`,
    c.suggestion ? `Did you mean ${c.suggestion}? Rename it.` : 'Remove it.',
  ]],
  TAX_FIELD_NOT_ACCEPTED: ['warning', 'tax', 'No tax field besides each line\'s taxRate.',
    '{field} is not read by the service: tax is given per line as taxRate.',
    'Remove it; give each line\'s taxRate.'],
  TOTAL_FIELD_NOT_ACCEPTED: ['warning', 'tax', 'A total in the input can be compared with the lines.',
    '{field} is not read by the service, and could not be compared with the lines{why}.',
    'Give an amount (107.5 or "107.50"), or pass it as expectedTotals.'],
  BUSINESS_ID_EMPTY: ['warning', 'invoice', 'businessId is not blank.',
    '{field} is blank ({value}).',
    'Send the id of the business the invoice belongs to.'],
  BUYER_TYPE_INVALID: ['error', 'buyer', 'buyer.type is B2B, B2C or B2G.', (c) => [
    `${c.field} is ${v(c)}; it must be B2B, B2C or B2G.`,
    c.suggestion ? `Send "${c.suggestion}" (upper case, exactly).` : 'B2B: a business, B2C: a consumer, B2G: a government body.',
  ]],
  BUYER_TIN_MISSING: ['error', 'buyer', 'buyer.tin is sent on B2B and B2G invoices.',
    '{field} is missing on a {buyerType} invoice: the tax authority would file a placeholder, naming the wrong party.',
    'Send the buyer\'s tax identification number.'],
  BUYER_TIN_PLACEHOLDER: ['error', 'buyer', 'buyer.tin is not a placeholder.',
    '{field} {value} looks like a placeholder ({reason}): the tax authority would file it.',
    'Send the buyer\'s real tax identification number, or none for a B2C buyer.'],
  BUYER_TIN_SUSPICIOUS: ['warning', 'buyer', 'buyer.tin does not look made up.',
    '{field} {value} may not be a real tax identification number ({reason}).',
    'Check it is the buyer\'s real number.'],
  BUYER_EMAIL_INVALID: ['warning', 'buyer', 'buyer.email looks like an e-mail address.',
    '{field} {value} does not look like an e-mail address.',
    'Send a valid address, or leave it out.'],
  DUE_DATE_NOT_DATE_TIME: ['error', 'invoice', 'dueDate is a date-time, not a bare date.',
    '{field} {value} is a date without a time.',
    'Add a time and an offset: "{suggestion}".'],
  DUE_DATE_INVALID: ['error', 'invoice', 'dueDate is a valid ISO 8601 date-time.', (c) => [
    is(c, `is not a valid ISO 8601 date-time: ${c.reason}.`),
    c.suggestion ? didYouMean(c.suggestion) : 'Write it as YYYY-MM-DDThh:mm:ssZ (date.toISOString()).',
  ]],
  DUE_DATE_NO_OFFSET: ['warning', 'invoice', 'dueDate has a UTC offset.',
    '{field} {value} has no UTC offset: the service picks the time zone.',
    'Add "Z" for UTC or an offset (+01:00): "{suggestion}".'],
  LINES_EMPTY: ['error', 'invoice', 'lines is not empty.',
    '{field} is empty; the service rejects an invoice with no lines.',
    'Add at least one line.'],
  LINES_TOO_MANY: ['error', 'invoice', 'lines has at most 100,000 entries.',
    '{field} has {value} entries, more than the {maxLines} checkInvoice reads, so no line was checked.',
    'Fix the array, or ignore LINES_TOO_MANY to read every line.'],
  LINE_NOT_OBJECT: ['error', 'line', 'Each line is a JSON object.', (c) =>
    c.reason !== undefined
      ? [`${c.field} is missing: ${c.reason}.`, 'Put a line there or remove the hole: JSON.stringify would send null.']
      : [`${c.field} must be a line object, got ${v(c)}.`, 'Send an object with description, quantity, unitPrice, taxRate and a code.']],
  LINE_DESCRIPTION_EMPTY: ['warning', 'line', 'Each line\'s description is not blank.',
    '{field} is blank ({value}).',
    'Describe what is sold on this line.'],
  LINE_QUANTITY_NOT_POSITIVE: ['warning', 'line', 'quantity is greater than 0.',
    '{field} is {value}, not greater than 0.',
    'Keep it on a refund line; otherwise send the positive quantity.'],
  LINE_UNIT_PRICE_NEGATIVE: ['warning', 'line', 'unitPrice is not negative.',
    '{field} is {value}, below 0.',
    'Keep it on a discount or refund line; otherwise send the unit price.'],
  LINE_TAX_RATE_OUT_OF_RANGE: ['warning', 'tax', 'taxRate is from 0 to 100.',
    '{field} is {value}, not a percentage from 0 to 100.',
    'Send the rate as a percentage: 7.5 for 7.5 %.'],
  LINE_TAX_RATE_FRACTION: ['error', 'tax', 'taxRate is a percentage, not a fraction.',
    '{field} is {value}, a fraction ({reason}): taxRate is a percentage.',
    'Send {suggestion}. If {value} % really is the rate, ignore LINE_TAX_RATE_FRACTION.'],
  LINE_TAX_RATE_LOW: ['warning', 'tax', 'taxRate is not below 1 %.',
    '{field} is {value}, an unusually low rate{why}: it means {value} %, not {suggestion} %.',
    'If the rate is {suggestion} %, send {suggestion}; if it is {value} %, ignore LINE_TAX_RATE_LOW.'],
  LINE_DISCOUNT_RATE_OUT_OF_RANGE: ['warning', 'line', 'discountRate is from 0 to 100.',
    '{field} is {value}, not a percentage from 0 to 100.',
    'Send the discount as a percentage: 10 for 10 % off.'],
  LINE_DISCOUNT_RATE_FRACTION: ['warning', 'line', 'discountRate is a percentage, not a fraction.',
    '{field} is {value}, which looks like a fraction; discountRate is a percentage.',
    'Send {suggestion} for {suggestion} % off.'],
  LINE_CATEGORY_TOO_SHORT: ['error', 'line', 'A category is not blank or one character.',
    '{field} {value} is {reason}; the service rejects it.',
    'Send a descriptive label, or leave {name} out.'],
  LINE_CATEGORY_SHORT: ['warning', 'line', 'A category has at least minCategoryLength characters.',
    '{field} {value} is shorter than {min} characters; the service may reject it.',
    'Send a longer label, or leave {name} out.'],
  CLASSIFICATION_MISSING: ['error', 'classification', 'Each line has hsnCode or isicCode.', (c) => [
    `${c.field} has an invalid or missing classification code: neither hsnCode nor isicCode.`,
    c.reason !== undefined
      ? `${c.reason}, and ${NOT_SENT}: set it on the line itself.`
      : `Send hsnCode (NNNN.NN) for a good or isicCode (four digits) for a service. ${LOOKUPS}`,
  ]],
  CLASSIFICATION_BOTH: ['error', 'classification', 'A line does not have different hsnCode and isicCode.', (c) => {
    const codes = c.value as { hsnCode?: unknown; isicCode?: unknown };
    const hsn = `hsnCode ${showValue(codes.hsnCode)}`;
    const isic = `isicCode ${showValue(codes.isicCode)}`;
    const [keep, drop] = c.suggestion === 'hsnCode' ? [hsn, 'isicCode'] : [isic, 'hsnCode'];
    return [
      `${c.field} has both ${hsn} and ${isic}; the service rejects two different codes.`,
      c.suggestion !== undefined
        ? `Only ${keep} is a valid code. Keep ${c.suggestion} and remove ${drop}.`
        : c.reason === 'both valid'
          ? `Both are valid codes: keep ${hsn} if the line is a good, or ${isic} if a service.`
          : `Neither is a valid code: send one, hsnCode for a good or isicCode for a service. ${LOOKUPS}`,
    ];
  }],
  HSN_CODE_FORMAT: ['error', 'classification', 'hsnCode is written NNNN.NN.', (c) => [
    is(c, `is not written NNNN.NN (four digits, a dot, two digits)${opt(c.reason, ': ')}.`),
    `${near(c) || 'Send the six-digit HS subheading as NNNN.NN. '}${LOOKUPS}`,
  ]],
  HSN_CODE_FOUR_DIGITS: ['error', 'classification', 'hsnCode is not four digits.', (c) => [
    is(c, 'has four digits: a four-digit code is an ISIC service code, not an HS code.'),
    c.suggestion
      ? `If this line is a service, send isicCode "${c.suggestion}"; if a good, its six-digit HS subheading (never pad to NNNN.00).`
      : `Send the good's six-digit HS subheading; never pad a four-digit code to NNNN.00. ${LOOKUPS}`,
  ]],
  HSN_CODE_PLACEHOLDER: ['error', 'classification', 'hsnCode is not 0000.00.',
    '{field} {value} is a placeholder; {rejected}.',
    'Send the good\'s real HS subheading. {lookups}'],
  HSN_CODE_PADDED_ISIC: ['error', 'classification', 'hsnCode is not an ISIC code padded to NNNN.00.',
    '{field} {value} is the ISIC service code {suggestion} padded with ".00", not an HS code: ' +
      'the tax authority would file an unrelated product.',
    'If this line is a service, send isicCode "{suggestion}"; if a good, its real six-digit HS subheading.'],
  HSN_CODE_LOOKS_PADDED: ['warning', 'classification', 'An hsnCode NNNN.00 is not an ISIC class padded.',
    '{field} {value} is an HS code, but also ISIC service code {suggestion} padded.',
    'If this line is a good, keep it; if a service, send isicCode "{suggestion}".'],
  HSN_CODE_UNKNOWN: ['warning', 'classification', 'hsnCode is in the bundled HS 2022 table.',
    '{field} {value} is not in the bundled HS 2022 subheadings; the service\'s own list decides.',
    '{near}{lookups}'],
  HSN_CODE_NOT_LISTED: ['error', 'classification', 'hsnCode is in the HS list given.',
    '{field} {value} is not in the HS code list used: opts.hsCodes, or the service\'s own list that invoices.create() read.',
    '{near}{lookups}'],
  ISIC_CODE_FORMAT: ['error', 'classification', 'isicCode is four digits.', (c) => [
    is(c, `is not four digits${opt(c.reason, ': ')}.`),
    c.suggestion ? didYouMean(c.suggestion) : `Send the four-digit ISIC Rev. 4 class of the service. ${LOOKUPS}`,
  ]],
  ISIC_CODE_PLACEHOLDER: ['error', 'classification', 'isicCode is not 0000.',
    '{field} {value} is a placeholder; {rejected}.',
    'Send the service\'s real ISIC Rev. 4 class. {lookups}'],
  ISIC_CODE_UNKNOWN: ['warning', 'classification', 'isicCode is in the bundled ISIC Rev. 4 table.',
    '{field} {value} is not one of the 419 bundled ISIC Rev. 4 classes; the service\'s own list decides.',
    '{group}{lookups}'],
  ISIC_CODE_NOT_LISTED: ['error', 'classification', 'isicCode is in the ISIC list given.',
    '{field} {value} is not in the ISIC code list used: opts.isicCodes, or the service\'s own list that invoices.create() read.',
    '{group}{lookups}'],
  TOTALS_MISMATCH: ['error', 'totals', 'Totals from the lines equal the caller\'s figures.',
    '{field}: you expect {expectedTotal} but the lines add up to {actualTotal} (difference {difference}).',
    'The service computes totals from the lines (here {rounding}): fix the lines or your figure.'],
  TOTALS_NOT_RECONCILED: ['warning', 'totals', 'Expected totals can be compared.',
    '{field} could not be compared: no totals could be computed from the lines.',
    'Fix the lines as reported above.'],
} as const satisfies Record<string, IssueDefinition>;

/**
 * Every code `checkInvoice` can report.
 *
 * @example
 * ```ts
 * import type { CheckIssueCode } from 'invoicing-sdk';
 * const blocking: CheckIssueCode[] = ['CLASSIFICATION_MISSING', 'HSN_CODE_PADDED_ISIC'];
 * ```
 */
export type CheckIssueCode = keyof typeof ISSUE_TABLE;
