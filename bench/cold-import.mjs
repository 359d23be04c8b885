#!/usr/bin/env node
/**
 * Cold import: a fresh `node -e "import('invoicing-sdk')"` against a fresh `node -e 0` (the built
 * package, through its own name), and the same for `require('invoicing-sdk')` (CommonJS). The
 * variants run interleaved, one process each, and each figure is the median wall-clock time; the
 * cost of the SDK is the difference. A serverless function pays it on every cold start.
 *
 *   npm run build && node bench/cold-import.mjs [--quick]
 *
 * Goal: at most 25 ms over bare node.
 */
import { spawnSync } from 'node:child_process';
import { fmtMs, median, quick, report, requireBuild, root } from './lib/common.mjs';

requireBuild();

const VARIANTS = {
  bare: '0',
  esm: "import('invoicing-sdk')",
  cjs: "require('invoicing-sdk')",
  // What a first request adds on top: the lazily loaded modules (envelope schemas and the like).
  esmClient:
    "import('invoicing-sdk').then(({ InvoicingClient }) => new InvoicingClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k_0123456789', fetch: async () => new Response(JSON.stringify({ success: true, data: { id: 'inv_1', status: 'draft' } })) }).invoices.retrieve('inv_1'))",
  codes: "import('invoicing-sdk/codes')",
};

const runs = quick ? 9 : 25;
const times = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
const run = (code) => {
  const start = performance.now();
  const result = spawnSync(process.execPath, ['-e', code], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`node -e "${code}" failed: ${result.stderr}`);
  return elapsed;
};
// One untimed round fills the file-system cache.
for (const code of Object.values(VARIANTS)) run(code);
for (let i = 0; i < runs; i++) {
  for (const [name, code] of Object.entries(VARIANTS)) times[name].push(run(code));
}

const bare = median(times.bare);
const row = (name, label, goal) => {
  const value = median(times[name]);
  const delta = value - bare;
  return {
    measure: label,
    value: fmtMs(value),
    baseline: `${fmtMs(bare)} node -e 0`,
    ratio: `+${fmtMs(delta)}`,
    goal: goal === undefined ? undefined : `≤ +${goal} ms`,
    met: goal === undefined ? undefined : delta <= goal,
    raw: { median: value, base: bare, delta },
  };
};
report(
  'Cold import',
  [
    row('esm', `cold import: node -e "import('invoicing-sdk')", median of ${runs}`, 25),
    row('cjs', `cold import: node -e "require('invoicing-sdk')", median of ${runs}`, 25),
    row('esmClient', 'cold import + new client + first retrieve (stub fetch)'),
    row('codes', "cold import: import('invoicing-sdk/codes')"),
  ],
  { notes: [`${runs} interleaved rounds, one fresh process per figure; the built dist/ through the package's own name.`] },
);
