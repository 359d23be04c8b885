/** Invoice line rules (service document, Invoice line table, and Tax rules). */
import type { IssueCollector, IssuePath } from '../issues.js';
import { isDecimalText } from '../../model/decimal.js';
import { shiftDecimal } from '../../model/money.js';
import type { ResolvedCheckOptions } from '../options.js';
import { checkClassification } from './classification.js';
import { LINE_TOTAL_FIELDS } from './totals.js';
import {
  checkOptionalString, checkRequiredText, isBlank, isTrimmedSpace, reportRequired, reportUnknownField, reportWrongType, type Level,
} from './fields.js';

const LINE_FIELDS: readonly string[] = [
  'description', 'quantity', 'unitPrice', 'taxRate', 'hsnCode', 'isicCode', 'sku', 'discountRate',
  'inventoryItemId', 'productCategory', 'serviceCategory',
];

const LINE: Level = {
  owner: 'invoice line',
  known: LINE_FIELDS,
  aliases: {
    hs: 'hsnCode', hsn: 'hsnCode', hscode: 'hsnCode', hs_code: 'hsnCode', hsn_code: 'hsnCode', commoditycode: 'hsnCode',
    tariffcode: 'hsnCode', isic: 'isicCode', isic_code: 'isicCode', servicecode: 'isicCode', activitycode: 'isicCode',
    price: 'unitPrice', unit_price: 'unitPrice', unitcost: 'unitPrice', qty: 'quantity', count: 'quantity',
    units: 'quantity', vat: 'taxRate', vatrate: 'taxRate', tax: 'taxRate', tax_rate: 'taxRate', taxpercent: 'taxRate',
    rate: 'taxRate', discount: 'discountRate', discount_rate: 'discountRate', discountpercent: 'discountRate',
    name: 'description', title: 'description', desc: 'description', category: 'productCategory',
    product_category: 'productCategory', service_category: 'serviceCategory', itemid: 'inventoryItemId',
    inventory_item_id: 'inventoryItemId',
  },
  tax: new Set(['taxCategory', 'taxAmount', 'vatAmount', 'taxCode', 'vatCategory']),
  total: LINE_TOTAL_FIELDS,
};

/** Checks every line (each one plain, or the sentView of the caller's line: see sentInvoice). */
export function checkLines(lines: readonly unknown[], o: ResolvedCheckOptions, issues: IssueCollector, invoice: object): boolean {
  let computable = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (typeof line !== 'object' || line === null || Array.isArray(line)) {
      const reason = line === undefined && !(i in lines) ? 'a hole in a sparse array' : undefined;
      issues.add('LINE_NOT_OBJECT', ['lines', i], { value: line, reason });
      computable = false;
    } else if (!checkLine(line as Record<string, unknown>, i, o, issues, lines, invoice)) computable = false;
  }
  return computable;
}

function checkLine(
  line: Record<string, unknown>, i: number, o: ResolvedCheckOptions, issues: IssueCollector, lines: readonly unknown[], invoice: object,
): boolean {
  let computable = true;

  const description = line.description;
  if (typeof description !== 'string' || isBlank(description)) {
    checkRequiredText(issues, ['lines', i, 'description'], description, 'a string saying what is sold', line, 'LINE_DESCRIPTION_EMPTY');
  }

  const quantity = line.quantity;
  if (!(typeof quantity === 'number' && quantity > 0 && quantity < Infinity)) {
    const q = amountValue(quantity, ['lines', i, 'quantity'], issues, line);
    if (q === undefined) computable = false;
    else if (!(q > 0)) issues.add('LINE_QUANTITY_NOT_POSITIVE', ['lines', i, 'quantity'], { value: quantity });
  }

  const unitPrice = line.unitPrice;
  if (!(typeof unitPrice === 'number' && unitPrice >= 0 && unitPrice < Infinity)) {
    const p = amountValue(unitPrice, ['lines', i, 'unitPrice'], issues, line);
    if (p === undefined) computable = false;
    else if (p < 0) issues.add('LINE_UNIT_PRICE_NEGATIVE', ['lines', i, 'unitPrice'], { value: unitPrice });
  }

  const taxRate = line.taxRate;
  if (!(typeof taxRate === 'number' && ((taxRate >= 1 && taxRate <= 100) || taxRate === 0))) {
    const r = amountValue(taxRate, ['lines', i, 'taxRate'], issues, line);
    if (r === undefined) computable = false;
    else if (r > 0 && r < 1) lowTaxRate(taxRate, i, o, issues, lines);
    else if (!((r >= 1 && r <= 100) || r === 0)) issues.add('LINE_TAX_RATE_OUT_OF_RANGE', ['lines', i, 'taxRate'], { value: taxRate });
  }

  const discountRate = line.discountRate;
  const isRate = typeof discountRate === 'number' && ((discountRate >= 1 && discountRate <= 100) || discountRate === 0);
  if (!isRate && discountRate !== undefined && discountRate !== null) {
    const path = ['lines', i, 'discountRate'];
    const d = amountValue(discountRate, path, issues, line);
    if (d === undefined) computable = false;
    else if (d < 0 || d > 100) issues.add('LINE_DISCOUNT_RATE_OUT_OF_RANGE', path, { value: discountRate });
    else if (d > 0 && d < 1) issues.add('LINE_DISCOUNT_RATE_FRACTION', path, { value: discountRate, suggestion: shiftDecimal(discountRate, 2) });
  }

  const product = line.productCategory;
  if (product !== undefined && product !== null) categoryCheck(product, ['lines', i, 'productCategory'], o.minCategoryLength, issues);
  const service = line.serviceCategory;
  if (service !== undefined && service !== null) categoryCheck(service, ['lines', i, 'serviceCategory'], o.minCategoryLength, issues);
  const sku = line.sku;
  if (sku !== undefined && typeof sku !== 'string') checkOptionalString(issues, sku, ['lines', i, 'sku']);
  const item = line.inventoryItemId;
  if (item !== undefined && typeof item !== 'string') checkOptionalString(issues, item, ['lines', i, 'inventoryItemId']);

  checkClassification(line, i, o, issues);

  for (const key in line) {
    if (!LINE_FIELDS.includes(key) && line[key] !== undefined) {
      reportUnknownField(issues, LINE, ['lines', i, key], line[key], [invoice, lines, line]);
    }
  }
  return computable;
}

