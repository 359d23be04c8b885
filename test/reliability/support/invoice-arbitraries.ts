/**
 * Generators for the fuzzing of `checkInvoice` and `computeTotals`: any value at all (JSON,
 * JavaScript oddities, hostile objects), invoices that are nearly valid (each field drawn from good
 * values, edge values and plainly wrong ones), and lines whose amounts stress exact arithmetic.
 */
import fc from 'fast-check';
import { HS_CODES, ISIC_CODES } from '../../../src/codes/index.js';

/** Objects that fight back: throwing getters and proxies, cycles, null prototypes, frozen arrays. */
const hostile: fc.Arbitrary<unknown> = fc.constantFrom(
  'throwing getter',
  'throwing proxy',
  'cycle',
  'null prototype',
  'frozen lines',
  'sparse lines',
  'toString throws',
).map((kind) => {
  switch (kind) {
    case 'throwing getter':
      return Object.defineProperty({ businessId: 'biz_1', buyer: { type: 'B2B' } }, 'lines', {
        enumerable: true,
        get() {
          throw new Error('getter says no');
        },
      });
    case 'throwing proxy':
      // Throws on every string key; symbol lookups (the test runner's own) pass.
      return new Proxy(
        {},
        {
          get(target, key) {
            if (typeof key === 'symbol') return Reflect.get(target, key);
            throw new TypeError('proxy says no');
          },
          has(target, key) {
            if (typeof key === 'symbol') return Reflect.has(target, key);
            throw new TypeError('proxy says no');
          },
          getOwnPropertyDescriptor() {
            throw new TypeError('proxy says no');
          },
        },
      );
    case 'cycle': {
      const line: Record<string, unknown> = { description: 'x', quantity: 1, unitPrice: 1, taxRate: 7.5, isicCode: '6202' };
      line.self = line;
      const invoice: Record<string, unknown> = { businessId: 'biz_1', buyer: { type: 'B2B' }, dueDate: '2026-12-31T00:00:00Z', lines: [line] };
      invoice.buyer = Object.assign(invoice.buyer as object, { invoice });
      return invoice;
    }
    case 'null prototype':
      return Object.assign(Object.create(null) as object, { businessId: 'biz_1', buyer: Object.create(null), lines: [Object.create(null)] });
    case 'frozen lines':
      return Object.freeze({ businessId: 'biz_1', buyer: Object.freeze({ type: 'B2B' }), dueDate: '2026-12-31T00:00:00Z', lines: Object.freeze([Object.freeze({ quantity: 1 })]) });
    case 'sparse lines':
      // eslint-disable-next-line no-sparse-arrays
      return { businessId: 'biz_1', buyer: { type: 'B2B' }, dueDate: '2026-12-31T00:00:00Z', lines: [, , { quantity: 1 }] };
    default:
      return { businessId: { toString: () => { throw new Error('no'); } }, buyer: { type: { valueOf: () => { throw new Error('no'); } } }, lines: [{ description: Symbol('d') }] };
  }
});

/** Any value: JSON, JavaScript values JSON cannot hold, and hostile objects. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue() },
  {
    weight: 3,
    arbitrary: fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    }),
  },
  { weight: 1, arbitrary: hostile },
);

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.integer({ min: 0, max: values.length - 1 }).map((i) => values[i] as T);

/** Amounts: ordinary money, float noise, huge and tiny values, strings, and wrong ones. */
export const amount: fc.Arbitrary<number | string> = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 1000),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.1 + 0.2, 12.990000000000002, 1e-7, 5e-324, 1e21, 1.5e300, -0, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2),
  fc.tuple(fc.constantFrom('', '-'), fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n }), { nil: undefined })).map(
    ([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  ),
);

const wrongAmount = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, '1,5', '12.50 EUR', '', ' 7 ', '0x10', null, true, [], {}, '1e3', '.5', '5.');

const taxRate = fc.oneof(fc.constantFrom(0, 5, 7.5, 10, 12.5, 20, 100, '7.5', '7.50'), fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100));
const wrongTaxRate = fc.constantFrom(0.075, -5, 150, 1e6, '7.5%', Number.NaN);

