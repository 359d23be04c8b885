import { build, type Metafile, type Plugin } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sdkFromIndex } from '../../tsup.config.js';

const root = join(import.meta.dirname, '../..');

async function inputsOf(entry: string | string[], opts: { splitting?: boolean; plugins?: Plugin[] } = {}): Promise<Metafile> {
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
    plugins: opts.plugins ?? [],
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

describe('codes bundle boundaries', () => {
  it('keeps the HS table and the titles out of the main entry point', async () => {
    const meta = await inputsOf('src/index.ts');
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((i) => i.endsWith('src/codes/isic-codes.ts'))).toBe(true);
    expect(inputs.some((i) => i.endsWith('src/codes/hs-subheadings.ts'))).toBe(false);
    expect(inputs.some((i) => i.endsWith('src/codes/isic-classes.ts'))).toBe(false);
  });

  it('keeps the code tables off the static import path of `invoicing check`, and reaches the SDK through its main entry', async () => {
    const meta = await inputsOf('src/cli/bin.ts', { splitting: true });
    // With splitting, a dynamically imported module is an entry point of its own.
    const checkChunk = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint?.endsWith('src/cli/check.ts'));
    expect(checkChunk).toBeDefined();
    const reach = staticReach(meta, checkChunk as string);
    // The runtime dependencies the main entry imports (zod for the exported schemas, uuid for keys);
    // here, with every package external, they show up by name.
    expect([...reach.packages].filter((p) => !p.startsWith('node:')).sort()).toEqual(['uuid', 'zod']);
    expect([...reach.files].some((f) => f.includes('src/codes/hs-subheadings') || f.includes('src/codes/isic-classes'))).toBe(false);
    expect([...reach.files].some((f) => f.endsWith('src/codes/hs-codes.ts'))).toBe(false);
    // Through src/index.ts, which the build takes from dist/index.js at run time (tsup.config.ts):
    // one copy of the SDK, and the checks are not bundled into the CLI a second time.
    expect([...reach.files].some((f) => f.endsWith('src/index.ts'))).toBe(true);
  });

  it('has the CLI commands and the sandbox reach the SDK through src/index.ts', async () => {
    for (const entry of ['src/cli/check.ts', 'src/cli/demo.ts', 'src/cli/file.ts', 'src/testing/index.ts']) {
      const inputs = Object.keys((await inputsOf(entry)).inputs);
      const sdkInputs = inputs.filter((i) => /^src\/(core|check|filing|schemas|resources)\/|^src\/(client|lite-client|version)\.ts$/.test(i));
      // Reaching any SDK module, the entry reaches src/index.ts too, which the build leaves external.
      expect(sdkInputs.length, entry).toBeGreaterThan(0);
      expect(inputs, entry).toContain('src/index.ts');
    }
  });

  it('bundles no stateful SDK module into the testing, codes or CLI entries (they take the SDK from index.js)', async () => {
    // With the build's own plugin: src/index.ts stays external (the built index.js at run time).
    const meta = await inputsOf(['src/testing/index.ts', 'src/codes/index.ts', 'src/cli/bin.ts'], {
      splitting: true,
      plugins: [sdkFromIndex],
    });
    const bundled = Object.keys(meta.inputs);
    expect(bundled.some((i) => i.startsWith('src/testing/'))).toBe(true);
    // Classes (instanceof), errors, the secret registry, the transport: one copy only, in index.js.
    const stateful = bundled.filter((i) =>
      /^src\/(client|lite-client|index)\.ts$|^src\/core\/(errors\/|redact|transport|options|pagination|resource)|^src\/resources\//.test(i),
    );
    expect(stateful).toEqual([]);
  });
});
