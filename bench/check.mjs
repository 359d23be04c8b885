#!/usr/bin/env node
/**
 * Benchmarks of the local checks. Not a test: prints timings, asserts nothing.
 *
 *   npm run build && node bench/check.mjs [--quick]
 *
 * 1. checkInvoice() throughput in invoice lines per second, for invoices of 1, 10 and 100 lines,
 *    against a bare zod parse of the same shape (types only, no rules), measured in the same rounds.
 *    Also with HS membership (`opts.hsCodes`) and computeTotals() alone. Goals: at least 1,000,000
 *    lines/s, and at most 2× the bare zod parse time.
 * 2. The CLI on 10,000 generated invoice files (3 lines each): wall-clock time of
 *    `invoicing check <dir>`, text and json. Goal: under 3 s on 2 cores.
 *
 * Each throughput figure is the median of several rounds, the variants taking turns within each
 * round so that a disturbance hits them alike; each CLI figure is the median of 3 runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { dist, median, quick, report, requireBuild } from './lib/common.mjs';

requireBuild();
const { checkInvoice, computeTotals } = await import(join(dist, 'index.js'));
const { HS_CODES } = await import(join(dist, 'codes.js'));

// The same shape as the service document's Invoice, Buyer and Invoice line tables, types only.
const Line = z.object({
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  taxRate: z.number(),
  hsnCode: z.string().optional(),
  isicCode: z.string().optional(),
  sku: z.string().optional(),
  discountRate: z.number().optional(),
  inventoryItemId: z.string().optional(),
  productCategory: z.string().optional(),
  serviceCategory: z.string().optional(),
});
const Invoice = z.object({
  businessId: z.string(),
  buyer: z.object({
    type: z.enum(['B2B', 'B2C', 'B2G']),
    tin: z.string().optional(),
    name: z.string().optional(),
    email: z.string().optional(),
  }),
  dueDate: z.string(),
  lines: z.array(Line).min(1),
});

const GOODS = ['8471.30', '8544.42', '8517.13', '9403.30', '4820.10'];
const SERVICES = ['6202', '6201', '7020', '6920', '8299'];

function makeInvoice(lines, seed = 0) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const k = seed + i;
    out.push(
      k % 2 === 0
        ? { description: `Item ${k}`, quantity: 1 + (k % 7), unitPrice: (999 + 100 * (k % 50)) / 100, taxRate: k % 5 === 0 ? 0 : 7.5, hsnCode: GOODS[k % 5], sku: `SKU-${k}` }
        : { description: `Service ${k}`, quantity: 2.5, unitPrice: 150, taxRate: 7.5, isicCode: SERVICES[k % 5], discountRate: 10 },
    );
  }
  // Through JSON, so objects have the shapes JSON.parse gives them (as in real use).
  return JSON.parse(
    JSON.stringify({
      businessId: 'biz_123',
      buyer: { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd', email: 'ap@acme.example' },
      dueDate: '2026-12-31T00:00:00Z',
      lines: out,
    }),
  );
}

/**
 * Lines per second of each variant: `rounds` rounds, each giving every variant a slice of about
 * `ms` in turn; the median round per variant.
 */
function throughput(variants, invoices, linesPer) {
  const rounds = quick ? 3 : 7;
  const ms = quick ? 120 : 250;
  let sink = 0;
  for (const fn of Object.values(variants)) for (let i = 0; i < 2000; i++) sink ^= fn(invoices[i % invoices.length]) ? 1 : 0;
  const rates = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(variants)) {
      let n = 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < ms) {
        for (let i = 0; i < 200; i++) sink ^= fn(invoices[(n + i) % invoices.length]) ? 1 : 0;
        n += 200;
        elapsed = performance.now() - start;
      }
      rates[name].push((n * linesPer) / (elapsed / 1000));
    }
  }
  if (sink === 42) console.log('');
  return Object.fromEntries(Object.entries(rates).map(([name, values]) => [name, median(values)]));
}

const M = (n) => `${(n / 1e6).toFixed(2)} M lines/s`;
const rows = [];
const notes = [];
const sizes = [1, 10, 100];
const invoicesOf = new Map();
for (const size of sizes) {
  const invoices = Array.from({ length: 64 }, (_, s) => makeInvoice(size, s));
  for (const inv of invoices) {
    const r = checkInvoice(inv);
    if (!r.ok) throw new Error(`bench invoice is not valid: ${JSON.stringify(r.errors[0])}`);
  }
  invoicesOf.set(size, invoices);
}
// The comparison the goals are about first, for every size: checkInvoice(input) as most callers
// write it, and the bare parse. The variants with options come after, so that their call shapes do
// not leak into the JIT's view of the plain call before it is measured.
const main = new Map();
for (const size of sizes) {
  main.set(size, throughput({ zod: (inv) => Invoice.parse(inv), check: (inv) => checkInvoice(inv).ok }, invoicesOf.get(size), size));
}
const detail = ['| lines/invoice | checkInvoice | with hsCodes | zod parse | computeTotals | check time / zod time |', '|---|---|---|---|---|---|'];
for (const size of sizes) {
  const rate = main.get(size);
  const more = throughput(
    { checkHs: (inv) => checkInvoice(inv, { hsCodes: HS_CODES }).ok, totals: (inv) => computeTotals(inv.lines) },
    invoicesOf.get(size),
    size,
  );
  const timeRatio = rate.zod / rate.check;
  rows.push({
    measure: `checkInvoice, ${size}-line invoices`,
    value: M(rate.check),
    baseline: `${M(rate.zod)} bare zod parse`,
    ratio: `${timeRatio.toFixed(2)}× the time`,
    goal: '≥ 1 M lines/s, ≤ 2× the time',
    met: rate.check >= 1e6 && timeRatio <= 2,
    raw: { size, ...rate, ...more },
  });
  detail.push(
    `| ${size} | ${M(rate.check)} | ${M(more.checkHs)} | ${M(rate.zod)} | ${M(more.totals)} | ${timeRatio.toFixed(2)}× |`,
  );
}
notes.push(`checkInvoice throughput, median of ${quick ? 3 : 7} rounds:\n\n${detail.join('\n')}`);

// --- CLI on 10,000 files -------------------------------------------------------------------------
const FILES = quick ? 2000 : 10_000;
const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-'));
try {
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `batch-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(sub);
    writeFileSync(join(sub, `invoice-${i}.json`), JSON.stringify(makeInvoice(3, i), null, 2));
  }
  const bin = join(dist, 'cli/bin.js');
  const time = (args) => {
    const start = performance.now();
    const r = spawnSync(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
    if (r.status !== 0) throw new Error(`invoicing ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return performance.now() - start;
  };
  const runs = 3;
  const startup = median(Array.from({ length: 5 }, () => time(['check', join(dir, 'batch-0', 'invoice-0.json')])));
  for (const format of ['text', 'json']) {
    const ms = median(Array.from({ length: runs }, () => time(['check', dir, '--format', format])));
    rows.push({
      measure: `invoicing check on ${FILES.toLocaleString('en-US')} files (--format ${format}), median of ${runs}`,
      value: `${(ms / 1000).toFixed(2)} s`,
      baseline: `${startup.toFixed(0)} ms for one file`,
      goal: quick ? '(10,000 files: < 3 s)' : '< 3 s',
      met: quick ? undefined : ms < 3000,
      raw: { files: FILES, ms, startup },
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

report('Local checks', rows, { notes });
