#!/usr/bin/env node
/**
 * Benchmarks of the local checks. Not a test: prints timings, asserts nothing.
 *
 *   npm run build && node bench/check.mjs [--quick]
 *
 * 1. checkInvoice() throughput in invoice lines per second, for invoices of 1, 10 and 100 lines,
 *    against a bare zod parse of the same shape (types only, no rules) and computeTotals() alone.
 *    Goals: at least 1,000,000 lines/s, and at most 2x the bare zod parse time.
 * 2. The CLI on 10,000 generated invoice files (3 lines each): wall-clock time of
 *    `invoicing check <dir>` in each format. Goal: under 3 s on 2 cores.
 *
 * Each throughput figure is the best of several rounds (the least disturbed by other processes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'cli/bin.js'))) {
  console.error('bench/check.mjs measures the built package: run `npm run build` first.');
  process.exit(2);
}
const quick = process.argv.includes('--quick');
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

/** Best lines/s over `rounds` rounds of ~`ms` milliseconds each. */
function throughput(fn, invoices, linesPer, rounds = quick ? 3 : 7, ms = quick ? 150 : 400) {
  let sink = 0;
  for (let i = 0; i < 2000; i++) sink ^= fn(invoices[i % invoices.length]) ? 1 : 0;
  let best = 0;
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let i = 0; i < 200; i++) sink ^= fn(invoices[(n + i) % invoices.length]) ? 1 : 0;
      n += 200;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (n * linesPer) / (elapsed / 1000));
  }
  if (sink === 42) console.log('');
  return best;
}

const fmt = (n) => `${(n / 1e6).toFixed(2)} M`;
console.log(
  `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ` +
    `load average ${loadavg()[0]?.toFixed(1)} at start (figures are pessimistic when it is above the core count)\n`,
);
console.log('checkInvoice throughput (invoice lines per second, best of rounds)\n');
const rows = [];
for (const size of [1, 10, 100]) {
  const invoices = Array.from({ length: 64 }, (_, s) => makeInvoice(size, s));
  for (const inv of invoices) {
    const r = checkInvoice(inv);
    if (!r.ok) throw new Error(`bench invoice is not valid: ${JSON.stringify(r.errors[0])}`);
  }
  const zod = throughput((inv) => Invoice.parse(inv), invoices, size);
  const check = throughput((inv) => checkInvoice(inv).ok, invoices, size);
  const checkHs = throughput((inv) => checkInvoice(inv, { hsCodes: HS_CODES }).ok, invoices, size);
  const totals = throughput((inv) => computeTotals(inv.lines), invoices, size);
  rows.push({ size, check, checkHs, zod, totals });
}
const header = ['lines/invoice', 'checkInvoice', 'with hsCodes', 'zod parse', 'computeTotals', 'check time / zod time'];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const r of rows) {
  console.log(`| ${r.size} | ${fmt(r.check)} | ${fmt(r.checkHs)} | ${fmt(r.zod)} | ${fmt(r.totals)} | ${(r.zod / r.check).toFixed(2)}x |`);
}

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
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const runs = quick ? 1 : 3;
  console.log(`\ninvoicing check on ${FILES.toLocaleString('en-US')} files (3 lines each), wall clock, median of ${runs}\n`);
  console.log('| command | time |');
  console.log('|---|---|');
  const startup = median(Array.from({ length: 5 }, () => time(['check', join(dir, 'batch-0', 'invoice-0.json')])));
  console.log(`| one file (start-up) | ${startup.toFixed(0)} ms |`);
  for (const args of [
    ['--format', 'text'],
    ['--format', 'json'],
    ['--format', 'github'],
    ['--format', 'text', '--hs-codes', 'none'],
  ]) {
    const ms = median(Array.from({ length: runs }, () => time(['check', dir, ...args])));
    console.log(`| \`invoicing check <dir> ${args.join(' ')}\` | ${(ms / 1000).toFixed(2)} s |`);
  }
  const globMs = median(Array.from({ length: runs }, () => time(['check', `${dir}/**/*.json`])));
  console.log(`| \`invoicing check '<dir>/**/*.json'\` | ${(globMs / 1000).toFixed(2)} s |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
