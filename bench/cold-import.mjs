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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmtMs, median, quick, report, requireBuild, root } from './lib/common.mjs';

requireBuild();

// Node's ES module loader starts on the first import(): its own cost, shown for reference.
const scratch = mkdtempSync(join(tmpdir(), 'invoicing-cold-'));
const empty = join(scratch, 'empty.mjs');
writeFileSync(empty, 'export {};\n');
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const VARIANTS = {
  bare: '0',
  esm: "import('invoicing-sdk')",
  lite: "import('invoicing-sdk/lite')",
  cjs: "require('invoicing-sdk')",
  codes: "import('invoicing-sdk/codes')",
  emptyEsm: `import(${JSON.stringify(pathToFileURL(empty).href)})`,
};

// Each child also reports its CPU time (user + system, all threads) when it exits: far less moved
// by other processes on a busy machine than wall-clock time, so it is shown beside it.
const CPU_PROBE =
  ";process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('@cpu '+(u.user+u.system)/1000+'\\n')})";

const runs = quick ? 15 : 41;
const wall = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
const cpu = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
const run = (name, code) => {
  const start = performance.now();
  const result = spawnSync(process.execPath, ['-e', code + CPU_PROBE], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = performance.now() - start;
  const probe = /@cpu ([\d.]+)/.exec(result.stderr);
  if (result.status !== 0 || !probe) throw new Error(`node -e "${code}" failed: ${result.stderr}`);
  wall[name].push(elapsed);
  cpu[name].push(Number(probe[1]));
};
// One untimed round fills the file-system cache.
for (const [name, code] of Object.entries(VARIANTS)) run(name, code);
for (const name of Object.keys(VARIANTS)) {
  wall[name].length = 0;
  cpu[name].length = 0;
}
for (let i = 0; i < runs; i++) {
  for (const [name, code] of Object.entries(VARIANTS)) run(name, code);
}

const signed = (ms) => `${ms < 0 ? '−' : '+'}${fmtMs(Math.abs(ms))}`;
const bare = median(wall.bare);
const bareCpu = median(cpu.bare);
const row = (name, label, goal) => {
  const value = median(wall[name]);
  const delta = value - bare;
  const cpuDelta = median(cpu[name]) - bareCpu;
  return {
    measure: label,
    value: `${fmtMs(value)} (CPU ${signed(cpuDelta)})`,
    baseline: `${fmtMs(bare)} node -e 0`,
    ratio: signed(delta),
    goal: goal === undefined ? undefined : `≤ +${goal} ms`,
    met: goal === undefined ? undefined : delta <= goal,
    raw: { median: value, base: bare, delta, cpuDelta },
  };
};
report(
  'Cold import',
  [
    row('esm', `cold import: node -e "import('invoicing-sdk')", median of ${runs}`, 25),
    row('cjs', `cold import: node -e "require('invoicing-sdk')", median of ${runs}`, 25),
    row('lite', `cold import: node -e "import('invoicing-sdk/lite')", median of ${runs}`, 25),
    row('emptyEsm', "reference: import() of an empty ES module (Node's ES module loader alone)"),
    row('codes', "cold import: import('invoicing-sdk/codes') (HS and ISIC tables)"),
  ],
  {
    notes: [
      `${runs} interleaved rounds, one fresh process per figure; the built dist/ through the package's own name. ` +
        'The difference is wall-clock time over bare node; "CPU" is the difference in CPU time (user + system). ' +
        `Fastest runs (noise only ever adds): node -e 0 ${fmtMs(Math.min(...wall.bare))}, ESM ${signed(Math.min(...wall.esm) - Math.min(...wall.bare))}, ` +
        `CJS ${signed(Math.min(...wall.cjs) - Math.min(...wall.bare))}, empty ES module ${signed(Math.min(...wall.emptyEsm) - Math.min(...wall.bare))}.`,
    ],
  },
);
