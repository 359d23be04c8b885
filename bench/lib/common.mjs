/**
 * What every bench suite shares: where the built package is, the `--quick` and `--json` flags,
 * statistics, and the one-line result protocol the runner (`bench/run.mjs`) reads.
 *
 * A suite prints its own readable table when run alone (`node bench/get-overhead.mjs`); with
 * `--json` it prints one line `@bench <json>` for the runner instead. Figures are reported, never
 * asserted: a benchmark is not a test.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = join(root, 'dist');
export const quick = process.argv.includes('--quick');
export const json = process.argv.includes('--json');

/** Stops with a clear message when the package is not built (every suite measures `dist/`). */
export function requireBuild() {
  if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'index.cjs'))) {
    console.error('The benchmarks measure the built package: run `npm run build` first.');
    process.exit(2);
  }
}

/**
 * The files an `import` of a built ES module loads before it runs: the entry and every module it
 * reaches through static `import … from "./…"` / `export … from "./…"` (not dynamic `import()`),
 * relative to `dist/`. Each one is a file for Node to resolve, read, compile and link on a cold start.
 */
export function staticModuleGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const match of code.matchAll(/^\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.\.?\/[^"']+)["']/gm)) {
      visit(join(dirname(file), match[1]));
    }
  };
  visit(entry);
  return [...seen];
}

/** True when a file under src/ is newer than dist/index.js (the figures would describe old code). */
export function buildIsStale() {
  const built = statSync(join(dist, 'index.js')).mtimeMs;
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? walk(path) : statSync(path).mtimeMs > built;
    });
  return walk(join(root, 'src'));
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function machine() {
  const cpu = cpus();
  return `node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} cores (${cpu[0]?.model?.trim() ?? 'unknown cpu'})`;
}

/**
 * Hands the suite's rows to the runner (`--json`), or prints them as a table. A row:
 * `{ measure, value, baseline?, ratio?, goal?, met?, note? }`, every field already formatted.
 */
export function report(suite, rows, extra = {}) {
  if (json) {
    console.log(`@bench ${JSON.stringify({ suite, rows, ...extra })}`);
    return;
  }
  console.log(`\n${suite} (${machine()})\n`);
  printTable(rows);
  if (extra.notes) for (const note of extra.notes) console.log(`\n${note}`);
}

/** Columns of the side-by-side table: one per client, each measured in the same run. */
export const PEER_COLUMNS = [
  ['measure', 'measure'],
  ['fetch', 'raw fetch + JSON.parse'],
  ['sdk', 'invoicing-sdk'],
  ['openai', 'openai'],
  ['stripe', 'stripe'],
  ['goal', 'goal (invoicing-sdk)'],
  ['met', 'met'],
];

/** Columns of the SDK's own figures, each next to a baseline measured in the same run. */
export const COLUMNS = [
  ['measure', 'measure'],
  ['value', 'invoicing-sdk'],
  ['baseline', 'baseline (same run)'],
  ['ratio', 'vs baseline'],
  ['goal', 'goal'],
  ['met', 'met'],
];

/** Prints rows as a markdown table: side by side when they carry an `sdk` figure. */
export function printTable(rows, print = console.log) {
  const columns = rows.some((row) => 'sdk' in row) ? PEER_COLUMNS : COLUMNS;
  const head = columns.map(([, title]) => title);
  print(`| ${head.join(' | ')} |`);
  print(`|${head.map(() => '---').join('|')}|`);
  for (const row of rows) print(`| ${columns.map(([key]) => formatMet(key, row[key])).join(' | ')} |`);
}

function formatMet(key, value) {
  if (key === 'met' && typeof value === 'boolean') return value ? 'yes' : '**no**';
  return value === undefined ? '' : String(value);
}

export const fmtMs = (ms) => (ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);
export const fmtUs = (ms) => `${(ms * 1000).toFixed(0)} µs`;
export const fmtKB = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
export const fmtRatio = (r) => `${r.toFixed(2)}×`;