const isic = pick([...ISIC_CODES]);
const hs = pick([...HS_CODES]);
const nearCode = fc.oneof(
  fc.stringMatching(/^\d{4}\.\d{2}$/),
  fc.stringMatching(/^\d{4}$/),
  fc.stringMatching(/^\d{1,8}(\.\d{0,3})?$/),
  isic.map((c) => `${c}.00`),
  hs.map((c) => c.replace('.', '')),
  fc.constantFrom('0000.00', '0000', ' 6202', '6202 ', '８４７１.３０', 'N/A', ''),
);

const category = fc.constantFrom('a', 'ab', 'abc', 'Electronics', '   ', 'Professional services');

const isoDateTime = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

/** Amounts an ordinary valid invoice carries. */
const goodMoney = fc.oneof(
  fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
  fc.integer({ min: 1, max: 100_000 }),
  fc.double({ min: 0.01, max: 1e7, noNaN: true, noDefaultInfinity: true }),
);
const goodQuantity = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 1000));

/** A valid line: a good (hsnCode) or a service (isicCode), with every required field. */
const validLine: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.boolean(),
    fc.record(
      {
        description: fc.string({ minLength: 1, maxLength: 40 }).filter((d) => d.trim() !== ''),
        quantity: goodQuantity,
        unitPrice: goodMoney,
        taxRate: taxRate,
        discountRate: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        productCategory: fc.option(fc.constantFrom('Electronics', 'Office supplies'), { nil: undefined }),
        sku: fc.option(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), { nil: undefined }),
      },
      { requiredKeys: ['description', 'quantity', 'unitPrice', 'taxRate'] },
    ),
    hs,
    isic,
  )
  .map(([good, line, h, i]) => ({ ...line, ...(good ? { hsnCode: h } : { isicCode: i }) }));

/** A valid invoice. */
const validInvoice: fc.Arbitrary<Record<string, unknown>> = fc.record({
  businessId: fc.stringMatching(/^biz_[a-z0-9]{1,12}$/),
  buyer: fc.record(
    {
      type: fc.constantFrom('B2B', 'B2C', 'B2G'),
      tin: fc.stringMatching(/^\d{8}-\d{4}$/),
      name: fc.string({ minLength: 1, maxLength: 30 }),
      email: fc.emailAddress(),
    },
    { requiredKeys: ['type', 'tin'] },
  ),
  dueDate: isoDateTime,
  lines: fc.array(validLine, { minLength: 1, maxLength: 6 }),
});

/** Values a mutation puts in a field: edge cases, wrong types, and absence. */
const LINE_EDGES: Record<string, fc.Arbitrary<unknown>> = {
  description: fc.constantFrom('', '   ', '\u0000', 42),
  quantity: fc.oneof(wrongAmount, fc.constantFrom(0, -1, 1e21, 5e-324, '2', 12.990000000000002)),
  unitPrice: fc.oneof(wrongAmount, amount),
  taxRate: fc.oneof(wrongTaxRate, fc.constantFrom('7.5', 0, 100)),
  discountRate: fc.constantFrom(-10, 101, 0.5, '10', 100, Number.NaN),
  hsnCode: fc.oneof(nearCode, hs),
  isicCode: fc.oneof(nearCode, isic),
  productCategory: category,
  serviceCategory: category,
  extra: fc.jsonValue({ maxDepth: 1 }),
};
const INVOICE_EDGES: Record<string, fc.Arbitrary<unknown>> = {
  businessId: fc.constantFrom('', '  ', 42, null),
  buyer: fc.constantFrom('B2B', null, [], {}),
  'buyer.type': fc.constantFrom('b2b', 'B2X', '', 'B2B ', null),
  'buyer.tin': fc.constantFrom('N/A', '00000000-0000', '0', '', 'unknown', '12345678', 12345678),
  'buyer.email': fc.constantFrom('not-an-email', '', 'a@b'),
  dueDate: fc.constantFrom('2026-12-31', '31/12/2026', '2026-12-31T00:00:00', '2026-02-30T00:00:00Z', 'tomorrow', '', 1767225600000),
  lines: fc.constantFrom([], [null], [[]], 'lines', {}),
  tax: fc.constantFrom(7.5, '7.5'),
  total: fc.constantFrom(100, '107.50'),
  subtotal: fc.constantFrom(100, '100.00'),
};

