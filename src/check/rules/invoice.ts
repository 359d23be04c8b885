/** Invoice rules (service document, Invoice table). */
import type { IssueCollector } from '../issues.js';
import type { InvoiceTotals, TotalsLineInput } from '../../model/money.js';
import type { ResolvedCheckOptions } from '../options.js';
import { checkBuyer } from './buyer.js';
import { checkDueDate } from './due-date.js';
import { checkRequiredText, isBlank, isRecord, reportRequired, reportUnknownField, reportWrongType, type Level } from './fields.js';
import { checkLines } from './line.js';
import { collectInputTotal, INPUT_TOTAL_FIELDS, reconcileTotals, type InputTotal } from './totals.js';

const INVOICE: Level = {
  owner: 'invoice',
  known: ['businessId', 'buyer', 'dueDate', 'lines'],
  aliases: {
    business_id: 'businessId', business: 'businessId', sellerid: 'businessId', customer: 'buyer', client: 'buyer',
    recipient: 'buyer', due_date: 'dueDate', due: 'dueDate', duedate: 'dueDate', paymentduedate: 'dueDate',
    items: 'lines', lineitems: 'lines', line_items: 'lines', invoicelines: 'lines', invoice_lines: 'lines',
  },
  // The totals and tax amounts (total, tax, …) are INPUT_TOTAL_FIELDS, read before unknown fields.
  tax: new Set(['taxRate', 'vat', 'vatRate', 'taxCategory']),
};

/** Checks a whole invoice, as given, and returns its totals when they can be computed. */
export function checkInvoiceInput(input: unknown, o: ResolvedCheckOptions, issues: IssueCollector): InvoiceTotals | undefined {
  if (!isRecord(input)) {
    issues.add('INVOICE_NOT_OBJECT', [], { value: input });
    return reconcileTotals(undefined, o, issues);
  }

  const businessId = input.businessId;
  if (typeof businessId !== 'string' || isBlank(businessId)) {
    checkRequiredText(issues, ['businessId'], businessId, 'a string', input, 'BUSINESS_ID_EMPTY');
  }

  const buyer = input.buyer;
  if (buyer === undefined || buyer === null) {
    reportRequired(issues, ['buyer'], buyer, 'an object with at least type (B2B, B2C or B2G)', input);
  } else if (!isRecord(buyer)) reportWrongType(issues, ['buyer'], buyer, 'an object');
  else checkBuyer(buyer, o, issues, input);

  checkDueDate(input.dueDate, issues, input);

  const lines = input.lines;
  let computable = false;
  if (lines === undefined || lines === null) reportRequired(issues, ['lines'], lines, 'an array with at least one line', input);
  else if (!Array.isArray(lines)) reportWrongType(issues, ['lines'], lines, 'an array of lines');
  else if (lines.length === 0) issues.add('LINES_EMPTY', ['lines'], { value: lines });
  else if (lines.length > o.maxLines) {
    // Usually a length set by hand or a sparse array: walking it would take minutes or run out of memory.
    issues.add('LINES_TOO_MANY', ['lines'], { value: lines.length });
  } else computable = checkLines(lines, o, issues, input);

  let inputTotals: InputTotal[] | undefined;
  for (const key in input) {
    if (key !== 'businessId' && key !== 'buyer' && key !== 'dueDate' && key !== 'lines' && input[key] !== undefined) {
      if (Object.hasOwn(INPUT_TOTAL_FIELDS, key)) collectInputTotal(key, input[key], issues, (inputTotals ??= []));
      else reportUnknownField(issues, INVOICE, [key], input[key], [input]);
    }
  }

  return reconcileTotals(computable ? (lines as TotalsLineInput[]) : undefined, o, issues, inputTotals);
}
