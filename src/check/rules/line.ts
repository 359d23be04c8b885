/**
 * Invoice line rules (service document, Invoice line table, and Tax rules): description present;
 * quantity finite and > 0; unitPrice finite and >= 0; taxRate required, a percentage from 0 to 100
 * (a value r between 0 and 1 is a fraction sent by mistake when r × 100 is a standard rate or the
 * rate of another line, 0.075 for 7.5; any other such r is a real rate below 1 %, only unusual);
 * discountRate 0 to 100;
 * productCategory / serviceCategory not very short; no fields the service does not read.
 *
 * This loop runs once per line of every invoice checked, so the well-formed case is a handful of
 * `typeof` tests and comparisons; anything that builds a message sits in the `*Problem` functions.
 */
import type { IssueCollector, IssuePath } from '../issues.js';
import { shiftDecimal } from '../../model/money.js';
import type { ResolvedCheckOptions } from '../options.js';
import { checkClassification } from './classification.js';
import {
  checkOptionalString,
  isBlank,
  isTrimmedSpace,
  reportRequired,
  reportUnknownField,
  reportWrongType,
  type SpecialFields,
} from './fields.js';

export const LINE_FIELDS = [
  'description', 'quantity', 'unitPrice', 'taxRate', 'hsnCode', 'isicCode', 'sku', 'discountRate',
  'inventoryItemId', 'productCategory', 'serviceCategory',
] as const;

const LINE_ALIASES: Record<string, string> = {
  hs: 'hsnCode', hsn: 'hsnCode', hscode: 'hsnCode', hs_code: 'hsnCode', hsn_code: 'hsnCode', commoditycode: 'hsnCode',
  tariffcode: 'hsnCode', isic: 'isicCode', isic_code: 'isicCode', servicecode: 'isicCode', activitycode: 'isicCode',
  price: 'unitPrice', unit_price: 'unitPrice', unitcost: 'unitPrice', qty: 'quantity', count: 'quantity',
  units: 'quantity', vat: 'taxRate', vatrate: 'taxRate', tax: 'taxRate', tax_rate: 'taxRate', taxpercent: 'taxRate',
  rate: 'taxRate', discount: 'discountRate', discount_rate: 'discountRate', discountpercent: 'discountRate',
  name: 'description', title: 'description', desc: 'description', category: 'productCategory',
  product_category: 'productCategory', service_category: 'serviceCategory', itemid: 'inventoryItemId',
  inventory_item_id: 'inventoryItemId',
};

const LINE_SPECIAL: SpecialFields = {
  tax: new Set(['taxCategory', 'taxAmount', 'vatAmount', 'taxCode', 'vatCategory']),
  total: new Set(['lineTotal', 'total', 'netAmount', 'amount', 'lineAmount', 'subtotal', 'grossAmount']),
};

const HOLE = 'a hole in a sparse array';

function isLineField(key: string): boolean {
  switch (key) {
    case 'description':
    case 'quantity':
    case 'unitPrice':
    case 'taxRate':
    case 'hsnCode':
    case 'isicCode':
    case 'sku':
    case 'discountRate':
    case 'inventoryItemId':
    case 'productCategory':
    case 'serviceCategory':
      return true;
    default:
      return false;
  }
}

/**
 * Checks every line (each one plain, or the sentView of the caller's line: see sentInvoice). Returns
 * whether all lines' amounts are finite numbers, i.e. whether totals can be computed (range
 * problems such as a negative price are reported but do not stop the totals). `invoice` is the
 * object the lines sit in.
 */
export function checkLines(
  lines: readonly unknown[],
  o: ResolvedCheckOptions,
  issues: IssueCollector,
  invoice: object,
): boolean {
  let computable = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (typeof line !== 'object' || line === null || Array.isArray(line)) {
      // A hole in a sparse array reads as undefined and is sent as null: say which it is.
      issues.add('LINE_NOT_OBJECT', ['lines', i], { value: line, reason: line === undefined && !(i in lines) ? HOLE : undefined });
      computable = false;
    } else if (!checkLine(line as Record<string, unknown>, i, o, issues, lines, invoice)) {
      computable = false;
    }
  }
  return computable;
}

