import { defineConfig } from 'tsup';

// Two builds. ESM keeps ky and uuid external so consumers dedupe them. CJS bundles them: with
// them external, `require()` of these ESM-only packages hands back the module namespace instead
// of ky's default export. `npm run build` empties dist/ first, so neither build cleans (they run
// in parallel and would delete each other's output).
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
    external: ['msw', 'msw/node'],
  },
  {
    entry,
    format: ['cjs'],
    target: 'node20',
    sourcemap: true,
    dts: true,
    splitting: false,
    noExternal: ['ky', 'uuid'],
    external: ['msw', 'msw/node'],
  },
]);
