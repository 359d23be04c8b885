import { describe, expect, it } from 'vitest';
import { CHECK_RULES, checkInvoice, type CheckIssueCode, type CheckOptions } from '../../../src/check/index.js';
import { HS_CODES } from '../../../src/codes/index.js';
import { VALID_TOTALS, validInvoice, withBuyer, withInvoice, withLine, type Json } from '../fixtures.js';

interface Case {
  fail: unknown;
  failOpts?: CheckOptions;
  /** Where the failing case reports, when the path is worth pinning down. */
  path?: (string | number)[];
  pass: unknown;
  passOpts?: CheckOptions;
}

const throwing = Object.defineProperty(validInvoice(), 'businessId', {
  enumerable: true,
  get() {
    throw new Error('not readable');
  },
});

/** A valid invoice whose first line refers back to the invoice (JSON.stringify throws on it). */
function cyclic(): Json {
  const inv = validInvoice();
  ((inv.lines as Json[])[0] as Json).invoice = inv;
  return inv;
}

/** `{ a: { a: ... } }`, `levels` objects deep. */
function nested(levels: number): Json {
  let value: Json = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** One failing and one passing input per rule code. */
const CASES: Record<CheckIssueCode, Case> = {
  INVOICE_NOT_OBJECT: { fail: [], path: [], pass: validInvoice() },
  INPUT_UNREADABLE: { fail: throwing, path: [], pass: validInvoice() },
  INPUT_CYCLIC: { fail: cyclic(), pass: validInvoice() },
  INPUT_TOO_DEEP: { fail: withInvoice({ extra: nested(70) }), pass: withInvoice({ extra: nested(10) }) },
  INPUT_NOT_PLAIN_DATA: {
    fail: withInvoice({ buyer: new Map([['type', 'B2B']]) }),
    path: ['buyer'],
    pass: withInvoice({ buyer: { type: 'B2B', tin: '12345678-0001' } }),
  },
  OPTION_INVALID: {
    fail: validInvoice(),
    failOpts: { minCategoryLength: -1 },
    path: ['options', 'minCategoryLength'],
    pass: validInvoice(),
    passOpts: { minCategoryLength: 2 },
  },
  FIELD_REQUIRED: { fail: withInvoice({ businessId: undefined }), path: ['businessId'], pass: validInvoice() },
  FIELD_WRONG_TYPE: { fail: withLine({ quantity: '2,5' }), path: ['lines', 0, 'quantity'], pass: withLine({ quantity: '2.5' }) },
  NUMBER_NOT_FINITE: { fail: withLine({ unitPrice: Number.NaN }), path: ['lines', 0, 'unitPrice'], pass: validInvoice() },
  UNKNOWN_FIELD: { fail: withLine({ colour: 'red' }), path: ['lines', 0, 'colour'], pass: validInvoice() },
  TAX_FIELD_NOT_ACCEPTED: { fail: withInvoice({ taxRate: 7.5 }), path: ['taxRate'], pass: validInvoice() },
  TOTAL_FIELD_NOT_ACCEPTED: { fail: withInvoice({ total: 'N/A' }), path: ['total'], pass: withInvoice({ total: 3762.48 }) },
  BUSINESS_ID_EMPTY: { fail: withInvoice({ businessId: '  ' }), path: ['businessId'], pass: withInvoice({ businessId: 'b' }) },
  BUYER_TYPE_INVALID: { fail: withBuyer({ type: 'b2b' }), path: ['buyer', 'type'], pass: withBuyer({ type: 'B2G' }) },
  BUYER_TIN_MISSING: { fail: withBuyer({ tin: undefined }), path: ['buyer', 'tin'], pass: withBuyer({ tin: undefined, type: 'B2C' }) },
  BUYER_TIN_PLACEHOLDER: { fail: withBuyer({ tin: '000000000' }), path: ['buyer', 'tin'], pass: withBuyer({ tin: '20145678-0001' }) },
  BUYER_TIN_SUSPICIOUS: { fail: withBuyer({ tin: 'AB123' }), path: ['buyer', 'tin'], pass: withBuyer({ tin: 'AB123456' }) },
  BUYER_EMAIL_INVALID: { fail: withBuyer({ email: 'accounts' }), path: ['buyer', 'email'], pass: withBuyer({ email: 'a@b.co' }) },
  DUE_DATE_NOT_DATE_TIME: { fail: withInvoice({ dueDate: '2026-12-31' }), path: ['dueDate'], pass: validInvoice() },
  DUE_DATE_INVALID: {
    fail: withInvoice({ dueDate: '2026-02-30T00:00:00Z' }),
    path: ['dueDate'],
    pass: withInvoice({ dueDate: '2028-02-29T00:00:00Z' }),
  },
  DUE_DATE_NO_OFFSET: {
    fail: withInvoice({ dueDate: '2026-12-31T00:00:00' }),
    path: ['dueDate'],
    pass: withInvoice({ dueDate: '2026-12-31T00:00:00+01:00' }),
  },
  LINES_EMPTY: { fail: withInvoice({ lines: [] }), path: ['lines'], pass: validInvoice() },
  LINES_TOO_MANY: {
    fail: withInvoice({ lines: Object.assign([], { length: 2 ** 32 - 1 }) }),
    path: ['lines'],
    pass: validInvoice(),
  },
  LINE_NOT_OBJECT: { fail: withInvoice({ lines: ['Laptop'] }), path: ['lines', 0], pass: validInvoice() },
  LINE_DESCRIPTION_EMPTY: { fail: withLine({ description: ' ' }), path: ['lines', 0, 'description'], pass: validInvoice() },
  LINE_QUANTITY_NOT_POSITIVE: { fail: withLine({ quantity: 0 }), path: ['lines', 0, 'quantity'], pass: withLine({ quantity: 0.5 }) },
  LINE_UNIT_PRICE_NEGATIVE: { fail: withLine({ unitPrice: -1 }), path: ['lines', 0, 'unitPrice'], pass: withLine({ unitPrice: 0 }) },
  LINE_TAX_RATE_OUT_OF_RANGE: { fail: withLine({ taxRate: 101 }), path: ['lines', 0, 'taxRate'], pass: withLine({ taxRate: 100 }) },
  LINE_TAX_RATE_FRACTION: { fail: withLine({ taxRate: 0.075 }), path: ['lines', 0, 'taxRate'], pass: withLine({ taxRate: 7.5 }) },
  LINE_TAX_RATE_LOW: { fail: withLine({ taxRate: 0.5 }), path: ['lines', 0, 'taxRate'], pass: withLine({ taxRate: 0 }) },
  LINE_DISCOUNT_RATE_OUT_OF_RANGE: {
    fail: withLine({ discountRate: 150 }),
    path: ['lines', 0, 'discountRate'],
    pass: withLine({ discountRate: 100 }),
  },
  LINE_DISCOUNT_RATE_FRACTION: {
    fail: withLine({ discountRate: 0.1 }),
    path: ['lines', 0, 'discountRate'],
    pass: withLine({ discountRate: 10 }),
  },
  LINE_CATEGORY_TOO_SHORT: {
    fail: withLine({ productCategory: 'a' }),
    path: ['lines', 0, 'productCategory'],
    pass: withLine({ productCategory: 'ab' }),
  },
  LINE_CATEGORY_SHORT: {
    fail: withLine({ productCategory: 'ab' }),
    path: ['lines', 0, 'productCategory'],
    pass: withLine({ productCategory: 'abc' }),
  },
  CLASSIFICATION_MISSING: { fail: withLine({ hsnCode: undefined }), path: ['lines', 0], pass: validInvoice() },
  CLASSIFICATION_BOTH: { fail: withLine({ isicCode: '6202' }), path: ['lines', 0], pass: validInvoice() },
  HSN_CODE_FORMAT: { fail: withLine({ hsnCode: '847130' }), path: ['lines', 0, 'hsnCode'], pass: validInvoice() },
  HSN_CODE_FOUR_DIGITS: { fail: withLine({ hsnCode: '8471' }), path: ['lines', 0, 'hsnCode'], pass: validInvoice() },
  HSN_CODE_PLACEHOLDER: { fail: withLine({ hsnCode: '0000.00' }), path: ['lines', 0, 'hsnCode'], pass: validInvoice() },
  HSN_CODE_PADDED_ISIC: {
    fail: withLine({ hsnCode: '6202.00' }),
    path: ['lines', 0, 'hsnCode'],
    pass: withLine({ hsnCode: undefined, isicCode: '6202' }),
  },
  HSN_CODE_LOOKS_PADDED: { fail: withLine({ hsnCode: '7020.00' }), path: ['lines', 0, 'hsnCode'], pass: validInvoice() },
  HSN_CODE_UNKNOWN: {
    fail: withLine({ hsnCode: '9999.99' }),
    failOpts: { hsCodes: HS_CODES },
    path: ['lines', 0, 'hsnCode'],
    pass: validInvoice(),
    passOpts: { hsCodes: HS_CODES },
  },
  HSN_CODE_NOT_LISTED: {
    fail: withLine({ hsnCode: '8471.30' }),
    failOpts: { hsCodes: new Set(['8471.41']) },
    path: ['lines', 0, 'hsnCode'],
    pass: withLine({ hsnCode: '9999.99' }),
    passOpts: { hsCodes: new Set(['9999.99']) },
  },
  ISIC_CODE_FORMAT: { fail: withLine({ isicCode: '62020' }, 1), path: ['lines', 1, 'isicCode'], pass: validInvoice() },
  ISIC_CODE_PLACEHOLDER: { fail: withLine({ isicCode: '0000' }, 1), path: ['lines', 1, 'isicCode'], pass: validInvoice() },
  ISIC_CODE_UNKNOWN: { fail: withLine({ isicCode: '9999' }, 1), path: ['lines', 1, 'isicCode'], pass: validInvoice() },
  ISIC_CODE_NOT_LISTED: {
    fail: withLine({ isicCode: '6202' }, 1),
    failOpts: { isicCodes: ['6201'] },
    path: ['lines', 1, 'isicCode'],
    pass: withLine({ isicCode: '9999' }, 1),
    passOpts: { isicCodes: ['9999'] },
  },
  TOTALS_MISMATCH: {
    fail: validInvoice(),
    failOpts: { expectedTotals: { total: '3762.47' } },
    path: ['options', 'expectedTotals', 'total'],
    pass: validInvoice(),
    passOpts: { expectedTotals: VALID_TOTALS },
  },
  TOTALS_NOT_RECONCILED: {
    fail: withLine({ quantity: 'two' }),
    failOpts: { expectedTotals: VALID_TOTALS },
    path: ['options', 'expectedTotals'],
    pass: validInvoice(),
    passOpts: { expectedTotals: VALID_TOTALS },
  },
};

const all = (r: ReturnType<typeof checkInvoice>) => [...r.errors, ...r.warnings];

describe('check rule catalogue', () => {
  it('has a failing and a passing case for every code in CHECK_RULES, and no other', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(CHECK_RULES).sort());
  });

  it('keeps the valid fixture free of issues', () => {
    const report = checkInvoice(validInvoice());
    expect(all(report)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  for (const [code, c] of Object.entries(CASES) as [CheckIssueCode, Case][]) {
    describe(code, () => {
      it(`reports ${code} with the catalogue severity, a message and a hint`, () => {
        const report = checkInvoice(c.fail, c.failOpts);
        const hit = all(report).find((i) => i.code === code);
        expect(hit, JSON.stringify(all(report), null, 1)).toBeDefined();
        expect(hit?.severity).toBe(CHECK_RULES[code].severity);
        if (c.path !== undefined) expect(hit?.path).toEqual(c.path);
        expect(hit?.message.length).toBeGreaterThan(10);
        expect(hit?.hint?.length).toBeGreaterThan(5);
        expect(report.ok).toBe(CHECK_RULES[code].severity === 'warning' && report.errors.length === 0);
      });

      it(`does not report ${code} once the problem is fixed`, () => {
        const report = checkInvoice(c.pass, c.passOpts);
        expect(all(report).map((i) => i.code)).not.toContain(code);
      });
    });
  }

  it('gives every rule a summary and a known severity', () => {
    for (const rule of Object.values(CHECK_RULES)) {
      expect(rule.summary.length).toBeGreaterThan(10);
      expect(['error', 'warning']).toContain(rule.severity);
      expect(rule.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });
});
