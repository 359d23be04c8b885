/**
 * The issue model of `checkInvoice`: stable codes, their severities, and the collector the rules
 * report into. Codes are never reused: a retired rule keeps its code out of circulation.
 */
import { MESSAGES, RULE_SUMMARIES, type MessageContext } from './messages.js';

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

const RULES = {
  INVOICE_NOT_OBJECT: ['error', 'input'],
  INPUT_UNREADABLE: ['error', 'input'],
  OPTION_INVALID: ['error', 'input'],
  FIELD_REQUIRED: ['error', 'invoice'],
  FIELD_WRONG_TYPE: ['error', 'invoice'],
  NUMBER_NOT_FINITE: ['error', 'line'],
  UNKNOWN_FIELD: ['warning', 'invoice'],
  TAX_FIELD_NOT_ACCEPTED: ['warning', 'tax'],
  TOTAL_FIELD_NOT_ACCEPTED: ['warning', 'tax'],
  BUSINESS_ID_EMPTY: ['error', 'invoice'],
  BUYER_TYPE_INVALID: ['error', 'buyer'],
  BUYER_TIN_MISSING: ['warning', 'buyer'],
  BUYER_TIN_PLACEHOLDER: ['error', 'buyer'],
  BUYER_EMAIL_INVALID: ['warning', 'buyer'],
  DUE_DATE_NOT_DATE_TIME: ['error', 'invoice'],
  DUE_DATE_INVALID: ['error', 'invoice'],
  DUE_DATE_NO_OFFSET: ['warning', 'invoice'],
  LINES_EMPTY: ['error', 'invoice'],
  LINES_TOO_MANY: ['error', 'invoice'],
  LINE_NOT_OBJECT: ['error', 'line'],
  LINE_DESCRIPTION_EMPTY: ['error', 'line'],
  LINE_QUANTITY_NOT_POSITIVE: ['error', 'line'],
  LINE_UNIT_PRICE_NEGATIVE: ['error', 'line'],
  LINE_TAX_RATE_OUT_OF_RANGE: ['error', 'tax'],
  LINE_TAX_RATE_FRACTION: ['error', 'tax'],
  LINE_DISCOUNT_RATE_OUT_OF_RANGE: ['error', 'line'],
  LINE_DISCOUNT_RATE_FRACTION: ['warning', 'line'],
  LINE_CATEGORY_TOO_SHORT: ['error', 'line'],
  CLASSIFICATION_MISSING: ['error', 'classification'],
  CLASSIFICATION_BOTH: ['error', 'classification'],
  HSN_CODE_FORMAT: ['error', 'classification'],
  HSN_CODE_FOUR_DIGITS: ['error', 'classification'],
  HSN_CODE_PLACEHOLDER: ['error', 'classification'],
  HSN_CODE_PADDED_ISIC: ['error', 'classification'],
  HSN_CODE_LOOKS_PADDED: ['warning', 'classification'],
  HSN_CODE_UNKNOWN: ['error', 'classification'],
  ISIC_CODE_FORMAT: ['error', 'classification'],
  ISIC_CODE_PLACEHOLDER: ['error', 'classification'],
  ISIC_CODE_UNKNOWN: ['error', 'classification'],
  TOTALS_MISMATCH: ['error', 'totals'],
  TOTALS_NOT_RECONCILED: ['warning', 'totals'],
} as const satisfies Record<string, readonly [CheckSeverity, CheckArea]>;

/**
 * Every code `checkInvoice` can report. Stable: a code keeps its meaning forever and is never
 * reused. See {@link CHECK_RULES} for each one's severity and summary.
 *
 * @example
 * ```ts
 * import type { CheckIssueCode } from 'invoicing-sdk';
 * const blocking: CheckIssueCode[] = ['CLASSIFICATION_MISSING', 'HSN_CODE_PADDED_ISIC'];
 * ```
 */
export type CheckIssueCode = keyof typeof RULES;

/**
 * One entry of {@link CHECK_RULES}.
 *
 * @example
 * ```ts
 * import { CHECK_RULES, type CheckRule } from 'invoicing-sdk';
 * const rule: CheckRule = CHECK_RULES.BUYER_TIN_MISSING; // severity "warning", area "buyer"
 * ```
 */
