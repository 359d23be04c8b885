#!/usr/bin/env node
/**
 * Classic `zod` against `zod/mini` for the SDK's response schemas. Not a test: prints timings,
 * asserts nothing. Needs no build: it measures the two zod entries themselves, with the same schema
 * written once through the functional API both entries share (`z.optional`, `z.union`, …).
 *
 *   node bench/schemas.mjs [--quick]
 *
 * 1. Cold import: a fresh `node -e "import('zod')"` against `import('zod/mini')` and a bare
 *    `node -e 0`, interleaved, one process each; the median wall-clock and CPU time.
 * 2. First parse: in a fresh process, import + building the schemas + the first parse of one record
 *    (zod compiles an object's parser on first use), each step timed on its own.
 * 3. Steady parse: one stored-invoice record of 12 fields (a loose object, unknown fields kept), and
 *    a list page of 100 such records, in microseconds per record. Goal: at most 5 µs per record.
 * 4. The SDK's own reader: `InvoiceSchema.safeParse()` and `readInvoiceRecord()` (src/model, bundled
 *    on the fly with esbuild, zod external) on the same records, one at a time and a 100-record page.
 *    Goal: at most 5 µs per record.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { machine, median, quick, report, root } from './lib/common.mjs';

const ENTRIES = { classic: 'zod', mini: 'zod/mini' };

// The stored record: the service does not publish its field names, so the schema is loose and
// admits the shapes a field comes in (a decimal as a number or a string, a timestamp as a string or
// epoch digits). Written with the functions both entries export.
const SCHEMA_SOURCE = `
  const money = z.optional(z.nullable(z.union([z.number(), z.string()])));
  const Record = z.looseObject({
    id: z.union([z.string(), z.number()]),
    status: z.optional(z.nullable(z.string())),
    businessId: z.optional(z.string()),
    subtotal: money,
    taxTotal: money,
    total: money,
    currency: z.optional(z.string()),
    dueDate: z.optional(z.string()),
    createdAt: z.optional(z.union([z.string(), z.number()])),
    updatedAt: z.optional(z.union([z.string(), z.number()])),
    errorMessage: z.optional(z.nullable(z.unknown())),
    attempts: z.optional(z.nullable(z.union([z.number(), z.string(), z.array(z.unknown())]))),
  });
  const Page = z.array(Record);
`;

function record(i) {
  return {
    id: `inv_${i}`,
    status: i % 3 === 0 ? 'Accepted' : 'Submitted',
    businessId: 'biz_1',
    subtotal: 100 + i,
    taxTotal: '7.50',
    total: 107.5 + i,
    currency: 'NGN',
    dueDate: '2026-12-31T00:00:00Z',
    createdAt: '2026-11-21T10:00:00Z',
    updatedAt: 1767225600 + i,
    errorMessage: null,
    attempts: 0,
    buyer: { type: 'B2B', tin: '12345678-0001' },
  };
}

const CPU_PROBE =
  ";process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('@cpu '+(u.user+u.system)/1000+'\\n')})";

function spawnOnce(code) {
  const start = process.hrtime.bigint();
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', code + CPU_PROBE], { encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (out.status !== 0) throw new Error(out.stderr);
  const cpu = Number(/@cpu ([\d.]+)/.exec(out.stderr)?.[1]);
  return { wall, cpu, stdout: out.stdout };
}

// 1. Cold import.
const coldRuns = quick ? 7 : 21;
const cold = { bare: { wall: [], cpu: [] }, classic: { wall: [], cpu: [] }, mini: { wall: [], cpu: [] } };
for (let i = 0; i < coldRuns; i++) {
  for (const [name, code] of [
    ['bare', 'void 0;'],
    ['classic', "await import('zod');"],
    ['mini', "await import('zod/mini');"],
  ]) {
    const { wall, cpu } = spawnOnce(code);
    cold[name].wall.push(wall);
    cold[name].cpu.push(cpu);
  }
}

// 2. First parse, in a fresh process per run.
const firstRuns = quick ? 5 : 15;
const FIRST = (entry) => `
  const t0 = performance.now();
  const z = await import('${entry}');
  const t1 = performance.now();
  ${SCHEMA_SOURCE}
  const t2 = performance.now();
  const r = ${JSON.stringify(record(1))};
  const ok = Record.safeParse(r).success;
  const t3 = performance.now();
  const page = Array.from({ length: 100 }, (_, i) => ({ ...r, id: 'inv_' + i }));
  Page.safeParse(page);
  const t4 = performance.now();
  if (!ok) process.exit(3);
  console.log(JSON.stringify({ importMs: t1 - t0, buildMs: t2 - t1, firstMs: t3 - t2, firstPageMs: t4 - t3 }));
`;
const first = { classic: [], mini: [] };
for (let i = 0; i < firstRuns; i++) {
  for (const [name, entry] of Object.entries(ENTRIES)) first[name].push(JSON.parse(spawnOnce(FIRST(entry)).stdout));
}

// 3. Steady parse, in this process.
const steady = {};
const records = Array.from({ length: 1000 }, (_, i) => record(i));
const page = records.slice(0, 100);
const rounds = quick ? 5 : 15;
const schemas = {};
for (const [name, entry] of Object.entries(ENTRIES)) {
  const z = await import(entry);
  schemas[name] = new Function('z', `${SCHEMA_SOURCE}; return { Record, Page };`)(z);
  steady[name] = { record: [], page: [] };
}
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(ENTRIES)) {
    const { Record, Page } = schemas[name];
    let t = performance.now();
    const n = 20_000;
    for (let i = 0; i < n; i++) if (!Record.safeParse(records[i % 1000]).success) throw new Error('record');
    steady[name].record.push(((performance.now() - t) * 1000) / n);
    t = performance.now();
    const pages = 200;
    for (let i = 0; i < pages; i++) if (!Page.safeParse(page).success) throw new Error('page');
    steady[name].page.push(((performance.now() - t) * 1000) / (pages * 100));
  }
}

// 4. The SDK's reader, from the source (no build of the package needed).
const outdir = join(root, 'node_modules', '.cache', 'bench-schemas');
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: [join(root, 'src', 'model', 'invoice.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  external: ['zod'],
  outfile: join(outdir, 'invoice.mjs'),
  logLevel: 'silent',
});
const model = await import(pathToFileURL(join(outdir, 'invoice.mjs')).href);
const reader = { schema: { record: [], page: [] }, read: { record: [], page: [] } };
for (let round = 0; round < rounds; round++) {
  let t = performance.now();
  const n = 20_000;
  for (let i = 0; i < n; i++) if (!model.InvoiceSchema.safeParse(records[i % 1000]).success) throw new Error('InvoiceSchema');
  reader.schema.record.push(((performance.now() - t) * 1000) / n);
  t = performance.now();
  for (let i = 0; i < n; i++) if (!model.readInvoiceRecord(records[i % 1000], { observedAt: 't' }).ok) throw new Error('readInvoiceRecord');
  reader.read.record.push(((performance.now() - t) * 1000) / n);
  const pages = 200;
  const PageSchema = (await import('zod')).array(model.InvoiceSchema);
  t = performance.now();
  for (let i = 0; i < pages; i++) if (!PageSchema.safeParse(page).success) throw new Error('page');
  reader.schema.page.push(((performance.now() - t) * 1000) / (pages * 100));
  t = performance.now();
  for (let i = 0; i < pages; i++) for (const r of page) if (!model.readInvoiceRecord(r, { observedAt: 't' }).ok) throw new Error('page');
  reader.read.page.push(((performance.now() - t) * 1000) / (pages * 100));
}

const ms = (v) => `${v.toFixed(1)} ms`;
const us = (v) => `${v.toFixed(2)} µs`;
const firstMedian = (name, key) => median(first[name].map((r) => r[key]));
const rows = [];
for (const name of Object.keys(ENTRIES)) {
  const entry = ENTRIES[name];
  rows.push(
    {
      measure: `${entry}: cold import, wall over bare node`,
      value: ms(median(cold[name].wall) - median(cold.bare.wall)),
      note: `cpu +${ms(median(cold[name].cpu) - median(cold.bare.cpu))}`,
    },
    { measure: `${entry}: import() inside the process`, value: ms(firstMedian(name, 'importMs')) },
    { measure: `${entry}: building the schemas`, value: ms(firstMedian(name, 'buildMs')) },
    { measure: `${entry}: first parse of one record`, value: ms(firstMedian(name, 'firstMs')) },
    { measure: `${entry}: first parse of a 100-record page`, value: ms(firstMedian(name, 'firstPageMs')) },
    { measure: `${entry}: steady parse, one record`, value: us(median(steady[name].record)), goal: '≤ 5 µs', met: median(steady[name].record) <= 5 },
    { measure: `${entry}: steady parse, 100-record page, per record`, value: us(median(steady[name].page)), goal: '≤ 5 µs', met: median(steady[name].page) <= 5 },
  );
}
for (const [label, key] of [['InvoiceSchema.safeParse', 'schema'], ['readInvoiceRecord', 'read']]) {
  rows.push(
    { measure: `SDK ${label}: one record`, value: us(median(reader[key].record)), goal: '≤ 5 µs', met: median(reader[key].record) <= 5 },
    { measure: `SDK ${label}: 100-record page, per record`, value: us(median(reader[key].page)), goal: '≤ 5 µs', met: median(reader[key].page) <= 5 },
  );
}
report('zod classic vs zod/mini', rows, {
  notes: [
    `${coldRuns} cold processes per variant (bare node ${ms(median(cold.bare.wall))} wall), ${firstRuns} first-parse processes, ${rounds} steady rounds; ${machine()}`,
    ...rows.filter((r) => r.note).map((r) => `${r.measure}: ${r.note}`),
  ],
});
