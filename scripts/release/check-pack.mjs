#!/usr/bin/env node
// Release check: what `npm publish` would ship, and whether its source maps resolve.
//   npm run build && node scripts/release/check-pack.mjs
// 1. `npm pack --dry-run --json` lists only package.json, README.md, LICENSE, CHANGELOG.md and dist/**.
// 2. Every shipped .js/.cjs names a source map that is shipped too.
// 3. Every map is valid JSON whose every source can be shown to a user debugging in their editor
//    or browser: the source text is embedded (`sourcesContent`), since src/ is not shipped.
// 4. With `node --enable-source-maps`, an error thrown by the built ESM and CJS entry points has
//    a stack trace that points at the TypeScript source (the maps really resolve).
// 5. One copy of the SDK however it is loaded: in ESM and in CJS, a client from the sandbox of
//    `invoicing-sdk/testing` and its errors are instances of the classes of `invoicing-sdk`, and
//    the error classes keep their names (`err.constructor.name`, not a minifier's `_NotFoundError`).
// 6. TypeScript's `moduleResolution: node10` (`node`), which ignores `exports`, finds the types of
//    every subpath through `typesVersions`: one entry per subpath of `exports`, naming the shipped
//    declaration file that `exports` gives `require` (node10 stands for CommonJS consumers).
// 7. `invoicing-sdk/check`, in ESM and in CJS, reaches none of ky, zod or uuid: no import or
//    require of them in the files it loads, none of their sources in those files' maps.
// Prints one line per failed check and a summary; exits 1 on a failure.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALLOWED = [/^package\.json$/, /^README\.md$/, /^LICENSE$/, /^CHANGELOG\.md$/, /^dist\//];
const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs', 'dist/testing.js', 'dist/testing.cjs', 'dist/codes.js', 'dist/codes.cjs', 'dist/check.js', 'dist/check.cjs', 'dist/check.d.ts', 'dist/check.d.cts', 'dist/cli/bin.js'];

const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
);
const files = pack.files.map((file) => file.path);
const shipped = new Set(files);
let passed = 0;
const failures = [];
const check = (ok, message) => (ok ? passed++ : failures.push(message));

for (const file of files) check(ALLOWED.some((re) => re.test(file)), `ships a file users do not need: ${file}`);
for (const file of REQUIRED) check(shipped.has(file), `does not ship ${file}`);
if (!shipped.has('CHANGELOG.md')) console.log('note: no CHANGELOG.md yet (created by `changeset version` at the first release)');