export interface CheckRule {
  /** The stable code. */
  code: CheckIssueCode;
  /** Default severity (`opts.strict` raises warnings to errors). */
  severity: CheckSeverity;
  /** Which section of the service document the rule comes from. */
  area: CheckArea;
  /** One line: what the rule checks. */
  summary: string;
}

/**
 * The catalogue of rules, keyed by code: default severity, area of the service document and a
 * one-line summary. For docs, dashboards and `ignore` lists.
 *
 * @example
 * ```ts
 * import { CHECK_RULES } from 'invoicing-sdk';
 * CHECK_RULES.HSN_CODE_PADDED_ISIC.severity; // "error"
 * Object.values(CHECK_RULES).filter((r) => r.severity === 'warning').map((r) => r.code);
 * ```
 */
export const CHECK_RULES: { readonly [C in CheckIssueCode]: Readonly<CheckRule> } = /* @__PURE__ */ Object.freeze(
  // Each call is marked pure (this one and the two inside), so that a bundle which never reads
  // CHECK_RULES drops it with the rule table.
  /* @__PURE__ */ Object.fromEntries(
    /* @__PURE__ */ (Object.keys(RULES) as CheckIssueCode[]).map((code) => [
      code,
      Object.freeze({ code, severity: RULES[code][0], area: RULES[code][1], summary: RULE_SUMMARIES[code] }),
    ]),
  ) as { [C in CheckIssueCode]: CheckRule },
);

/**
 * A path into the invoice: keys and array indexes, e.g. `['lines', 2, 'hsnCode']`. Problems with
 * the options of checkInvoice start with `'options'`.
 *
 * @example
 * ```ts
 * import { formatIssuePath, type IssuePath } from 'invoicing-sdk';
 * const path: IssuePath = ['lines', 2, 'hsnCode'];
 * formatIssuePath(path); // "lines[2].hsnCode"
 * ```
 */
export type IssuePath = (string | number)[];

/**
 * One problem found by `checkInvoice`.
 *
 * @example
 * ```ts
 * import { checkInvoice } from 'invoicing-sdk';
 * for (const issue of checkInvoice(input).errors) {
 *   console.log(issue.code, issue.path.join('.'), issue.message, issue.hint);
 * }
 * ```
 */
export interface CheckIssue {
  /** Stable code of the rule (see CHECK_RULES). */
  code: CheckIssueCode;
  /** `error` stops filing; `warning` does not (unless `strict`). */
  severity: CheckSeverity;
  /** Where in the invoice, e.g. `['lines', 2, 'hsnCode']`. */
  path: IssuePath;
  /** What is wrong, naming the field and the value found. */
  message: string;
  /** How to fix it. */
  hint?: string;
}

const SIMPLE_KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * Renders a path the way JavaScript would address it: `lines[2].hsnCode`. The empty path (the
 * invoice itself) is `(invoice)`.
 *
 * @example
 * ```ts
 * import { formatIssuePath } from 'invoicing-sdk';
 * formatIssuePath(['lines', 2, 'hsnCode']); // "lines[2].hsnCode"
 * ```
 */
export function formatIssuePath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(invoice)';
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (SIMPLE_KEY.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/**
 * Where rules report. Renders wording from messages.ts, applies `strict` and `ignore`, and drops an
 * issue already reported with the same code at the same path.
 */
export class IssueCollector {
  readonly errors: CheckIssue[] = [];
  readonly warnings: CheckIssue[] = [];
  private seen: Set<string> | undefined;

  constructor(
    private readonly strict: boolean,
    private readonly ignore: ReadonlySet<string> | undefined,
  ) {}

  add(code: CheckIssueCode, path: IssuePath, context: Omit<MessageContext, 'field'> = {}): void {
    if (this.ignore !== undefined && this.ignore.has(code)) return;
    const key = `${code} ${formatIssuePath(path)}`;
    if (this.seen === undefined) this.seen = new Set();
    else if (this.seen.has(key)) return;
    this.seen.add(key);
    const text = MESSAGES[code]({ ...context, field: formatIssuePath(path) });
    const severity: CheckSeverity = this.strict ? 'error' : RULES[code][0];
    const issue: CheckIssue = { code, severity, path, message: text.message };
    if (text.hint !== undefined) issue.hint = text.hint;
    (severity === 'error' ? this.errors : this.warnings).push(issue);
  }
}