function checkLine(
  line: Record<string, unknown>,
  i: number,
  o: ResolvedCheckOptions,
  issues: IssueCollector,
  lines: readonly unknown[],
  invoice: object,
): boolean {
  let computable = true;

  const description = line.description;
  if (typeof description !== 'string' || isBlank(description)) descriptionProblem(description, i, issues, line);

  const quantity = line.quantity;
  if (!(typeof quantity === 'number' && quantity > 0 && quantity < Infinity)) {
    if (!amountProblem(quantity, ['lines', i, 'quantity'], issues, line)) computable = false;
    else issues.add('LINE_QUANTITY_NOT_POSITIVE', ['lines', i, 'quantity'], { value: quantity });
  }

  const unitPrice = line.unitPrice;
  if (!(typeof unitPrice === 'number' && unitPrice >= 0 && unitPrice < Infinity)) {
    if (!amountProblem(unitPrice, ['lines', i, 'unitPrice'], issues, line)) computable = false;
    else issues.add('LINE_UNIT_PRICE_NEGATIVE', ['lines', i, 'unitPrice'], { value: unitPrice });
  }

  const taxRate = line.taxRate;
  if (!(typeof taxRate === 'number' && ((taxRate >= 1 && taxRate <= 100) || taxRate === 0))) {
    if (!amountProblem(taxRate, ['lines', i, 'taxRate'], issues, line)) computable = false;
    // amountProblem passed it: a finite number outside the accepted ranges.
    else if ((taxRate as number) > 0 && (taxRate as number) < 1) lowTaxRate(taxRate as number, i, o, issues, lines);
    else issues.add('LINE_TAX_RATE_OUT_OF_RANGE', ['lines', i, 'taxRate'], { value: taxRate });
  }

  const discountRate = line.discountRate;
  if (
    discountRate !== undefined &&
    discountRate !== null &&
    !(typeof discountRate === 'number' && ((discountRate >= 1 && discountRate <= 100) || discountRate === 0))
  ) {
    if (!amountProblem(discountRate, ['lines', i, 'discountRate'], issues, line, false)) computable = false;
    else {
      const path = ['lines', i, 'discountRate'];
      const d = discountRate as number;
      if (d < 0 || d > 100) issues.add('LINE_DISCOUNT_RATE_OUT_OF_RANGE', path, { value: d });
      else issues.add('LINE_DISCOUNT_RATE_FRACTION', path, { value: d, suggestion: shiftDecimal(d, 2) });
    }
  }

  const productCategory = line.productCategory;
  if (productCategory !== undefined && productCategory !== null) {
    categoryCheck(productCategory, ['lines', i, 'productCategory'], o.minCategoryLength, issues);
  }
  const serviceCategory = line.serviceCategory;
  if (serviceCategory !== undefined && serviceCategory !== null) {
    categoryCheck(serviceCategory, ['lines', i, 'serviceCategory'], o.minCategoryLength, issues);
  }
  const sku = line.sku;
  if (sku !== undefined && typeof sku !== 'string') checkOptionalString(issues, sku, ['lines', i, 'sku']);
  const inventoryItemId = line.inventoryItemId;
  if (inventoryItemId !== undefined && typeof inventoryItemId !== 'string') {
    checkOptionalString(issues, inventoryItemId, ['lines', i, 'inventoryItemId']);
  }

  checkClassification(line, i, o, issues);

  for (const key in line) {
    if (!isLineField(key) && line[key] !== undefined) {
      reportUnknownField(issues, 'line', ['lines', i], key, line[key], [invoice, lines, line], LINE_FIELDS, LINE_ALIASES, LINE_SPECIAL);
    }
  }
  return computable;
}

function descriptionProblem(description: unknown, i: number, issues: IssueCollector, line: object): void {
  const path = ['lines', i, 'description'];
  if (description === undefined || description === null) {
    reportRequired(issues, path, description, 'a string saying what is sold', line);
  } else if (typeof description !== 'string') reportWrongType(issues, path, description, 'a string');
  else issues.add('LINE_DESCRIPTION_EMPTY', path, { value: description });
}

/**
 * Reports a missing, mistyped or non-finite amount and returns false; returns true when the value
 * is a finite number (so the caller goes on to judge its range).
 */
function amountProblem(
  value: unknown,
  path: IssuePath,
  issues: IssueCollector,
  line: object,
  required = true,
): boolean {
  if (value === undefined || value === null) {
    if (required) reportRequired(issues, path, value, 'a number', line);
    return !required;
  }
  if (typeof value !== 'number') {
    reportWrongType(issues, path, value, 'a number');
    return false;
  }
  if (!Number.isFinite(value)) {
    issues.add('NUMBER_NOT_FINITE', path, { value });
    return false;
  }
  return true;
}

/**
 * A taxRate r with 0 < r < 1. It is a fraction sent by mistake (an error) when r × 100, computed
 * exactly, is one of the standard rates (`opts.standardTaxRates`) or the rate of another line of
 * the same invoice: 0.075 beside 7.5. Otherwise it may be a real rate below 1 %: a warning only.
 */
function lowTaxRate(value: number, i: number, o: ResolvedCheckOptions, issues: IssueCollector, lines: readonly unknown[]): void {
  const path = ['lines', i, 'taxRate'];
  const suggestion = shiftDecimal(value, 2) as string;
  const percent = Number(suggestion);
  let reason: string | undefined;
  if (o.standardTaxRates.has(percent)) reason = `${suggestion} % is a standard rate`;
  else {
    for (let j = 0; j < lines.length; j++) {
      const other = lines[j];
      if (j !== i && typeof other === 'object' && other !== null && (other as { taxRate?: unknown }).taxRate === percent) {
        reason = `lines[${j}] has taxRate ${suggestion}`;
        break;
      }
    }
  }
  issues.add(reason === undefined ? 'LINE_TAX_RATE_LOW' : 'LINE_TAX_RATE_FRACTION', path, { value, suggestion, reason });
}

function categoryCheck(value: unknown, path: IssuePath, min: number, issues: IssueCollector): void {
  if (typeof value !== 'string') {
    reportWrongType(issues, path, value, 'a string');
    return;
  }
  // Cheap when the label is long enough and not padded; trims only otherwise.
  if (value.length >= min && !isTrimmedSpace(value.charCodeAt(0)) && !isTrimmedSpace(value.charCodeAt(value.length - 1))) return;
  if (value.trim().length < min) issues.add('LINE_CATEGORY_TOO_SHORT', path, { value, min });
}
