/**
 * msw is an optional peer dependency, so the declarations of `invoicing-sdk/testing` must compile
 * for a user who does not have it: no `import … from 'msw'` in dist/testing.d.ts (TS2307 otherwise,
 * with skipLibCheck off). This test runs `npm run build` on a copy of the package (the worktree's
 * own dist/ stays untouched for the tests that read it), installs the built declarations into a
 * consumer project whose node_modules holds the package and its runtime dependencies but no msw,
 * and type-checks a small consumer against them, as ES module and as CommonJS. Two controls: the
 * consumer really cannot see msw (an import of it is TS2307 there), and a consumer that has msw
 * still compiles `setupServer(...sandbox.handlers)`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

let scratch: string;
let built: string;

/** A project under `scratch` with `files`, the built package in node_modules and, when asked, msw. */
function consumer(name: string, files: Record<string, string>, withMsw = false): string {
  const dir = join(scratch, name);
  const modules = join(dir, 'node_modules');
  const pkg = join(modules, 'invoicing-sdk');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  // Copied, not linked: from a link TypeScript would resolve msw next to the real path (the repo).
  cpSync(join(built, 'package.json'), join(pkg, 'package.json'));
  for (const file of readdirSync(join(built, 'dist'))) {
    if (/\.d\.c?ts$/.test(file)) cpSync(join(built, 'dist', file), join(pkg, 'dist', file));
  }
  const manifest = JSON.parse(readFileSync(join(built, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const linked = [...Object.keys(manifest.dependencies ?? {}), ...(withMsw ? ['msw'] : [])];
  for (const dependency of linked) {
    mkdirSync(join(modules, dependency, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', dependency), join(modules, dependency), 'dir');
  }
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/** Type-checks `project` (a tsconfig) in `dir`; the diagnostics, one per line, or [] when it compiles. */
async function typeCheck(dir: string, project: string): Promise<string[]> {
  try {
    await run(process.execPath, [tsc, '-p', join(dir, project)], { cwd: dir });
    return [];
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    const lines = `${stdout ?? ''}${stderr ?? ''}`.split('\n').filter((line) => /error TS\d+/.test(line));
    return lines.length > 0 ? lines : [String(error)];
  }
}

const tsconfig = (options: Record<string, unknown>, files: string[]) =>
  JSON.stringify({
    compilerOptions: { strict: true, target: 'es2022', lib: ['es2023', 'esnext.disposable', 'dom'], noEmit: true, skipLibCheck: false, types: [], ...options },
    files,
  });

const CONSUMER = `import { createSandbox, type Sandbox, type SandboxMswHandler, type SandboxOptions } from 'invoicing-sdk/testing';

const options: SandboxOptions = { listen: false, routes: { retrieve: false }, processingMs: 60_000, recoveryJobOffsetMs: 0 };
export async function main(): Promise<number> {
  const sandbox: Sandbox = await createSandbox(options);
  const handlers: SandboxMswHandler[] = sandbox.handlers;
  await sandbox.close();
  return handlers.length;
}
`;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'invoicing-sdk-declarations-'));
  built = join(scratch, 'package');
  mkdirSync(built);
  for (const entry of ['package.json', 'tsconfig.json', 'tsup.config.ts', 'src']) cpSync(join(root, entry), join(built, entry), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(built, 'node_modules'), 'dir');
  await run('npm', ['run', 'build'], { cwd: built, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
}, 600_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('testing/declarations (dist/testing.d.ts) without msw installed', () => {
  it('names no msw type in the built declarations', () => {
    for (const file of ['testing.d.ts', 'testing.d.cts']) {
      // Comments are left out: the JSDoc examples show users `import { setupServer } from 'msw/node'`.
      const code = readFileSync(join(built, 'dist', file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      expect(code).toMatch(/export \{[^}]*\bcreateSandbox\b/);
      expect({ file, importsMsw: /from\s*['"]msw(\/[^'"]*)?['"]|import\(\s*['"]msw|require\(\s*['"]msw/.test(code) }).toEqual({ file, importsMsw: false });
    }
  });

  it('type-checks a consumer as ES module and as CommonJS, with no TS2307 for msw', async () => {
    const dir = consumer('without-msw', {
      'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      'consumer.ts': CONSUMER,
      'probe-msw.ts': "import { http } from 'msw';\nexport const probe = http;\n",
      'tsconfig.esm.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.ts']),
      'consumer.cts': CONSUMER.replace('export async function main', 'export async function mainCjs'),
      'tsconfig.cjs.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.cts']),
      'tsconfig.node10.json': tsconfig({ module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' }, ['consumer.ts']),
      'tsconfig.probe.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext' }, ['probe-msw.ts']),
    });
    // The control: msw really is out of reach here.
    expect(await typeCheck(dir, 'tsconfig.probe.json')).toEqual([expect.stringContaining("error TS2307: Cannot find module 'msw'")]);
    const [esm, cjs, node10] = await Promise.all(['tsconfig.esm.json', 'tsconfig.cjs.json', 'tsconfig.node10.json'].map((p) => typeCheck(dir, p)));
    expect({ esm, cjs, node10 }).toEqual({ esm: [], cjs: [], node10: [] });
  }, 120_000);

  it('still lets a consumer with msw pass sandbox.handlers to setupServer and server.use', async () => {
    const dir = consumer(
      'with-msw',
      {
        'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
        'consumer.ts': `import { setupServer } from 'msw/node';
import { createSandbox } from 'invoicing-sdk/testing';

const sandbox = await createSandbox({ listen: false });
const server = setupServer(...sandbox.handlers);
server.use(...sandbox.handlers);
`,
        'tsconfig.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true }, ['consumer.ts']),
      },
      true,
    );
    expect(await typeCheck(dir, 'tsconfig.json')).toEqual([]);
  }, 120_000);
});
