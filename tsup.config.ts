import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build as esbuild } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const require = createRequire(import.meta.url);

/**
 * Resolves `uuid` to its portable ESM build (its exports map would pick the Node one), one file per
 * function: each importing module gets a facade re-exporting only the functions it imports, from
 * their own files. Through uuid's index every chunk that mints a v7 key (the transport) also kept
 * v5 and its SHA-1 (`v5.DNS = …` is a top-level statement, which code splitting keeps with its
 * file), about 1.3 KB gzip in a bundle of the lite client, which never derives a key.
 */
const portableUuid: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'portable-uuid',
  setup(build) {
    const dist = join(dirname(require.resolve('uuid/package.json')), 'dist');
    build.onResolve({ filter: /^uuid$/ }, (args) => ({ path: args.importer, namespace: 'portable-uuid' }));
    build.onLoad({ filter: /.*/, namespace: 'portable-uuid' }, (args) => {
      const imported = [...readFileSync(args.path, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'uuid'/g)]
        .flatMap((match) => match[1]!.split(','))
        .map((binding) => binding.trim().split(/\s+as\s+/)[0]!)
        .filter((name) => /^[A-Za-z0-9]+$/.test(name));
      if (imported.length === 0) throw new Error(`${args.path}: import from 'uuid' with named imports only`);
      return {
        contents: imported.map((name) => (name === 'v5' ? pureV5(dist) : `export { default as ${name} } from ${JSON.stringify(join(dist, `${name}.js`))};`)).join('\n'),
        loader: 'js',
        resolveDir: dist,
      };
    });
  },
};

/**
 * uuid's v5 as its own v5.js defines it (`v35(0x50, sha1, …)`), without the two statements that
 * follow it there, `v5.DNS = DNS; v5.URL = URL;`: property assignments a bundler must keep, and with
 * them v5, SHA-1 and the uuid helpers they share with v7, in every consumer bundle of
 * `invoicing-sdk` that reaches the chunk holding `deriveIdempotencyKey` (a bundle of `checkInvoice`
 * alone, for one). The SDK never reads `v5.DNS` or `v5.URL`.
 */
function pureV5(dist: string): string {
  const file = (name: string) => JSON.stringify(join(dist, `${name}.js`));
  return [
    `import sha1 from ${file('sha1')};`,
    `import v35 from ${file('v35')};`,
    'export function v5(value, namespace, buf, offset) { return v35(0x50, sha1, value, namespace, buf, offset); }',
  ].join('\n');
}

// Four builds (ESM main entry, the other ESM entries, CommonJS, the CommonJS sandbox). `npm run
// build` empties dist/ first, so no build cleans (they run in parallel and would delete each
// other's output).
//
// uuid is bundled into all of them, from its portable build (Web Crypto `getRandomValues` and a plain-JS
// SHA-1) rather than its Node entry. `deriveIdempotencyKey` needs it synchronously, so it is on the
// import path: loaded from node_modules, uuid's 15 modules and node:crypto made up two thirds of
// `import 'invoicing-sdk'` (about 45 of 63 ms, docs/performance.md); bundled, the two functions the
// SDK uses add about 1 KB. The portable build also keeps node:crypto out of browser bundles.
// (CJS bundled uuid already: `require()` of this ESM-only package would hand back a namespace.)
/**
 * For the CommonJS sandbox: the code tables (about 700 KB, mostly the HS descriptions) come from the
 * package's own `./codes.cjs` at run time instead of being bundled a second time into testing.cjs
 * (and its source map). The sandbox reaches them only through `src/codes/index.ts`, which is the
 * codes entry, so `require('./codes.cjs')` hands back the very same exports. The import goes
 * through a one-line CommonJS module rather than straight to the external file, so that the
 * sandbox's `import()` of it becomes a `require()` (an external `import()` would stay native, which
 * CommonJS test runners such as Jest cannot run without flags).
 */
