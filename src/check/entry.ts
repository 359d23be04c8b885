/**
 * `invoicing-sdk/check`: the local pre-filing checks (`checkInvoice`), exact totals (`computeTotals`),
 * the rule catalogue (`CHECK_RULES`) and the bundled HS 2022 and ISIC Rev. 4 code sets, without the client. Imports none of ky, zod or uuid, so
 * a web form or a CI job gets the checks alone. Titles and descriptions stay in `invoicing-sdk/codes`.
 *
 * @example
 * ```ts
 * import { checkInvoice, HS_CODES } from 'invoicing-sdk/check';
 * const report = checkInvoice(JSON.parse(text));
 * for (const issue of report.errors) console.error(`${issue.code}: ${issue.message}`);
 * HS_CODES.has('8471.30'); // true
 * ```
 *
 * @module
 */
export { CHECK_RULES, checkInvoice, computeTotals } from './index.js';
export type {
  CheckArea,
  CheckIssue,
  CheckIssueCode,
  CheckOptions,
  CheckReport,
  CheckRule,
  CheckSeverity,
  CodeList,
  ComputeTotalsOptions,
  DecimalInput,
  ExpectedTotals,
  InvoiceTotals,
  IssuePath,
  LineTotals,
  RateTotals,
  RoundingLevel,
  RoundingMode,
  TotalsLineInput,
} from './index.js';
export { HS_CODES } from '../codes/hs-codes.js';
export { ISIC_CODES } from '../codes/isic-codes.js';