const AMOUNT = 'a number or a decimal string such as "850.50"';

/** The number of an amount given as a number or a decimal string, for judging its range. */
function amountNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && isDecimalText(value) ? Number(value) : undefined;
}

/** The value of an amount, or undefined after reporting it. */
function amountValue(value: unknown, path: IssuePath, issues: IssueCollector, line: object): number | undefined {
  if (value === undefined || value === null) return void reportRequired(issues, path, value, AMOUNT, line);
  const n = amountNumber(value);
  if (n !== undefined) return n;
  if (typeof value === 'number') issues.add('NUMBER_NOT_FINITE', path, { value });
  else {
    const trimmed = typeof value === 'string' ? value.trim().replace(/^\+/, '') : '';
    const near = trimmed !== '' && Number.isFinite(Number(trimmed)) ? shiftDecimal(trimmed, 0) : undefined;
    reportWrongType(issues, path, value, AMOUNT, near === undefined ? undefined : `"${near}" or the number ${near}`);
  }
  return undefined;
}

// The document's own example of a rate: "7.5 means 7.5 percent, not 0.075".
const DOCUMENT_EXAMPLE_RATE = '7.5';

function lowTaxRate(value: unknown, i: number, o: ResolvedCheckOptions, issues: IssueCollector, lines: readonly unknown[]): void {
  const path = ['lines', i, 'taxRate'];
  const suggestion = shiftDecimal(value, 2) as string;
  const percent = Number(suggestion);
  let fraction = suggestion === DOCUMENT_EXAMPLE_RATE ? `the document's example is ${suggestion}` : undefined;
  for (let j = 0; fraction === undefined && j < lines.length; j++) {
    const other = lines[j];
    if (j !== i && typeof other === 'object' && other !== null && amountNumber((other as { taxRate?: unknown }).taxRate) === percent) {
      fraction = `lines[${j}] has taxRate ${suggestion}`;
    }
  }
  if (fraction !== undefined) issues.add('LINE_TAX_RATE_FRACTION', path, { value, suggestion, reason: fraction });
  else {
    const reason = o.standardTaxRates.has(percent) ? `${suggestion} % is a standard rate` : undefined;
    issues.add('LINE_TAX_RATE_LOW', path, { value, suggestion, reason });
  }
}

/** The document: "a very short value is rejected", minimum not shown. */
function categoryCheck(value: unknown, path: IssuePath, min: number, issues: IssueCollector): void {
  if (typeof value !== 'string') return reportWrongType(issues, path, value, 'a string');
  // Cheap when the label is long enough and not padded; trims only otherwise.
  if (value.length >= min && value.length > 1 && !isTrimmedSpace(value.charCodeAt(0)) && !isTrimmedSpace(value.charCodeAt(value.length - 1))) return;
  const length = value.trim().length;
  if (length <= 1) issues.add('LINE_CATEGORY_TOO_SHORT', path, { value, reason: length === 0 ? 'blank' : 'a single character' });
  else if (length < min) issues.add('LINE_CATEGORY_SHORT', path, { value, min });
}
