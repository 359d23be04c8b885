#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark suite, each in its own process, and the tables of the results,
 * which it also writes into docs/performance.md (between the `bench:results` markers) with the
 * date and the machine. First the side-by-side table (raw fetch, invoicing-sdk, openai, stripe,
 * each measured in the same run against the same loopback server), then the SDK's own figures,
 * each next to a baseline measured in the same run. A slow or busy machine moves every column.
 *
 *   npm run bench                                  # builds dist/ if missing; about 4 minutes on 2 cores
 *   npm run bench -- --quick                       # fewer rounds and smaller batches
 *   npm run bench -- --only per-call,bundle-size   # some suites (docs/performance.md left alone)
 *   npm run bench -- --no-write                    # print only
 *   npm run bench -- --this-node                   # on this node even when it is older than engines
 *
 * Figures are taken on a Node that `engines` supports: on an older one (the machines' Node 20), the
 * runner starts itself again on the Node 22 that `npm run runtimes` installs, when it is there.
 *
 * Nothing here asserts: a benchmark is not a test. The bundle budget that CI enforces is
 * scripts/size-check.mjs.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildIsStale, machine, printTable, quick, root } from './lib/common.mjs';
import { NODE22_PATH } from '../scripts/runtimes/install.mjs';

/** The suites, in the order of the table. `external` suites print their own tables (no @bench line). */
const SUITES = [
  { name: 'cold-start', file: 'cold-start.mjs' },
  { name: 'per-call', file: 'per-call.mjs' },
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
const write = !argv.includes('--no-write') && only === undefined;

const supported = Number(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.match(/\d+/)[0]);
if (Number(process.versions.node.split('.')[0]) < supported && !argv.includes('--this-node')) {
  if (existsSync(NODE22_PATH)) {
    console.log(`node ${process.version} is older than engines (>=${supported}): running on ${NODE22_PATH}`);
    process.exit(spawnSync(NODE22_PATH, process.argv.slice(1), { stdio: 'inherit' }).status ?? 1);
  }
  console.log(`node ${process.version} is older than engines (>=${supported}) and no Node 22 is installed (npm run runtimes installs one): measuring on this node\n`);
}

if (!existsSync(join(root, 'dist', 'index.js')) || buildIsStale()) {
  console.log('dist/ is missing or older than src/: npm run build');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const log = (line) => console.log(line);
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

const out = [];
const print = (line) => out.push(line);
const peers = rows.filter((row) => 'sdk' in row);
const own = rows.filter((row) => !('sdk' in row));
if (peers.length > 0) printTable(peers, print);
if (own.length > 0) {
  if (peers.length > 0) print('');
  printTable(own, print);
}
for (const section of sections) print(`\n${section.name}:\n\n${section.text}`);
log('');
log(out.join('\n'));
const missed = rows.filter((row) => row.met === false).length;
const seconds = ((performance.now() - started) / 1000).toFixed(0);
log(`\n${rows.length} figures, ${rows.filter((row) => row.met === true).length} goals met, ${missed} missed; ${seconds} s in all.`);

if (write) {
  const file = join(root, 'docs', 'performance.md');
  const doc = readFileSync(file, 'utf8');
  const [start, end] = ['<!-- bench:results:start -->', '<!-- bench:results:end -->'];
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from === -1 || to < from) {
    console.error(`docs/performance.md has no ${start} … ${end} markers: results not written.`);
  } else {
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const load = loadavg().map((l) => l.toFixed(1)).join(', ');
    const header = `\`npm run bench${quick ? ' -- --quick' : ''}\` on ${date} UTC, ${machine()}, load average ${load} at the end.`;
    writeFileSync(file, `${doc.slice(0, from + start.length)}\n${header}\n\n${out.join('\n')}\n${doc.slice(to)}`);
    log(`written to docs/performance.md`);
  }
}

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
