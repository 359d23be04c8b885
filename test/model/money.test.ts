import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareTotals,
  computeTotals,
  decimalEquals,
  toMinorUnits,
  tryMinorUnits,
  type ComputeTotalsOptions,
  type TotalsLineInput,
} from '../../src/check/index.js';

// --- an independent BigInt reference -----------------------------------------------------------
// Written from the definition, sharing no code with src/model/money.ts.

/** value as [digits, scale] from its shortest decimal text. */
function ref(value: number | string): [bigint, number] {
  const text = typeof value === 'number' ? String(value) : value;
  const [mantissa = '', exp = '0'] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const unsigned = mantissa.replace(/^[-+]/, '');
  const [int = '', frac = ''] = unsigned.split('.');
  let digits = BigInt(`${int}${frac}` || '0');
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return [negative ? -digits : digits, scale];
}

function refRound(n: bigint, d: bigint, mode: 'half-up' | 'half-even'): bigint {
  const negative = n < 0n;
  const a = negative ? -n : n;
  let q = a / d;
  const r = a - q * d;
  if (2n * r > d || (2n * r === d && (mode === 'half-up' || q % 2n === 1n))) q += 1n;
  return negative ? -q : q;
}

function refTotals(lines: TotalsLineInput[], mode: 'half-up' | 'half-even' = 'half-up') {
  let sub = 0n;
  let tax = 0n;
  for (const l of lines) {
    const [qd, qs] = ref(l.quantity);
    const [pd, ps] = ref(l.unitPrice);
    const [td, ts] = ref(l.taxRate);
    const [dd, ds] = l.discountRate === undefined || l.discountRate === null ? [0n, 0] : ref(l.discountRate);
    // net × 100 (minor units) = q·p·(100 − d)/100 × 100
    const num = qd * pd * (100n * 10n ** BigInt(ds) - dd);
    const net = refRound(num, 10n ** BigInt(qs + ps + ds), mode);
    const t = refRound(net * td, 10n ** BigInt(ts + 2), mode);
    sub += net;
    tax += t;
  }
  const f = (v: bigint) => {
    const neg = v < 0n;
    const s = (neg ? -v : v).toString().padStart(3, '0');
    return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
  };
  return { subtotal: f(sub), taxTotal: f(tax), total: f(sub + tax) };
}

const money = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
  fc.integer({ min: 0, max: 100_000 }),
  fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }),
);
const qty = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100_000 }).map((n) => n / 1000));
const rate = fc.oneof(fc.constantFrom(0, 5, 7.5, 10, 12.5, 19.6, 20, 100), fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100));
const lineArb = fc.record(
  { quantity: qty, unitPrice: money, taxRate: rate, discountRate: fc.option(rate, { nil: undefined }) },
  { requiredKeys: ['quantity', 'unitPrice', 'taxRate'] },
);

