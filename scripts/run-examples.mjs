#!/usr/bin/env node
/**
 * Runs every example in examples/ against the embedded sandbox, each as its own process, and fails
 * when any exits non-zero. CI runs it after the build, so the examples are checked against the
 * package exactly as users install it (`import … from 'invoicing-sdk'` resolves to dist/).
 *
 *   npm run examples                      every example, against dist/ (run `npm run build` first)
 *   npm run examples -- quick-start       only the named examples
 *   npm run examples -- --from-source     against a fresh esbuild of src/ instead of dist/
 *   npm run examples -- --report out.json also write the results as JSON
 *
 * One sandbox serves the whole run, on a loopback port. Examples get its address and credentials
 * through the same variables they read in production (INVOICING_BASE_URL, INVOICING_API_KEY,
 * INVOICING_SESSION_TOKEN, INVOICING_BUSINESS_ID). The examples in CHAIN share one user and run in
 * that order, so the export finds the invoices the filing examples made. Every other example gets a
 * user of its own (rotating a key revokes the key it was given, which would lock the others out) and
 * runs alongside the chain. Each example's output is printed, indented, when it finishes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const examplesDir = join(root, 'examples');
const loader = join(root, 'scripts/examples-loader.mjs');

/** Examples that build on each other's invoices: one user, run in this order. */
export const CHAIN = ['quick-start', 'bulk-filing', 'resume-after-crash', 'export-invoices'];
/** Longest an example may run before it counts as hung. */
const EXAMPLE_TIMEOUT_MS = 60_000;

/** The examples by name (file name without `.ts`): the chain in order, then the rest alphabetically. */
export function listExamples() {
  const names = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => basename(f, '.ts'))
    .sort();
  return [...CHAIN.filter((n) => names.includes(n)), ...names.filter((n) => !CHAIN.includes(n))];
}

/**
 * Builds index/testing/codes from src/ with esbuild, dependencies external. Code splitting
 * keeps one copy of the SDK across the three, as dist/ does.
 * @returns {Promise<string>} the output folder; the caller removes it.
 */
export async function buildFromSource() {
  const { build } = await import('esbuild');
  // Inside node_modules so the external dependencies (uuid, msw) resolve from the repo.
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(join(cache, 'invoicing-examples-'));
  await build({
    entryPoints: { index: 'src/index.ts', testing: 'src/testing/index.ts', codes: 'src/codes/index.ts' },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    splitting: true,
    packages: 'external',
    outdir,
    logLevel: 'warning',
  });
  return outdir;
}

async function loadSandbox(sdkDir) {
  if (sdkDir !== undefined) return import(pathToFileURL(join(sdkDir, 'testing.js')).href);
  try {
    return await import('invoicing-sdk/testing');
  } catch (err) {
    if (err?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error('dist/ is missing: run `npm run build` first (or `npm run examples -- --from-source`).', { cause: err });
    }
    throw err;
  }
}

/** An example's result as printed: its name, its output indented under it, and the verdict. */
function report(result) {
  const body = result.output.replace(/\n$/, '').replace(/^/gm, '  │ ');
  const verdict = result.ok ? `  ✔ ${result.name} (${result.ms} ms)` : `  ✘ ${result.name} failed: ${result.signal ?? `exit code ${result.code}`}`;
  return `\n▶ ${result.name}\n${result.output === '' ? '' : `${body}\n`}${verdict}\n`;
}

/** Runs one example to completion; never rejects. */
function runOne(name, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--enable-source-maps', '--import', pathToFileURL(loader).href, join(examplesDir, `${name}.ts`)], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), EXAMPLE_TIMEOUT_MS);
    const finish = (code, signal, error) => {
      clearTimeout(timer);
      resolve({ name, code, signal, ok: code === 0, ms: Math.round(performance.now() - started), output: error ? `${output}${error}\n` : output });
    };
    child.on('error', (err) => finish(null, null, err.message));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/**
 * Starts the sandbox, runs the examples (the chain in order, the others alongside it), stops the
 * sandbox. Results come back in {@link listExamples} order.
 * @param {{ names?: string[], sdkDir?: string, env?: Record<string, string>, write?: (text: string) => void }} options
 *   `sdkDir`: a build from {@link buildFromSource} to use instead of dist/; `env`: extra variables.
 * @returns {Promise<{ name: string, ok: boolean, code: number | null, signal: string | null, ms: number, output: string }[]>}
 */
export async function runExamples({ names = [], sdkDir, env: extraEnv = {}, write = (t) => process.stdout.write(t) } = {}) {
  const all = listExamples();
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length > 0) throw new Error(`No example named ${unknown.join(', ')}; there are: ${all.join(', ')}`);
  const selected = names.length === 0 ? all : all.filter((n) => names.includes(n));

  const { createSandbox } = await loadSandbox(sdkDir);
  // The authority answers after 200 ms, so waiting examples finish quickly on the real clock.
  const sandbox = await createSandbox({ responseDelayMs: 200 });
  const shared = { apiKey: sandbox.apiKey, sessionToken: sandbox.sessionToken, businessId: sandbox.businessId };
  const envFor = (who) => ({
    ...process.env,
    ...extraEnv,
    INVOICING_BASE_URL: sandbox.baseUrl,
    INVOICING_API_KEY: who.apiKey,
    INVOICING_SESSION_TOKEN: who.sessionToken,
    INVOICING_BUSINESS_ID: who.businessId,
    ...(sdkDir === undefined ? {} : { INVOICING_SDK_DIR: sdkDir }),
  });
  const byName = new Map();
  const lane = async (list, user) => {
    for (const name of list) {
      const result = await runOne(name, envFor(user(name)));
      byName.set(name, result);
      write(report(result));
    }
  };
  try {
    await Promise.all([
      lane(selected.filter((n) => CHAIN.includes(n)), () => shared),
      lane(selected.filter((n) => !CHAIN.includes(n)), () => sandbox.createUser()),
    ]);
  } finally {
    await sandbox.close();
  }
  return selected.map((n) => byName.get(n));
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'from-source': { type: 'boolean' }, report: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write('Usage: node scripts/run-examples.mjs [name…] [--from-source] [--report <file.json>]\n');
    return 0;
  }
  const sdkDir = values['from-source'] === true ? await buildFromSource() : undefined;
  let results;
  try {
    results = await runExamples({ names: positionals, sdkDir });
  } finally {
    if (sdkDir !== undefined) rmSync(sdkDir, { recursive: true, force: true });
  }
  if (values.report !== undefined) writeFileSync(values.report, `${JSON.stringify(results, null, 2)}\n`);
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(
    failed.length === 0
      ? `\n${results.length} example(s) passed.\n`
      : `\n${failed.length} of ${results.length} example(s) failed: ${failed.map((r) => r.name).join(', ')}\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`run-examples: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
