#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark suite, each in its own process, and one table of the results.
 * Every figure sits next to its baseline measured in the same run (raw fetch, bare node, a naive
 * poll, a bare zod parse), so a slow or busy machine moves both and the ratio stays meaningful.
 *
 *   npm run build && npm run bench                 # everything, about 3 minutes on 2 cores
 *   npm run bench -- --quick                       # fewer rounds and smaller batches, under a minute
 *   npm run bench -- --only get-overhead,bundle-size
 *   npm run bench -- --markdown > results.md       # the table only, for docs/performance.md
 *
 * Nothing here asserts: a benchmark is not a test. The bundle budget that CI enforces is
 * scripts/size-check.mjs.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildIsStale, machine, printTable, quick, requireBuild, root } from './lib/common.mjs';

/** The suites, in the order of the table. `external` suites print their own tables (no @bench line). */
const SUITES = [
  { name: 'get-overhead', file: 'get-overhead.mjs' },
  { name: 'cold-import', file: 'cold-import.mjs' },
  { name: 'bundle-size', file: 'bundle-size.mjs' },
  { name: 'check', file: 'check.mjs' },
  { name: 'polling', file: 'polling.mjs' },
  { name: 'file-many', file: 'file-many.mjs' },
  { name: 'watch', file: 'watch.mjs' },
];

const argv = process.argv.slice(2);
const onlyArg = argv.find((arg) => arg.startsWith('--only'));
const only = onlyArg
  ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : argv[argv.indexOf(onlyArg) + 1]).split(',')
  : undefined;
const markdownOnly = argv.includes('--markdown');

requireBuild();
if (buildIsStale()) {
  console.error('warning: src/ has changed since the last build; run `npm run build` for current figures.\n');
}

const log = markdownOnly ? () => undefined : (line) => console.log(line);
log(`invoicing-sdk benchmarks${quick ? ' (--quick)' : ''}: ${machine()}\n`);

const started = performance.now();
const rows = [];
const sections = [];
for (const suite of SUITES) {
  if (only && !only.includes(suite.name)) continue;
  const file = join(root, 'bench', suite.file);
  if (!existsSync(file)) {
    log(`- ${suite.name}: skipped (${suite.file} is not there yet)`);
    continue;
  }
  const t0 = performance.now();
  const args = [file, ...(quick ? ['--quick'] : []), ...(suite.external ? [] : ['--json'])];
  const { code, stdout, stderr } = await run(args);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (code !== 0) {
    log(`- ${suite.name}: FAILED after ${seconds} s (exit ${code})\n${indent(stderr || stdout)}`);
    rows.push({ measure: `${suite.name}: failed, see above`, met: false });
    continue;
  }
  log(`- ${suite.name}: ${seconds} s`);
  if (suite.external) {
    sections.push({ name: suite.name, text: stdout.trim() });
    continue;
  }
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('@bench ')) continue;
    const result = JSON.parse(line.slice('@bench '.length));
    rows.push(...result.rows);
    if (result.notes?.length) sections.push({ name: suite.name, text: result.notes.join('\n') });
  }
}

log('');
printTable(rows);
if (!markdownOnly) for (const section of sections) console.log(`\n${section.name}:\n\n${section.text}`);
const missed = rows.filter((row) => row.met === false).length;
log(
  `\n${rows.length} figures, ${rows.filter((row) => row.met === true).length} goals met, ${missed} missed; ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
);

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function indent(text) {
  return text
    .trim()
    .split('\n')
    .slice(-20)
    .map((line) => `    ${line}`)
    .join('\n');
}