const codesFromCodesEntry: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'codes-from-codes-entry',
  setup(build) {
    build.onResolve({ filter: /\/codes\/index\.js$/ }, (args) =>
      args.importer.includes('/src/testing/') ? { path: 'codes.cjs', namespace: 'codes-entry' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'codes-entry' }, () => ({
      contents: "module.exports = require('./codes.cjs');",
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/codes\.cjs$/ }, () => ({ path: './codes.cjs', external: true }));
  },
};

/**
 * The other ES module entries (testing, codes, the CLI) reach the SDK through `src/index.ts` (a test
 * holds the CLI and the sandbox to it, test/codes/bundle.test.ts), and take it from the built
 * `index.js` at run time instead of bundling it: the main entry stays one file, and there is one copy
 * of the SDK (one `InvoicingClient` class, one registry of secrets) however it is imported. The
 * import is left external under a placeholder, which {@link pointAtIndex} then replaces in each
 * output by the path to `index.js` from that output's directory.
 */
const INDEX_PLACEHOLDER = '__invoicing_sdk_index__';
export const sdkFromIndex: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'sdk-from-index',
  setup(build) {
    const index = join(process.cwd(), 'src', 'index.ts');
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) =>
      args.importer !== '' && join(dirname(args.importer), args.path.replace(/\.js$/, '.ts')) === index
        ? { path: INDEX_PLACEHOLDER, external: true }
        : undefined,
    );
  },
};

/**
 * The same for the CommonJS sandbox: its imports of `src/index.ts` become `require('./index.cjs')`,
 * so that a client from `sandbox.client()` is an `instanceof` the `InvoicingClient` of
 * `require('invoicing-sdk')` and there is one registry of secrets (testing.cjs bundled a second
 * copy of the SDK). Through a one-line module, as {@link codesFromCodesEntry} does.
 */
const sdkFromIndexCjs: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'sdk-from-index-cjs',
  setup(build) {
    const index = join(process.cwd(), 'src', 'index.ts');
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) =>
      args.importer !== '' && join(dirname(args.importer), args.path.replace(/\.js$/, '.ts')) === index
        ? { path: 'index.cjs', namespace: 'sdk-index' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'sdk-index' }, () => ({
      contents: "module.exports = require('./index.cjs');",
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/index\.cjs$/ }, () => ({ path: './index.cjs', external: true }));
  },
};

