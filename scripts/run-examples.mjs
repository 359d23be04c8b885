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
 * INVOICING_SESSION_TOKEN, INVOICING_BUSINESS_ID). They share one user, in ORDER, so the export
 * finds the invoices the filing examples made; an example in OWN_USER gets a user of its own
 * (rotating a key revokes the key it was given, which would lock the others out).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const examplesDir = join(root, 'examples');
const loader = join(root, 'scripts/examples-loader.mjs');

/** Run order; examples not listed run afterwards, alphabetically. */
export const ORDER = ['check-invoices-in-ci', 'quick-start', 'bulk-filing', 'resume-after-crash', 'export-invoices', 'rotate-api-key'];
/** Examples that get a sandbox user of their own. */
const OWN_USER = new Set(['rotate-api-key']);
/** Longest an example may run before it counts as hung. */
const EXAMPLE_TIMEOUT_MS = 60_000;

/** The examples, in run order, by name (file name without `.ts`). */
export function listExamples() {
  const names = readdirSync(examplesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => basename(f, '.ts'))
    .sort();
  const rank = (n) => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
  return names.sort((a, b) => rank(a) - rank(b));
}

/**
 * Builds index/testing/codes from src/ with esbuild, dependencies external, as dist/ has them.
 * @returns {Promise<string>} the output folder; the caller removes it.
 */
export async function buildFromSource() {
  const { build } = await import('esbuild');
  // Inside node_modules so the external dependencies (ky, zod, uuid, msw) resolve from the repo.
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

/** Writes an example's output indented under its name, however the chunks split the lines. */
function indent(write) {
  let atLineStart = true;
  return {
    write(text) {
      let out = '';
      for (const piece of text.split(/(?<=\n)/)) {
        if (atLineStart) out += '  │ ';
        out += piece;
        atLineStart = piece.endsWith('\n');
      }
      write(out);
    },
    end() {
      if (!atLineStart) write('\n');
    },
  };
}

/** Runs one example to completion; never rejects. */
function runOne(name, env, onOutput) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--enable-source-maps', '--import', pathToFileURL(loader).href, join(examplesDir, `${name}.ts`)], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk) => {
      const text = chunk.toString();
      output += text;
      onOutput(text);
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
 * Starts the sandbox, runs the examples one after another, stops the sandbox.
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
  const results = [];
  try {
    const shared = { apiKey: sandbox.apiKey, sessionToken: sandbox.sessionToken, businessId: sandbox.businessId };
    for (const name of selected) {
      const who = OWN_USER.has(name) ? sandbox.createUser() : shared;
      const env = {
        ...process.env,
        ...extraEnv,
        INVOICING_BASE_URL: sandbox.baseUrl,
        INVOICING_API_KEY: who.apiKey,
        INVOICING_SESSION_TOKEN: who.sessionToken,
        INVOICING_BUSINESS_ID: who.businessId,
        ...(sdkDir === undefined ? {} : { INVOICING_SDK_DIR: sdkDir }),
      };
      write(`\n▶ ${name}\n`);
      const indented = indent(write);
      const result = await runOne(name, env, indented.write);
      indented.end();
      write(result.ok ? `  ✔ ${name} (${result.ms} ms)\n` : `  ✘ ${name} failed: ${result.signal ?? `exit code ${result.code}`}\n`);
      results.push(result);
    }
  } finally {
    await sandbox.close();
  }
  return results;
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
