/** The issue model of `checkInvoice`: rule catalogue, issue shape and collector. */
import { ISSUE_TABLE, wording, type CheckArea, type IssueDefinition, type CheckIssueCode, type CheckSeverity, type MessageContext } from './catalogue.js';

export type { CheckArea, CheckIssueCode, CheckSeverity } from './catalogue.js';

/**
 * One entry of {@link CHECK_RULES}.
 *
 * @example
 * ```ts
 * import { CHECK_RULES, type CheckRule } from 'invoicing-sdk';
 * const rule: CheckRule = CHECK_RULES.BUYER_TIN_MISSING; // severity "error", area "buyer"
 * ```
 */
export interface CheckRule {
  /** The stable code. */ code: CheckIssueCode;
  /** Default severity (`opts.strict` raises warnings to errors). */ severity: CheckSeverity;
  /** Which section of the service document the rule comes from. */ area: CheckArea;
  /** One line: what the rule checks. */ summary: string;
}

/**
 * The catalogue of rules, keyed by code: default severity, area of the service document and a one-line summary.
 *
 * @example
 * ```ts
 * import { CHECK_RULES } from 'invoicing-sdk';
 * CHECK_RULES.HSN_CODE_PADDED_ISIC.severity; // "error"
 * Object.values(CHECK_RULES).filter((r) => r.severity === 'warning').map((r) => r.code);
 * ```
 */
export const CHECK_RULES: { readonly [C in CheckIssueCode]: Readonly<CheckRule> } = /* @__PURE__ */ Object.freeze(
  // Each call is marked pure (this one and the two inside), so that a bundle which never reads CHECK_RULES drops it.
  /* @__PURE__ */ Object.fromEntries(
    /* @__PURE__ */ (Object.keys(ISSUE_TABLE) as CheckIssueCode[]).map((code) => {
      const [severity, area, summary]: IssueDefinition = ISSUE_TABLE[code];
      return [code, Object.freeze({ code, severity, area, summary })];
    }),
  ) as { [C in CheckIssueCode]: CheckRule },
);

/**
 * A path into the invoice: keys and array indexes, e.g. `['lines', 2, 'hsnCode']`.
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
  /** Stable code of the rule (see CHECK_RULES). */ code: CheckIssueCode;
  /** `error` stops filing; `warning` does not (unless `strict`). */ severity: CheckSeverity;
  /** Where in the invoice, e.g. `['lines', 2, 'hsnCode']`. */ path: IssuePath;
  /** What is wrong, naming the field and the value found. */ message: string;
  /** How to fix it. */ hint?: string;
}

const SIMPLE_KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * Renders a path the way JavaScript would address it: `lines[2].hsnCode`.
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

export class IssueCollector {
  readonly errors: CheckIssue[] = [];
  readonly warnings: CheckIssue[] = [];
  private seen: Set<string> | undefined;

  constructor(private readonly strict: boolean, private readonly ignore: ReadonlySet<string> | undefined) {}

  add(code: CheckIssueCode, path: IssuePath, context: Omit<MessageContext, 'field'> = {}): void {
    if (this.ignore !== undefined && this.ignore.has(code)) return;
    const field = formatIssuePath(path);
    const key = `${code} ${field}`;
    if (this.seen === undefined) this.seen = new Set();
    else if (this.seen.has(key)) return;
    this.seen.add(key);
    const rule: IssueDefinition = ISSUE_TABLE[code];
    const [message, hint] = wording(rule, { ...context, field });
    const severity: CheckSeverity = this.strict ? 'error' : rule[0];
    const issue: CheckIssue = { code, severity, path, message };
    if (hint !== undefined) issue.hint = hint;
    (severity === 'error' ? this.errors : this.warnings).push(issue);
  }
}
