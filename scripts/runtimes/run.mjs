#!/usr/bin/env node
// Runtime matrix: the test suite (`vitest run`) on Node 22, the oldest line package.json `engines`
// allows (this machine runs another); then scripts/smoke/smoke.mjs on Node 22, Bun and Deno, and
// the bundled browser variant in Chromium (with and without dangerouslyAllowBrowser), all against
// one sandbox loopback server started here from the built package.
//
//   npm run build && npm run runtimes                  all of them
//   npm run runtimes -- --only node22,deno             a subset (node22-tests, node22, bun, deno, chromium)
//   npm run runtimes -- --only node22-tests test/check  the suite on Node 22, only some test paths
//   npm run runtimes -- --full-suite                   Node 22 runs test/reliability too
//
// On Node 22 the suite leaves out test/reliability unless --full-suite: its fault and fuzz
// campaigns are about half the suite's time, exercise no runtime-specific code, and have just run
// under `npm test` in the same CI run; everything else runs on both Node lines.
//
// Prints PASS/FAIL per runtime and, last, the plain line "N passed, N failed"; exits 1 on any FAIL.
// The npm-packaged runtimes are cached outside the repository (see install.mjs).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChromium } from './chromium.mjs';
import { CACHE_DIR, ensureRuntimes } from './install.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const smokeScript = join(repoRoot, 'scripts', 'smoke', 'smoke.mjs');
const CHILD_TIMEOUT_MS = 90_000;
const SUITE_TIMEOUT_MS = 360_000;
const ALL = ['node22-tests', 'node22', 'bun', 'deno', 'chromium'];

function parseOnly(argv) {
  const index = argv.indexOf('--only');
  if (index === -1) return ALL;
  const wanted = (argv[index + 1] ?? '').split(',').filter(Boolean);
  const unknown = wanted.filter((name) => !ALL.includes(name));
  if (unknown.length || wanted.length === 0) {
    console.error(`--only takes a comma-separated list of ${ALL.join(', ')}`);
    process.exit(2);
  }
  return wanted;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one smoke process; resolves `{ ok, detail }`, never rejects. */
function runSmokeProcess(command, args, env) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${seconds(CHILD_TIMEOUT_MS)})`;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: `could not start ${command}: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = output.trim().split('\n');
      const okLine = lines.find((line) => line.startsWith('SMOKE OK'));
      if (code === 0 && okLine) resolve({ ok: true, detail: okLine.replace(/^SMOKE OK [^:]*: /, '') });
      else resolve({ ok: false, detail: `exit code ${code}\n${lines.map((line) => `    ${line}`).join('\n')}` });
    });
  });
}

/**
 * Runs the test suite under another Node binary (vitest's own entry, so the binary is the one that
 * runs the tests). Resolves `{ ok, detail }` with vitest's summary lines, never rejects.
 */
function runSuite(nodePath, paths) {
  return new Promise((resolve) => {
    let output = '';
    const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const exclude = process.argv.includes('--full-suite') ? [] : ['--exclude', 'test/reliability/**'];
    const child = spawn(nodePath, [vitest, 'run', ...exclude, ...paths], {
      cwd: repoRoot,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${seconds(SUITE_TIMEOUT_MS)})`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: `could not start ${nodePath}: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = output.trim().split('\n');
      const summary = lines.filter((line) => /^\s*(Test Files|Tests)\s/.test(line)).map((line) => line.trim());
      if (code === 0 && summary.length > 0) resolve({ ok: true, detail: summary.join('; ') });
      else resolve({ ok: false, detail: `exit code ${code}\n${lines.slice(-60).map((line) => `    ${line}`).join('\n')}` });
    });
  });
}

async function startSandbox() {
  // The package's own name resolves to dist/ through package.json `exports` (self-reference).
  const { createSandbox } = await import('invoicing-sdk/testing');
  // The tax authority's answer comes 200 ms after submit instead of 2 s: still asynchronous (the
  // smoke waits for it), but the matrix does not spend most of its time sleeping.
  return createSandbox({ responseDelayMs: 200 });
}