/** One change to a valid invoice: a field set to an edge value, or removed (`undefined`). */
const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('line' as const),
    index: fc.nat(5),
    field: fc.constantFrom(...Object.keys(LINE_EDGES)),
    remove: fc.boolean(),
    seed: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('invoice' as const),
    index: fc.constant(0),
    field: fc.constantFrom(...Object.keys(INVOICE_EDGES)),
    remove: fc.boolean(),
    seed: fc.nat(),
  }),
);

/**
 * An invoice that is valid apart from zero to four changes, each a field set to an edge value or
 * removed: mostly a little wrong, sometimes right, so both the rules and the totals get exercised.
 */
export const nearInvoice: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(validInvoice, fc.array(mutation, { maxLength: 4 }))
  .chain(([invoice, mutations]) =>
    fc
      .tuple(...mutations.map((m) => (m.kind === 'line' ? LINE_EDGES[m.field]! : INVOICE_EDGES[m.field]!)))
      .map((values) => {
        const out = structuredClone(invoice);
        mutations.forEach((m, i) => {
          const value = m.remove ? undefined : values[i];
          let target: Record<string, unknown> | undefined = out;
          let key = m.field;
          if (m.kind === 'line') {
            // An earlier change may have removed or replaced the lines.
            if (!Array.isArray(out.lines) || out.lines.length === 0) return;
            target = (out.lines as Record<string, unknown>[])[m.index % out.lines.length];
          } else if (key.startsWith('buyer.')) {
            target = typeof out.buyer === 'object' && out.buyer !== null && !Array.isArray(out.buyer) ? (out.buyer as Record<string, unknown>) : undefined;
            key = key.slice('buyer.'.length);
          }
          if (target === undefined || typeof target !== 'object' || target === null || Array.isArray(target)) return;
          if (value === undefined) delete target[key];
          else target[key] = value;
        });
        return out;
      }),
  );

/** A line whose amounts are all readable decimals (for the totals reference). */
export const exactLine = fc.record(
  {
    quantity: fc.oneof(amount.filter((a) => typeof a !== 'string' || a.length < 20), fc.integer({ min: -5, max: 5 })),
    unitPrice: amount,
    taxRate: fc.oneof(taxRate, fc.integer({ min: -100, max: 100_000 }).map((n) => n / 1000), fc.constantFrom('0.125', '33.333')),
    discountRate: fc.option(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100), fc.constant('12.5')), { nil: undefined }),
  },
  { requiredKeys: ['quantity', 'unitPrice', 'taxRate'] },
);

/** Options of `computeTotals`. */
export const totalsOptions = fc.record(
  {
    minorUnits: fc.integer({ min: 0, max: 6 }),
    rounding: fc.constantFrom('line' as const, 'invoice' as const),
    roundingMode: fc.constantFrom('half-up' as const, 'half-even' as const),
  },
  { requiredKeys: [] },
);

/**
 * Options of `checkInvoice` (`strict` aside, which the test sets itself): the HS list, code
 * lists in each accepted form, thresholds, rounding, `ignore`, and invalid values of each.
 * `expectedTotals` is chosen by the test from the true totals (`reconcile`).
 */
export const checkOptions = fc
  .record(
    {
      hsCodes: fc.constantFrom<unknown>(HS_CODES, [...HS_CODES].slice(0, 50), (code: string) => code.startsWith('84'), 'not a list'),
      isicCodes: fc.constantFrom<unknown>(ISIC_CODES, { has: (code: string) => code === '6202' }, 42),
      minCategoryLength: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom<unknown>(-1, 'x', Number.NaN)),
      minTinLength: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constantFrom<unknown>(-3, '8')),
      minorUnits: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom<unknown>(13, -1, 2.5)),
      rounding: fc.constantFrom<unknown>('line', 'invoice', 'banker'),
      roundingMode: fc.constantFrom<unknown>('half-up', 'half-even', 'up'),
      ignore: fc.oneof(fc.array(fc.constantFrom('DUE_DATE_NO_OFFSET', 'BUYER_EMAIL_INVALID', 'HSN_CODE_UNKNOWN', 'NOT_A_CODE'), { maxLength: 3 }), fc.constantFrom<unknown>('DUE_DATE_NO_OFFSET', 7)),
    },
    { requiredKeys: [] },
  )
  .map((o) => o as Record<string, unknown>);

/** How the test sets `expectedTotals`: none, the true figures, a cent off, or garbage. */
export const reconcile = fc.constantFrom('none', 'none', 'exact', 'cent-off', 'garbage' as const);
