/**
 * Builds the `invoicing` bin the way tsup's ESM build does (esbuild, ESM, node20, code splitting,
 * dependencies external) into node_modules/.cache so the externals resolve, and runs it as a child
 * process. Building here rather than with `npm run build` keeps the CLI tests independent of the
 * rest of dist/ and of the declaration build, and takes a fraction of a second.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

export const root = join(import.meta.dirname, '../..');

export async function buildBin(): Promise<{ bin: string; cleanup(): void }> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(join(cache, 'invoicing-cli-'));
  await build({
    entryPoints: { 'cli/bin': join(root, 'src/cli/bin.ts') },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    splitting: true,
    packages: 'external',
    outdir,
    logLevel: 'silent',
  });
  return { bin: join(outdir, 'cli/bin.js'), cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}

/**
 * Builds the bin before the file's tests (`onBuilt` gets its path); after them removes it and runs
 * every cleanup pushed onto the returned list.
 */
export function useBin(onBuilt: (bin: string) => void): (() => void)[] {
  const cleanups: (() => void)[] = [];
  beforeAll(async () => {
    const built = await buildBin();
    cleanups.push(built.cleanup);
    onBuilt(built.bin);
  });
  afterAll(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return cleanups;
}

export interface RunOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a bin test runs in: this process's, without the colour and CI variables, plus `extra`. */
export function binEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, ...extra };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

/** Runs the built bin with arguments in a working directory. */
export function runBin(
  bin: string,
  args: string[],
  opts: { cwd: string; stdin?: string | Buffer; env?: Record<string, string | undefined> },
): Promise<RunOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: opts.cwd, env: binEnv(opts.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** A temporary folder of files, given as { 'relative/path': content }. */
export function tempFiles(files: Record<string, string>): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-check-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