async function main() {
  const argv = process.argv.slice(2);
  const only = parseOnly(argv);
  // Test paths for the Node 22 suite: the arguments after `--only <list>` (none: the whole suite).
  const onlyIndex = argv.indexOf('--only');
  const suitePaths = onlyIndex === -1 ? [] : argv.slice(onlyIndex + 2).filter((arg) => !arg.startsWith('--'));
  const started = Date.now();
  for (const file of ['dist/index.js', 'dist/testing.js']) {
    if (!existsSync(join(repoRoot, file))) {
      console.error(`FAIL  ${file} is missing: run \`npm run build\` first`);
      console.log('0 passed, 1 failed');
      process.exit(1);
    }
  }

  const installStart = Date.now();
  const runtimes = ensureRuntimes({ log: (line) => console.log(`runtimes: ${line}`) });
  console.log(`runtimes: ready in ${seconds(Date.now() - installStart)} (cache ${CACHE_DIR})`);

  const sandbox = await startSandbox();
  const env = {
    ...process.env,
    INVOICING_BASE_URL: sandbox.baseUrl,
    INVOICING_API_KEY: sandbox.apiKey,
    SMOKE_BUSINESS_ID: sandbox.businessId,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    DENO_DIR: join(CACHE_DIR, 'deno-dir'),
  };
  console.log(`sandbox: listening on ${sandbox.baseUrl}\n`);

  const denoFlags = ['run', '--no-lock', '--no-prompt', '--allow-env', '--allow-read', '--allow-net=127.0.0.1'];
  const serverRuntimes = [
    { id: 'node22', name: 'Node 22', bin: runtimes.node22, args: [smokeScript] },
    { id: 'bun', name: 'Bun', bin: runtimes.bun, args: [smokeScript] },
    { id: 'deno', name: 'Deno', bin: runtimes.deno, args: [...denoFlags, smokeScript] },
  ];

  const results = [];
  const report = (result, ms) => {
    results.push(result);
    console.log(`${result.ok ? 'PASS' : 'FAIL'}  ${result.name}  (${seconds(ms)})  ${result.detail}`);
  };

  try {
    if (only.includes('node22-tests')) {
      const t0 = Date.now();
      const version = runtimes.node22?.version?.match(/v?\d+\.\d+\.\d+/)?.[0];
      const scope = suitePaths.length > 0 ? suitePaths.join(' ') : argv.includes('--full-suite') ? 'all of it' : 'all but test/reliability';
      const name = `test suite on Node ${version ?? '22'} (${scope})`;
      if (!runtimes.node22?.path) report({ name, ok: false, detail: runtimes.node22?.error ?? 'not installed' }, 0);
      else report({ name, ...(await runSuite(runtimes.node22.path, suitePaths)) }, Date.now() - t0);
    }
    for (const runtime of serverRuntimes.filter((r) => only.includes(r.id))) {
      const t0 = Date.now();
      // `deno --version` says "deno 2.9.6 (stable, …)"; keep the number only.
      const version = runtime.bin?.version?.match(/v?\d+\.\d+\.\d+/)?.[0];
      const name = version ? `${runtime.name.replace(/ \d+$/, '')} ${version}` : runtime.name;
      if (!runtime.bin?.path) {
        report({ name, ok: false, detail: runtime.bin?.error ?? 'not installed' }, 0);
        continue;
      }
      const outcome = await runSmokeProcess(runtime.bin.path, runtime.args, env);
      report({ name, ...outcome }, Date.now() - t0);
    }

    if (only.includes('chromium')) {
      const t0 = Date.now();
      if (!runtimes.chromium.path) {
        report({ name: 'Chromium', ok: false, detail: runtimes.chromium.error }, 0);
      } else {
        const browserResults = await runChromium({
          repoRoot,
          chromiumPath: runtimes.chromium.path,
          chromiumVersion: runtimes.chromium.version,
          baseUrl: sandbox.baseUrl,
          apiKey: sandbox.apiKey,
          businessId: sandbox.businessId,
        });
        const each = (Date.now() - t0) / browserResults.length;
        for (const result of browserResults) report(result, each);
      }
    }
  } finally {
    await sandbox.close();
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`\nruntime matrix took ${seconds(Date.now() - started)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
