import { defineConfig, type Options } from 'tsup';

// The entry points of package.json `exports`; the CLI is ES module only.
const entry = { index: 'src/index.ts', testing: 'src/testing/index.ts', codes: 'src/codes/index.ts', check: 'src/check/entry.ts' };

// Code splitting in both formats: the entries share one copy of the SDK's modules, so a client from
// the sandbox is an `instanceof` the main entry's `InvoicingClient`, in ESM and in CommonJS.
// Dependencies (ky, zod, uuid) stay external, loaded from node_modules; msw is an optional peer.
const shared = {
  target: 'node22',
  sourcemap: true,
  splitting: true,
  removeNodeProtocol: false,
  external: ['msw', 'msw/node'],
  dts: { entry },
} satisfies Options;

export default defineConfig([
  { ...shared, format: 'esm', entry: { ...entry, 'cli/bin': 'src/cli/bin.ts' }, define: { __CJS_REQUIRE__: 'undefined' } },
  {
    ...shared,
    format: 'cjs',
    entry,
    // ky and uuid ship ES modules only (require() of them needs Node 22.12, and ky's default export
    // would arrive as a namespace): the CommonJS build bundles them.
    noExternal: ['ky', 'uuid'],
    // Rollup turns the split chunks into CommonJS with source maps that point at src/.
    treeshake: true,
    shims: true,
    define: { __CJS_REQUIRE__: 'require' },
  },
]);
