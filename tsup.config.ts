import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const require = createRequire(import.meta.url);

/** Resolves `uuid` to its portable ESM build (its exports map would pick the Node one). */
const portableUuid: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'portable-uuid',
  setup(build) {
    const path = join(dirname(require.resolve('uuid/package.json')), 'dist/index.js');
    build.onResolve({ filter: /^uuid$/ }, () => ({ path }));
  },
};

// Two builds. `npm run build` empties dist/ first, so neither build cleans (they run in parallel
// and would delete each other's output).
//
// uuid is bundled into both, from its portable build (Web Crypto `getRandomValues` and a plain-JS
// SHA-1) rather than its Node entry. `deriveIdempotencyKey` needs it synchronously, so it is on the
// import path: loaded from node_modules, uuid's 15 modules and node:crypto made up two thirds of
// `import 'invoicing-sdk'` (about 45 of 63 ms, docs/performance.md); bundled, the two functions the
// SDK uses add about 1 KB. The portable build also keeps node:crypto out of browser bundles.
// (CJS bundled uuid already: `require()` of this ESM-only package would hand back a namespace.)
const entry = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  codes: 'src/codes/index.ts',
};

export default defineConfig([
  {
    entry: { ...entry, 'cli/bin': 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    sourcemap: true,
    dts: { entry },
    splitting: true,
    noExternal: ['uuid'],
    esbuildPlugins: [portableUuid],
    external: ['msw', 'msw/node'],
  },
  {
    entry,
    format: ['cjs'],
    target: 'node20',
    sourcemap: true,
    dts: true,
    splitting: false,
    noExternal: ['uuid'],
    esbuildPlugins: [portableUuid],
    external: ['msw', 'msw/node'],
  },
]);
