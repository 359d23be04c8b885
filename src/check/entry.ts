/**
 * `invoicing-sdk/check`: `checkInvoice`, `computeTotals`, `CHECK_RULES` and the bundled code sets, without ky, zod or
 * uuid.
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
  CheckArea, CheckIssue, CheckIssueCode, CheckOptions, CheckReport, CheckRule, CheckSeverity, CodeList,
  ComputeTotalsOptions, DecimalInput, ExpectedTotals, InvoiceTotals, IssuePath, LineTotals, RateTotals, RoundingLevel,
  RoundingMode, TotalsLineInput,
} from './index.js';
export { HS_CODES } from '../codes/hs-codes.js';
export { ISIC_CODES } from '../codes/isic-codes.js';