/** Replaces the placeholder of {@link sdkFromIndex} in every ES module of dist/ but index.js. */
function pointAtIndex(): void {
  for (const file of readdirSync('dist', { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js') || file === 'index.js') continue;
    const path = join('dist', file);
    const code = readFileSync(path, 'utf8');
    if (!code.includes(INDEX_PLACEHOLDER)) continue;
    const target = relative(dirname(path), join('dist', 'index.js')).split('\\').join('/');
    writeFileSync(path, code.replaceAll(`"${INDEX_PLACEHOLDER}"`, JSON.stringify(target.startsWith('.') ? target : `./${target}`)));
  }
}

/**
 * `import 'invoicing-sdk/lite'` hands out the very objects of `import 'invoicing-sdk'`, as
 * `require('invoicing-sdk/lite')` does with index.cjs: dist/lite.js re-exports them from index.js.
 * A bundler takes from index.js only what they use (the SDK's top-level statements are all free of
 * side effects, test/release/tree-shaking.test.ts), so a bundle of the lite client is the same
 * size as when it had chunks of its own.
 */
async function liteEsmFromIndex(): Promise<void> {
  const names = await liteExportNames();
  writeFileSync(
    'dist/lite.js',
    [
      "// invoicing-sdk/lite as an ES module: the same objects as 'invoicing-sdk' (see tsup.config.ts).",
      `export { ${names.join(', ')} } from './index.js';`,
      '',
    ].join('\n'),
  );
}

/**
 * The source maps keep mapping into the generated code tables (src/codes/, written by
 * scripts/generate-codes.mjs) but do not embed their text: it is data (the HS table alone is about
 * 680 KB), nobody steps through it, and embedded it doubled the size of every map that reaches it.
 * Each build rewrites only the maps it wrote (the builds run in parallel).
 */
const GENERATED_TABLE = /(^|\/)src\/codes\/(hs-subheadings|hs-codes|isic-classes|isic-codes)\.ts$/;
function dropGeneratedSourcesContent(owns: (file: string) => boolean): () => Promise<void> {
  return async () => {
    const files = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.map') && owns(f));
    for (const file of files) {
      const path = join('dist', file);
      const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      const content = map.sourcesContent;
      if (content === undefined || !map.sources.some((source) => GENERATED_TABLE.test(source))) continue;
      map.sources.forEach((source, i) => {
        if (GENERATED_TABLE.test(source)) content[i] = null;
      });
      writeFileSync(path, JSON.stringify(map));
    }
  };
}

/**
 * The value exports of src/lite.ts, read from an in-memory esbuild bundle of it: the names the two
 * re-export shims below hand out.
 */
async function liteExportNames(): Promise<string[]> {
  const result = await esbuild({
    entryPoints: ['src/lite.ts'],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    define: { __CJS_REQUIRE__: 'undefined' },
    outdir: 'dist-lite-names',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.exports).sort();
}

/**
 * `require('invoicing-sdk/lite')` hands out the very objects of `require('invoicing-sdk')`: the
 * CommonJS build has no code splitting, so a lite.cjs of its own would be a second copy of the SDK
 * (an `InvoicingClient` that is not an `instanceof` the lite client, a second secret registry). Its
 * bundle size does not matter (bundlers take the ESM build), so lite.cjs is only re-exports from
 * index.cjs.
 */
async function liteCjsFromIndex(): Promise<void> {
  const names = await liteExportNames();
  writeFileSync(
    'dist/lite.cjs',
    [
      "'use strict';",
      '// invoicing-sdk/lite for require(): the same objects as require(\'invoicing-sdk\') (see tsup.config.ts).',
      "const sdk = require('./index.cjs');",
      ...names.map((name) => `exports.${name} = sdk.${name};`),
      '',
    ].join('\n'),
  );
}

const entry = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  codes: 'src/codes/index.ts',
};

/** What the three builds share: Node 20, source maps, uuid bundled from its portable build, msw optional. */
const common = {
  target: 'node20',
  sourcemap: true,
  noExternal: ['uuid'],
  external: ['msw', 'msw/node'],
} satisfies Options;

export default defineConfig([
  {
    // The main entry: one file, the whole SDK (each module an `import` loads costs about 1 ms on a
    // cold start, docs/performance.md); then invoicing-sdk/lite as re-exports of it.
    ...common,
    entry: { index: entry.index },
    format: ['esm'],
    dts: { entry },
    splitting: false,
    define: { __CJS_REQUIRE__: 'undefined' },
    esbuildPlugins: [portableUuid],
    onSuccess: async () => {
      await dropGeneratedSourcesContent((file) => file === 'index.js.map')();

    },
  },
  {
    // The other entries, code-split among themselves, taking the SDK from index.js.
    ...common,
    entry: { testing: entry.testing, codes: entry.codes, 'cli/bin': 'src/cli/bin.ts' },
    format: ['esm'],
    dts: false,
    splitting: true,
    define: { __CJS_REQUIRE__: 'undefined' },
    esbuildPlugins: [portableUuid, sdkFromIndex],
    onSuccess: async () => {
      await dropGeneratedSourcesContent((file) => file.endsWith('.js.map') && file !== 'index.js.map')();
      pointAtIndex();
    },
  },
  {
    ...common,
    entry: { index: entry.index, codes: entry.codes },
    format: ['cjs'],
    dts: { entry },
    splitting: false,
    define: { __CJS_REQUIRE__: 'require' },
    esbuildPlugins: [portableUuid],
    onSuccess: async () => {
      await dropGeneratedSourcesContent((file) => file === 'index.cjs.map' || file === 'codes.cjs.map')();

    },
  },
  {
    ...common,
    entry: { testing: entry.testing },
    format: ['cjs'],
    dts: false,
    splitting: false,
    define: { __CJS_REQUIRE__: 'require' },
    esbuildPlugins: [portableUuid, codesFromCodesEntry, sdkFromIndexCjs],
    onSuccess: dropGeneratedSourcesContent((file) => file === 'testing.cjs.map'),
  },
]);
