// Finds, and installs when missing, the runtimes of the matrix. They stay OUT of the project's
// dependencies (together ~400 MB): npm installs them into a cache directory outside the repository,
// reused by later runs, and Chromium comes from Debian's package. Nothing here downloads a browser
// or a binary by itself: every binary arrives inside a registry package.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the npm-packaged runtimes live; override with INVOICING_RUNTIMES_CACHE. */
export const CACHE_DIR =
  process.env.INVOICING_RUNTIMES_CACHE ?? join(homedir(), '.cache', 'invoicing-sdk-runtimes');

export const CHROMIUM_PATH = process.env.INVOICING_CHROMIUM_PATH ?? '/usr/bin/chromium';

// Exact versions, so every CI run tests the same binaries. Bump deliberately, one at a time.
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
const PINNED = { [NODE_PACKAGE]: '22.23.3', bun: '1.4.5', deno: '2.9.6' };

const modules = join(CACHE_DIR, 'node_modules');
const libc = process.platform === 'linux' ? 'glibc' : '';

/** The Node 22 binary once installed (the benchmarks run on it when the machine's Node is older). */
export const NODE22_PATH = join(modules, NODE_PACKAGE, 'bin', 'node');

/** Candidate paths per runtime, first that answers `--version` wins (with or without postinstall). */
const CANDIDATES = {
  node22: [NODE22_PATH],
  bun: [
    join(modules, 'bun', 'bin', 'bun.exe'),
    join(modules, '@oven', `bun-${process.platform}-${process.arch === 'x64' ? 'x64' : 'aarch64'}`, 'bin', 'bun'),
    join(modules, '.bin', 'bun'),
  ],
  deno: [
    join(modules, 'deno', 'deno'),
    join(modules, '@deno', `${process.platform}-${process.arch}${libc ? `-${libc}` : ''}`, 'deno'),
    join(modules, '.bin', 'deno'),
  ],
};

function versionOf(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]
      .trim();
  } catch {
    return undefined;
  }
}

function findBinaries() {
  const found = {};
  for (const [name, candidates] of Object.entries(CANDIDATES)) {
    for (const path of candidates) {
      const version = existsSync(path) ? versionOf(path) : undefined;
      if (version) {
        found[name] = { path, version };
        break;
      }
    }
  }
  return found;
}

function installedVersion(pkg) {
  try {
    return JSON.parse(readFileSync(join(modules, pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function npmInstall(log) {
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(
    join(CACHE_DIR, 'package.json'),
    `${JSON.stringify({ name: 'invoicing-sdk-runtimes', private: true, dependencies: PINNED }, null, 2)}\n`,
  );
  log(`installing ${Object.entries(PINNED).map(([n, v]) => `${n}@${v}`).join(' ')} into ${CACHE_DIR}`);
  execFileSync('npm', ['install', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: CACHE_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 600_000,
  });
}

function aptInstallChromium(log) {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM_PATH} is missing; install Debian's chromium package (apt-get install -y chromium)`);
  }
  const apt = (args) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 600_000,
    });
  log('installing Debian chromium (apt-get install -y chromium)');
  try {
    apt(['install', '-y', 'chromium']);
  } catch {
    // A fresh machine has no package lists yet.
    apt(['update']);
    apt(['install', '-y', 'chromium']);
  }
}

/**
 * Returns `{ node22, bun, deno, chromium }`, each `{ path, version }` or `{ error }`, installing
 * whatever is missing or not at its pinned version. Never throws: a runtime that cannot be had
 * becomes a FAIL line of the matrix, not a crash of the runner.
 */
export function ensureRuntimes({ log = console.log } = {}) {
  let found = findBinaries();
  const stale = Object.entries(PINNED).some(([pkg, version]) => installedVersion(pkg) !== version);
  const result = {};
  if (stale || Object.keys(found).length < Object.keys(CANDIDATES).length) {
    try {
      npmInstall(log);
    } catch (error) {
      result.installError = `npm install into ${CACHE_DIR} failed: ${error.message}`;
    }
    found = findBinaries();
  }
  for (const name of Object.keys(CANDIDATES)) {
    result[name] = found[name] ?? { error: result.installError ?? `no working ${name} binary under ${modules}` };
  }
  try {
    if (!existsSync(CHROMIUM_PATH)) aptInstallChromium(log);
    const version = versionOf(CHROMIUM_PATH);
    result.chromium = version ? { path: CHROMIUM_PATH, version } : { error: `${CHROMIUM_PATH} --version failed` };
  } catch (error) {
    result.chromium = { error: error.message };
  }
  return result;
}
