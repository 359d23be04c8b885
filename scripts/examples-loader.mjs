/**
 * Runs the TypeScript examples on Node 20, which cannot strip types itself:
 *
 *   node --import ./scripts/examples-loader.mjs examples/quick-start.ts
 *
 * Imported with --import, this file registers itself as a module-customisation hook; Node then
 * loads it a second time on its hooks thread, where its `resolve` and `load` exports do the work.
 * `.ts` files are transformed with esbuild (types erased, nothing bundled), so `import ... from
 * 'invoicing-sdk'` still resolves the way it does for users: through package.json `exports`, to
 * dist/ (the package's self-reference).
 *
 * With INVOICING_SDK_DIR set, `invoicing-sdk` and `invoicing-sdk/<entry>` resolve to
 * `<dir>/index.js` and `<dir>/<entry>.js` instead: the examples' test points them at a fresh
 * esbuild of src/, so it never runs against a stale dist/.
 */
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

const PACKAGE = 'invoicing-sdk';
const sdkDir = process.env.INVOICING_SDK_DIR;

/** @type {Promise<typeof import('esbuild')> | undefined} */
let esbuild;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (sdkDir !== undefined && sdkDir !== '' && (specifier === PACKAGE || specifier.startsWith(`${PACKAGE}/`))) {
    const entry = specifier === PACKAGE ? 'index' : specifier.slice(PACKAGE.length + 1);
    return { url: pathToFileURL(join(sdkDir, `${entry}.js`)).href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.[cm]?ts$/.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  esbuild ??= import('esbuild');
  const { transform } = await esbuild;
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcefile: path,
    sourcemap: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
