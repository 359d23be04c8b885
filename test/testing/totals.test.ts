// The sandbox computes the service's totals with its own arithmetic (src/testing/totals.ts), so that
// a test comparing them with the SDK's computeTotals compares two independent computations. Here
// the two are held to each other on many generated invoices, directly and through POST /invoices.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals } from '../../src/model/money.js';
import { serviceTotals } from '../../src/testing/totals.js';
import { withSandbox } from './helpers.js';

/** A decimal with up to `places` decimals in [-max, max] (or [0, max]), as the JSON number a client sends. */
const decimal = (max: number, places: number, signed = false) =>
  fc
    .integer({ min: signed ? -max * 10 ** places : 0, max: max * 10 ** places })
    .chain((n) => fc.integer({ min: 0, max: places }).map((p) => Number((n / 10 ** places).toFixed(p))));

const line = fc.record(
  {
    quantity: fc.oneof(fc.integer({ min: 1, max: 10_000 }), decimal(1_000, 3)),
    unitPrice: fc.oneof(decimal(100_000, 4), decimal(5, 6, true), fc.constantFrom(0.1, 0.2, 0.3, 1.005, 2.675, 1e-7, 1.5e21)),
    taxRate: fc.oneof(fc.constantFrom(0, 5, 7.5, 12.5, 19.99, 100), decimal(100, 3)),
    discountRate: decimal(100, 2),
  },
  { requiredKeys: ['quantity', 'unitPrice', 'taxRate'] },
);
const lines = fc.array(line, { minLength: 1, maxLength: 12 });

const sdk = (input: readonly Record<string, number>[], rounding: 'line' | 'invoice' = 'line') => {
  const t = computeTotals(input as never, { rounding });
  return { subtotal: t.subtotal, tax: t.taxTotal, total: t.total };
};

describe('testing/totals (the sandbox’s own arithmetic)', () => {
  it('agrees with computeTotals on generated invoices', () => {
    fc.assert(
      fc.property(lines, (input) => {
        expect(serviceTotals(input)).toEqual(sdk(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds per invoice when asked, and agrees with computeTotals rounding per invoice', () => {
    fc.assert(
      fc.property(lines, (input) => {
        expect(serviceTotals(input, 'invoice')).toEqual(sdk(input, 'invoice'));
      }),
      { numRuns: 1_000 },
    );
    const three = [1, 2, 3].map(() => ({ quantity: 1, unitPrice: 0.07, taxRate: 7.5 }));
    expect(serviceTotals(three).tax).toBe('0.03');
    expect(serviceTotals(three, 'invoice').tax).toBe('0.02');
  });

  it('computes the cases binary floating point gets wrong', () => {
    expect(serviceTotals([{ quantity: 3, unitPrice: 0.1, taxRate: 0 }])).toEqual({ subtotal: '0.30', tax: '0.00', total: '0.30' });
    // 1.005 is below 1.005 as a double; read from its text it is exactly half a cent: away from zero.
    expect(serviceTotals([{ quantity: 1, unitPrice: 1.005, taxRate: 0 }]).subtotal).toBe('1.01');
    expect(serviceTotals([{ quantity: 1, unitPrice: -1.005, taxRate: 0 }]).subtotal).toBe('-1.01');
    expect(serviceTotals([{ quantity: 2, unitPrice: 850.5, taxRate: 7.5 }, { quantity: 3, unitPrice: 0.1, taxRate: 7.5 }])).toEqual({
      subtotal: '1701.30',
      tax: '127.60',
      total: '1828.90',
    });
    expect(serviceTotals([{ quantity: 3, unitPrice: 19.99, taxRate: 7.5, discountRate: 10 }]).total).toBe('58.02');
    expect(serviceTotals([{ quantity: 1, unitPrice: 1.5e21, taxRate: 0 }]).total).toBe('1500000000000000000000.00');
    expect(serviceTotals([{ quantity: 1e-7, unitPrice: 50_000, taxRate: 0 }]).total).toBe('0.01');
  });

  it('stores and sends what it computed, matching computeTotals through POST /invoices', async () => {
    await withSandbox({}, async (sandbox, call) => {
      await fc.assert(
        fc.asyncProperty(lines, async (input) => {
          const body = {
            businessId: sandbox.businessId,
            buyer: { type: 'B2B', tin: '20456789-0001' },
            dueDate: '2026-12-31T00:00:00Z',
            lines: input.map((l, i) => ({ description: `Line ${i}`, isicCode: '6201', ...l })),
          };
          const res = await call('POST', '/api/v1/invoices', { body });
          expect(res.status).toBe(201);
          const expected = sdk(input);
          const stored = sandbox.invoices.get(res.body.data.id);
          expect({ subtotal: stored?.subtotal, tax: stored?.tax, total: stored?.total }).toEqual(expected);
          // On the wire as JSON numbers: equal as decimals (1828.90 arrives as 1828.9).
          expect([res.body.data.subtotal, res.body.data.taxAmount, res.body.data.totalAmount]).toEqual(
            [expected.subtotal, expected.tax, expected.total].map(Number),
          );
        }),
        { numRuns: 150 },
      );
    });
  });

  it('is the sandbox’s own: nothing in src/testing imports the SDK’s money, check or filing code', () => {
    const dir = join(import.meta.dirname, '../../src/testing');
    const offenders: string[] = [];
    const seen = new Set<string>();
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const source = readFileSync(join(dir, file), 'utf8');
      for (const m of source.matchAll(/(?:import|export)\s[^;]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
        const specifier = m[1] ?? m[2] ?? '';
        seen.add(specifier);
        if (/\/(filing|check)\/|\/model\/(money|decimal)\.js$/.test(specifier)) offenders.push(`${file}: ${specifier}`);
        if (/\bcomputeTotals\b/.test(m[0])) offenders.push(`${file}: computeTotals`);
      }
    }
    expect(offenders).toEqual([]);
    // The scan reads the imports it must (static and dynamic).
    expect([...seen]).toEqual(expect.arrayContaining(['../model/status.js', './totals.js', '../codes/index.js']));
  });
});
