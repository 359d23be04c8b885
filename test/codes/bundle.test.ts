import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Bundles entries the way tsup.config.ts does (ESM, code splitting, packages external), in memory. */
async function inputsOf(entry: string | string[], opts: { splitting?: boolean } = {}): Promise<Metafile> {
  const result = await build({
    entryPoints: (Array.isArray(entry) ? entry : [entry]).map((e) => join(root, e)),
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    splitting: opts.splitting ?? false,
    outdir: join(root, 'dist-test-unused'),
    logLevel: 'silent',
  });
  return result.metafile;
}

/** Source files and packages reachable from an output through static imports only. */
function staticReach(meta: Metafile, output: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    const o = meta.outputs[out];
    if (o === undefined) return;
    for (const input of Object.keys(o.inputs)) files.add(input);
    for (const imp of o.imports) {
      if (imp.kind === 'dynamic-import') continue;
      if (imp.external) packages.add(imp.path);
      else visit(imp.path);
    }
  };
  visit(output);
  return { files, packages };
}

const RUNTIME_DEPENDENCIES = ['ky', 'zod', 'uuid'];

describe('codes bundle boundaries', () => {
  it('keeps the HS descriptions and the ISIC titles out of the main entry point, which has the code sets checkInvoice uses by default', async () => {
    const meta = await inputsOf('src/index.ts');
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((i) => i.endsWith('src/codes/isic-codes.ts'))).toBe(true);
    expect(inputs.some((i) => i.endsWith('src/codes/hs-codes.ts'))).toBe(true);
    expect(inputs.some((i) => i.endsWith('src/codes/hs-subheadings.ts'))).toBe(false);
    expect(inputs.some((i) => i.endsWith('src/codes/isic-classes.ts'))).toBe(false);
  });

  it('keeps the code descriptions off the static import path of `invoicing check`', async () => {
    const meta = await inputsOf('src/cli/bin.ts', { splitting: true });
    // With splitting, a dynamically imported module is an entry point of its own.
    const checkChunk = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint?.endsWith('src/cli/check.ts'));
    expect(checkChunk).toBeDefined();
    const reach = staticReach(meta, checkChunk as string);
    // Only Node builtins and the runtime dependencies: never msw, never a dev tool.
    const packages = [...reach.packages].filter((p) => !p.startsWith('node:'));
    // A subpath (`zod/mini`) counts as its package.
    expect(packages.filter((p) => !RUNTIME_DEPENDENCIES.includes(p.split('/')[0]!))).toEqual([]);
    expect([...reach.files].some((f) => f.includes('src/codes/hs-subheadings') || f.includes('src/codes/isic-classes'))).toBe(false);
  });

  it('keeps ky, zod, uuid and the code descriptions off the `invoicing-sdk/check` entry, which has the code sets', async () => {
    const meta = await inputsOf('src/check/entry.ts');
    const output = Object.values(meta.outputs)[0];
    expect(output?.imports.map((imp) => imp.path)).toEqual([]);
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain('src/codes/hs-codes.ts');
    expect(inputs).toContain('src/codes/isic-codes.ts');
    expect(inputs.filter((i) => /hs-subheadings|isic-classes|src\/(core|client|resources|filing)/.test(i))).toEqual([]);
  });

  it('puts every stateful SDK module in one output shared by all entries (one class per error, one secret registry)', async () => {
    // As the build does: the package's entries and the CLI, code-split together.
    const meta = await inputsOf(['src/index.ts', 'src/testing/index.ts', 'src/codes/index.ts', 'src/check/entry.ts', 'src/cli/bin.ts'], { splitting: true });
    const stateful = Object.keys(meta.inputs).filter((i) => /^src\/client\.ts$|^src\/core\/(errors|redact|transport)/.test(i));
    expect(stateful.length).toBeGreaterThan(0);
    for (const input of stateful) {
      const outputs = Object.entries(meta.outputs).filter(([, o]) => Object.hasOwn(o.inputs, input));
      expect(outputs.map(([name]) => name), input).toHaveLength(1);
    }
    // The sandbox reaches the client through those shared outputs, not through a copy of its own.
    const testing = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint === 'src/testing/index.ts');
    expect(testing).toBeDefined();
    expect([...staticReach(meta, testing as string).files]).toContain('src/client.ts');
  });
});