let maps = 0;
for (const file of files.filter((f) => /\.(c|m)?js$/.test(f))) {
  const code = readFileSync(join(root, file), 'utf8');
  const url = code.match(/\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
  if (!url) {
    check(false, `${file} has no sourceMappingURL`);
    continue;
  }
  const mapFile = posix.join(posix.dirname(file), url);
  check(shipped.has(mapFile), `${file} points at ${mapFile}, which is not shipped`);
  if (!existsSync(join(root, mapFile))) continue;
  maps++;
  let map;
  try {
    map = JSON.parse(readFileSync(join(root, mapFile), 'utf8'));
  } catch (error) {
    check(false, `${mapFile} is not valid JSON: ${error.message}`);
    continue;
  }
  // A chunk that only re-exports has no sources and, rightly, no mappings.
  const usable = map.version === 3 && typeof map.mappings === 'string' && (map.mappings.length > 0 || map.sources.length === 0);
  check(usable, `${mapFile} is not a usable v3 map`);
  map.sources.forEach((source, i) => {
    const embedded = typeof map.sourcesContent?.[i] === 'string' && map.sourcesContent[i].length > 0;
    const resolvedInPackage = shipped.has(posix.join(posix.dirname(mapFile), map.sourceRoot ?? '', source));
        check(embedded || resolvedInPackage, `${mapFile}: source ${source} is neither embedded nor shipped`);
  });
  // An embedded source should match the repository's file, so stack traces point at real lines.
  map.sources.forEach((source, i) => {
    const local = join(root, posix.dirname(mapFile), source);
    if (typeof map.sourcesContent?.[i] === 'string' && existsSync(local) && !source.includes('node_modules')) {
      check(readFileSync(local, 'utf8') === map.sourcesContent[i], `${mapFile}: embedded ${source} differs from the file (stale build?)`);
    }
  });
}

// A client built with no baseUrl throws from src/core/options.ts: its stack must say so.
const { INVOICING_BASE_URL: _unset, ...env } = process.env;
const probes = {
  ESM: ['--input-type=module', '-e', "import { InvoicingClient } from 'invoicing-sdk'; try { new InvoicingClient({}) } catch (e) { console.log(e.stack) }"],
  CJS: ['-e', "const { InvoicingClient } = require('invoicing-sdk'); try { new InvoicingClient({}) } catch (e) { console.log(e.stack) }"],
};
for (const [format, args] of Object.entries(probes)) {
  const stack = execFileSync(process.execPath, ['--enable-source-maps', ...args], { cwd: root, env, encoding: 'utf8' });
  check(/src\/core\/options\.ts:\d+:\d+/.test(stack), `${format} stack trace does not map to src/core/options.ts:\n${stack}`);
}

// The sandbox's client and its errors are the user's classes (testing.cjs once bundled its own SDK).
const SAME_CLASSES =
  "const c = sandbox.client(); const e = await c.invoices.retrieve('inv_none').catch((x) => x); " +
  "console.log(c instanceof sdk.InvoicingClient, e instanceof sdk.NotFoundError, e instanceof sdk.InvoicingError, e.constructor.name, e.name); await sandbox.close();";
const sameClassProbes = {
  ESM: ['--input-type=module', '-e', `const sdk = await import('invoicing-sdk'); const { createSandbox } = await import('invoicing-sdk/testing'); const sandbox = await createSandbox({ listen: false, msw: false }); ${SAME_CLASSES}`],
  CJS: ['-e', `(async () => { const sdk = require('invoicing-sdk'); const { createSandbox } = require('invoicing-sdk/testing'); const sandbox = await createSandbox({ listen: false, msw: false }); ${SAME_CLASSES} })()`],
};
for (const [format, args] of Object.entries(sameClassProbes)) {
  const out = execFileSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' }).trim();
  check(out === 'true true true NotFoundError NotFoundError', `${format}: the sandbox's client or its errors are not instances of invoicing-sdk's classes, or lost their names (${out})`);
}

// node10 consumers are still common (the default of `module: commonjs` projects); without an
// entry, `import 'invoicing-sdk/testing'` has no types there, and attw reports it.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const typesVersions = manifest.typesVersions?.['*'] ?? {};
const subpaths = Object.keys(manifest.exports).filter((key) => key !== '.' && key !== './package.json');
for (const subpath of subpaths) {
  const name = subpath.slice(2);
  const expected = manifest.exports[subpath].require?.types;
  const targets = typesVersions[name];
  check(Array.isArray(targets), `typesVersions has no entry for ${subpath}: node10 finds no types for invoicing-sdk/${name}`);
  if (!Array.isArray(targets)) continue;
  check(
    targets.length === 1 && targets[0] === expected,
    `typesVersions["*"]["${name}"] is ${JSON.stringify(targets)}, not ["${expected}"] (the types exports gives require)`,
  );
}
for (const [name, targets] of Object.entries(typesVersions)) {
  check(subpaths.includes(`./${name}`), `typesVersions maps ${name}, which is not a subpath of exports`);
  for (const target of [targets].flat()) {
    check(shipped.has(posix.normalize(target)), `typesVersions["*"]["${name}"] points at ${target}, which is not shipped`);
  }
}

// The check entry runs in browsers and CI jobs without the client's dependencies.
for (const entry of ['dist/check.js', 'dist/check.cjs']) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(root, file), 'utf8');
    for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)) {
      if (specifier.startsWith('.')) visit(posix.join(posix.dirname(file), specifier));
      else check(!/^(ky|zod|uuid)(\/|$)/.test(specifier), `${entry} reaches ${specifier} (through ${file})`);
    }
    const mapFile = `${file}.map`;
    if (!existsSync(join(root, mapFile))) return;
    const bundled = JSON.parse(readFileSync(join(root, mapFile), 'utf8')).sources.filter((source) => /node_modules\/(ky|zod|uuid)\//.test(source));
    check(bundled.length === 0, `${entry} loads ${file}, which bundles ${bundled.slice(0, 3).join(', ')}`);
  };
  visit(entry);
}

console.log(`package ${pack.name}@${pack.version}: ${files.length} files, ${(pack.size / 1024).toFixed(1)} kB packed, ${(pack.unpackedSize / 1024).toFixed(1)} kB unpacked, ${maps} source maps`);
for (const message of failures) console.log(`FAIL  ${message}`);
console.log(
  failures.length === 0
    ? `pack check OK: ${passed} checks on ${files.length} files`
    : `pack check FAILED: ${failures.length} of ${passed + failures.length} checks`,
);
process.exitCode = failures.length > 0 ? 1 : 0;
