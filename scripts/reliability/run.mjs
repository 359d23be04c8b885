#!/usr/bin/env node
/**
 * Runs the large reliability campaigns and prints their figures (docs/reliability.md).
 *
 *   node scripts/reliability/run.mjs faults   # 1,000 fault schedules, concurrency 8 × 150, long run of
 *                                             # 10,000 requests, malformed answers at 5 MiB, secret scan
 *   node scripts/reliability/run.mjs fuzz     # 100,000 inputs per fuzz property
 *   node scripts/reliability/run.mjs all
 *
 * Any count can be changed through its variable (RELIABILITY_SCHEDULES=5000, RELIABILITY_FUZZ_RUNS,
 * RELIABILITY_REQUESTS, RELIABILITY_CLIENTS, RELIABILITY_DOCUMENTS, RELIABILITY_HUGE_BYTES), a
 * failing property replayed with RELIABILITY_SEED, and further arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITES = {
  faults: ['fault-campaign', 'concurrency', 'long-run', 'malformed-responses', 'secrets'],
  fuzz: ['fuzz-check'],
};
SUITES.all = [...SUITES.faults, ...SUITES.fuzz];

const [which = 'all', ...rest] = process.argv.slice(2);
const files = SUITES[which];
if (files === undefined) {
  console.error(`Usage: node scripts/reliability/run.mjs <${Object.keys(SUITES).join('|')}> [vitest arguments]`);
  process.exit(2);
}

// vitest's bin, found through its package.json (the bin file itself is not an export).
const vitest = join(dirname(createRequire(join(root, 'package.json')).resolve('vitest/package.json')), 'vitest.mjs');
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', 'vitest.reliability.config.ts', ...files.map((f) => `test/reliability/${f}.test.ts`), ...rest],
  { cwd: root, stdio: 'inherit', env: { ...process.env, RELIABILITY_FULL: '1' } },
);
console.log(`\n[reliability] ${which}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(run.status ?? 1);
