import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
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

// Two builds. `npm run build` empties dist/ first, so neither build cleans (they run in parallel
// and would delete each other's output).
//
// uuid is bundled into both, from its portable build (Web Crypto `getRandomValues` and a plain-JS
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
 * For the ESM build: the codes entry gets a copy of its own of the ISIC code set (src/codes/isic-codes.ts,
 * about 2.7 KB) instead of sharing it with the checks. Code splitting puts each module in a chunk by
 * the set of entries that reach it; shared with `invoicing-sdk/codes`, the set was a chunk of its own,
 * one more file for `import('invoicing-sdk')` to resolve, read and compile (about 1 ms a module on
 * Node 20, docs/performance.md). The two copies hold the same codes; nothing compares the sets by
 * identity (the CommonJS build has always had two, in index.cjs and codes.cjs).
 */
const CODES_ENTRY_COPY = 'codes-entry-copy';
const isicCodesCopyForCodesEntry: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'isic-codes-copy-for-codes-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\/isic-codes\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'codes', 'index.ts'))
        ? { path: join(dirname(args.importer), 'isic-codes.ts'), namespace: CODES_ENTRY_COPY }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: CODES_ENTRY_COPY }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
  },
};

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
      // The codes entry's copy of the ISIC set is named `codes-entry-copy:<absolute path>` by esbuild
      // (a plugin namespace): point it at the source file like every other source.
      const prefix = `${CODES_ENTRY_COPY}:`;
      map.sources = map.sources.map((source) =>
        source.startsWith(prefix) ? relative(dirname(path), source.slice(prefix.length)).split('\\').join('/') : source,
      );
      const content = map.sourcesContent;
      if (content === undefined || !map.sources.some((source) => GENERATED_TABLE.test(source))) {
        writeFileSync(path, JSON.stringify(map));
        continue;
      }
      map.sources.forEach((source, i) => {
        if (GENERATED_TABLE.test(source)) content[i] = null;
      });
      writeFileSync(path, JSON.stringify(map));
    }
  };
}

/**
 * `require('invoicing-sdk/lite')` hands out the very objects of `require('invoicing-sdk')`: the
 * CommonJS build has no code splitting, so a lite.cjs of its own would be a second copy of the SDK
 * (an `InvoicingClient` that is not an `instanceof` the lite client, a second secret registry). Its
 * bundle size does not matter (bundlers take the ESM build), so once esbuild has written lite.cjs,
 * its export names are read from it and it is replaced by re-exports from index.cjs.
 */
function liteCjsFromIndex(): void {
  const built = require(join(process.cwd(), 'dist/lite.cjs')) as Record<string, unknown>;
  const names = Object.keys(built).sort();
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
  rmSync('dist/lite.cjs.map', { force: true });
}

const entry = {
  index: 'src/index.ts',
  lite: 'src/lite.ts',
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
    ...common,
    entry: { ...entry, 'cli/bin': 'src/cli/bin.ts' },
    format: ['esm'],
    dts: { entry },
    splitting: true,
    define: { __CJS_REQUIRE__: 'undefined' },
    esbuildPlugins: [portableUuid, isicCodesCopyForCodesEntry],
    onSuccess: dropGeneratedSourcesContent((file) => file.endsWith('.js.map')),
  },
  {
    ...common,
    entry: { index: entry.index, lite: entry.lite, codes: entry.codes },
    format: ['cjs'],
    dts: { entry },
    splitting: false,
    define: { __CJS_REQUIRE__: 'require' },
    esbuildPlugins: [portableUuid],
    onSuccess: async () => {
      await dropGeneratedSourcesContent((file) => file === 'index.cjs.map' || file === 'codes.cjs.map')();
      liteCjsFromIndex();
    },
  },
  {
    ...common,
    entry: { testing: entry.testing },
    format: ['cjs'],
    dts: false,
    splitting: false,
    define: { __CJS_REQUIRE__: 'require' },
    esbuildPlugins: [portableUuid, codesFromCodesEntry],
    onSuccess: dropGeneratedSourcesContent((file) => file === 'testing.cjs.map'),
  },
]);