describe('model/money', () => {
  it('gives every figure with exactly minorUnits decimals, from numbers or decimal strings', () => {
    const lines = [
      { quantity: 2, unitPrice: '850.50', taxRate: 7.5 },
      { quantity: '3', unitPrice: 45, taxRate: '7.5' },
      { quantity: 1, unitPrice: 93, taxRate: 10 },
    ];
    for (const rounding of ['line', 'invoice'] as const) {
      const t = computeTotals(lines, { rounding });
      const figures = [t.subtotal, t.taxTotal, t.total, ...t.byRate.flatMap((g) => [g.net, g.tax]), ...t.lines.flatMap((l) => [l.net, l.tax])];
      for (const f of figures) expect(f, rounding).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(computeTotals([{ quantity: 1, unitPrice: 1836, taxRate: 0 }]).total).toBe('1836.00');
    expect(computeTotals([{ quantity: 1, unitPrice: '9.3', taxRate: 0 }]).subtotal).toBe('9.30');
  });

  it('adds ten lines of 0.1 to exactly 1.00', () => {
    const t = computeTotals(Array.from({ length: 10 }, () => ({ quantity: 1, unitPrice: 0.1, taxRate: 0 })));
    expect(t.subtotal).toBe('1.00');
    expect(t.total).toBe('1.00');
  });

  it('computes net, discount and tax per line and groups by rate, lowest first', () => {
    const t = computeTotals([
      { quantity: 3, unitPrice: 19.99, taxRate: 7.5, discountRate: 10 },
      { quantity: 1, unitPrice: 100, taxRate: 0 },
      { quantity: 2, unitPrice: '5.005', taxRate: '7.50' },
    ]);
    // 53.973 → 53.97, tax 4.047750 → 4.05; 100.00, 0; 10.01, 0.750750 → 0.75
    expect(t.lines.map((l) => [l.net, l.tax, l.rate])).toEqual([
      ['53.97', '4.05', '7.5'],
      ['100.00', '0.00', '0'],
      ['10.01', '0.75', '7.5'],
    ]);
    expect(t.byRate).toEqual([
      { rate: '0', net: '100.00', tax: '0.00' },
      { rate: '7.5', net: '63.98', tax: '4.80' },
    ]);
    expect([t.subtotal, t.taxTotal, t.total]).toEqual(['163.98', '4.80', '168.78']);
  });

  it('rounds half away from zero by default and half to even on request', () => {
    const lines = [{ quantity: 1, unitPrice: '0.125', taxRate: 0 }];
    expect(computeTotals(lines).subtotal).toBe('0.13');
    expect(computeTotals(lines, { roundingMode: 'half-even' }).subtotal).toBe('0.12');
    expect(computeTotals([{ quantity: 1, unitPrice: '0.135', taxRate: 0 }], { roundingMode: 'half-even' }).subtotal).toBe('0.14');
  });

  it("rounds per line by default and once per rate with rounding: 'invoice'", () => {
    const lines = Array.from({ length: 3 }, () => ({ quantity: 1, unitPrice: 0.333, taxRate: 10 }));
    const perLine = computeTotals(lines);
    expect([perLine.subtotal, perLine.taxTotal]).toEqual(['0.99', '0.09']);
    const perInvoice = computeTotals(lines, { rounding: 'invoice' });
    expect([perInvoice.subtotal, perInvoice.taxTotal, perInvoice.total]).toEqual(['1.00', '0.10', '1.10']);
  });

  it('supports other minor units', () => {
    expect(computeTotals([{ quantity: 3, unitPrice: 333.5, taxRate: 10 }], { minorUnits: 0 }).total).toBe('1101');
    expect(computeTotals([{ quantity: 1, unitPrice: 1.2345, taxRate: 0 }], { minorUnits: 3 }).subtotal).toBe('1.235');
  });

  it('falls back to BigInt for amounts beyond double precision', () => {
    const t = computeTotals([{ quantity: 1000, unitPrice: '12345678901234567.89', taxRate: 20 }]);
    expect(t.subtotal).toBe('12345678901234567890.00');
    expect(t.taxTotal).toBe('2469135780246913578.00');
    expect(computeTotals([{ quantity: 1e21, unitPrice: 1, taxRate: 0 }]).subtotal).toBe('1000000000000000000000.00');
  });

  it('throws a TypeError naming the line and field for a non-number', () => {
    expect(() => computeTotals([{ quantity: 1, unitPrice: Number.NaN, taxRate: 0 }])).toThrow(/lines\[0\]\.unitPrice/);
    expect(() => computeTotals([{ quantity: 1, unitPrice: 1, taxRate: '7,5' }])).toThrow(TypeError);
    expect(() => computeTotals([], { minorUnits: -1 } as ComputeTotalsOptions)).toThrow(RangeError);
  });

  it('throws a RangeError, without walking them, for more than 100,000 lines', () => {
    const line = { quantity: 1, unitPrice: 1, taxRate: 0 };
    const huge: unknown[] = [];
    huge.length = 2 ** 32 - 1;
    const sparse: unknown[] = [line, line, line];
    sparse.length = 10_000_000;
    // Every index of this one reads as a valid line: only the bound stops it.
    const endless = new Proxy([], {
      get: (target, key) => (key === 'length' ? 10_000_000 : typeof key === 'string' && /^\d+$/.test(key) ? line : Reflect.get(target, key)),
    });
    for (const lines of [huge, sparse, endless]) {
      expect(() => computeTotals(lines as never)).toThrow(RangeError);
      expect(() => computeTotals(lines as never)).toThrow(/lines has \d+ entries; computeTotals takes at most 100000/);
    }
    expect(computeTotals(Array.from({ length: 100_000 }, () => line)).subtotal).toBe('100000.00');
  });

  it('names the first hole of a sparse array as a missing line', () => {
    expect(() => computeTotals([{ quantity: 1, unitPrice: 1, taxRate: 0 }, , { quantity: 1, unitPrice: 1, taxRate: 0 }] as never)).toThrow(
      /lines\[1\]\.quantity is not a finite number/,
    );
  });

  it('gives empty totals for no lines', () => {
    expect(computeTotals([])).toMatchObject({ subtotal: '0.00', total: '0.00', byRate: [], lines: [] });
  });

  it('converts amounts to minor units exactly', () => {
    expect(toMinorUnits(0.1 + 0.2)).toBe(30n);
    expect(toMinorUnits('107.505')).toBe(10751n);
    expect(toMinorUnits('-0.005')).toBe(-1n);
    expect(toMinorUnits('1e3')).toBe(100000n);
    expect(tryMinorUnits('12,5')).toBeUndefined();
    expect(tryMinorUnits(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(() => toMinorUnits('abc')).toThrow(RangeError);
  });

  it('compares amounts and totals at the minor unit', () => {
    expect(decimalEquals('107.5', 107.5)).toBe(true);
    expect(decimalEquals(0.1 + 0.2, '0.30')).toBe(true);
    expect(decimalEquals('1', 'x')).toBe(false);
    const mine = computeTotals([{ quantity: 2, unitPrice: 50, taxRate: 7.5 }]);
    expect(compareTotals({ subtotal: 100, taxTotal: 7.5, total: 107.5 }, mine)).toEqual([]);
    expect(compareTotals({ total: '108', taxTotal: null }, mine)).toEqual([
      { field: 'total', expected: '108.00', actual: '107.50', difference: '-0.50' },
    ]);
    expect(compareTotals({ subtotal: 'n/a' }, mine)).toEqual([{ field: 'subtotal', expected: 'n/a', actual: '100.00' }]);
  });

  it('rounds the figures it compares with the rounding mode given (half-up by default)', () => {
    const even = computeTotals([{ quantity: 1, unitPrice: 0.125, taxRate: 0 }], { roundingMode: 'half-even' });
    expect(even.total).toBe('0.12');
    expect(compareTotals({ total: '0.125' }, even, 2, 'half-even')).toEqual([]);
    expect(compareTotals({ total: '0.125' }, even)).toEqual([
      { field: 'total', expected: '0.13', actual: '0.12', difference: '-0.01' },
    ]);
  });

  it('equals an independent BigInt reference on random invoices (property)', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 20 }), fc.constantFrom('half-up', 'half-even' as const), (lines, mode) => {
        const t = computeTotals(lines, { roundingMode: mode });
        expect({ subtotal: t.subtotal, taxTotal: t.taxTotal, total: t.total }).toEqual(refTotals(lines, mode));
      }),
      { numRuns: 500 },
    );
  });

  it('equals the independent reference for any doubles, negative and huge ones included (property)', () => {
    const anyNumber = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
      fc.tuple(fc.integer({ min: -2e9, max: 2e9 }), fc.integer({ min: 0, max: 9 })).map(([n, k]) => n / 10 ** k),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: anyNumber, unitPrice: anyNumber, taxRate: anyNumber }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom('half-up', 'half-even' as const),
        (lines, mode) => {
          const t = computeTotals(lines, { roundingMode: mode });
          expect({ subtotal: t.subtotal, taxTotal: t.taxTotal, total: t.total }).toEqual(refTotals(lines, mode));
        },
      ),
      { numRuns: 1000 },
    );
  });
  it('groups lines by rate however the rate is written, with many distinct rates too', () => {
    const rates = Array.from({ length: 20 }, (_, k) => k + 0.5);
    const lines = [...rates, ...rates.map((r) => `${r}0`), ...rates.map((r) => String(r))].map((taxRate) => ({ quantity: 1, unitPrice: 10, taxRate }));
    const t = computeTotals(lines);
    expect(t.byRate.map((g) => g.rate)).toEqual(rates.map(String));
    expect(t.byRate.every((g) => g.net === '30.00')).toBe(true);
    expect({ subtotal: t.subtotal, taxTotal: t.taxTotal, total: t.total }).toEqual(refTotals(lines));
    expect(computeTotals(lines, { rounding: 'invoice' }).byRate).toEqual(t.byRate);
  });
});
