#!/usr/bin/env node
/**
 * Bundle size: esbuild `--bundle --minify` of a consumer that constructs the client and makes one
 * call, gzip -9 (1 KB = 1,000 bytes). This is how the peers in issue 7 were measured: one file
 * holding everything the client can reach. Measured for `InvoicingLiteClient` (`invoicing-sdk/lite`,
 * the client for bundles) and for `InvoicingClient` (which also reaches the local checks and the
 * filing workflow). Also reported:
 * - the same consumer built with code splitting (`--splitting --format=esm`), counting only the
 *   chunks that constructing the client and making the call actually load (found by running it), as
 *   an app bundled by Vite, Rollup, webpack or esbuild with splitting ships it;
 * - `checkInvoice` alone (a CI job or a form that only checks);
 * - the status helpers and error guards alone (a page that shows an invoice's status).
 *
 *   npm run build && node bench/bundle-size.mjs
 *
 * The budgets that CI enforces are in scripts/size-check.mjs, which uses {@link measureBundles}.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fmtKB, report, requireBuild, root } from './lib/common.mjs';

/** The consumers. Each is bundled from the built package through its own name. */
export const CONSUMERS = {
  lite: [
    "import { InvoicingLiteClient } from 'invoicing-sdk/lite';",
    "const client = new InvoicingLiteClient({ baseUrl: 'https://invoicing.example.com', apiKey: 'sk_live_example' });",
    "client.invoices.retrieve('inv_123').then((invoice) => console.log(invoice.status));",
  ].join('\n'),
  client: [
    "import { InvoicingClient } from 'invoicing-sdk';",
    "const client = new InvoicingClient({ baseUrl: 'https://invoicing.example.com', apiKey: 'sk_live_example' });",
    "client.invoices.retrieve('inv_123').then((invoice) => console.log(invoice.status));",
  ].join('\n'),
  check: [
    "import { checkInvoice } from 'invoicing-sdk';",
    'console.log(checkInvoice(JSON.parse(globalThis.input ?? "{}")).ok);',
  ].join('\n'),
  helpers: [
    "import { InvoiceStatus, isAfterSubmitted, isAPIError, isRateLimitError } from 'invoicing-sdk';",
    'const status = globalThis.status ?? InvoiceStatus.DRAFT;',
    'console.log(isAfterSubmitted(status), isAPIError(globalThis.err), isRateLimitError(globalThis.err));',
  ].join('\n'),
};

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * A consumer project in a temporary directory, with the package installed as
 * `node_modules/invoicing-sdk` (a link to this checkout): esbuild resolves it as any app would, from
 * dist/ through the exports map, and the repository's own tsconfig (whose `paths` point at src/)
 * plays no part.
 */
function consumerProject(source) {
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-bundle-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'invoicing-sdk'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'consumer.mjs'), `${source}\n`);
  return { dir, entry: join(dir, 'consumer.mjs'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One file, as `esbuild --bundle --minify` makes it: gzip -9 size, minified size, per-input bytes. */
async function singleFile(source) {
  const project = consumerProject(source);
  try {
    const result = await build({
      entryPoints: [project.entry],
      absWorkingDir: project.dir,
      bundle: true,
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0].contents;
    const inputs = Object.values(result.metafile.outputs)[0].inputs;
    return { gzip: gz(bytes), minified: bytes.length, inputs };
  } finally {
    project.cleanup();
  }
}

/**
 * The consumer with code splitting, run once (global fetch answering the envelope): the gzip -9
 * size of the chunks it loads, and of all chunks.
 */
async function split(source) {
  const project = consumerProject(source);
  const dir = join(project.dir, 'out');
  try {
    await build({
      entryPoints: [project.entry],
      absWorkingDir: project.dir,
      bundle: true,
      minify: true,
      splitting: true,
      format: 'esm',
      outdir: dir,
      entryNames: 'entry',
      logLevel: 'silent',
    });
    const loaded = join(dir, 'loaded.txt');
    writeFileSync(loaded, '');
    const runner = join(dir, 'run.mjs');
    writeFileSync(
      runner,
      [
        'globalThis.fetch = async () => new Response(JSON.stringify({ success: true, data: { id: "inv_123", status: "draft" }, timestamp: new Date().toISOString() }), { headers: { "content-type": "application/json" } });',
        `await import(${JSON.stringify(pathToFileURL(join(dir, 'entry.js')).href)});`,
      ].join('\n'),
    );
    const hooks = pathToFileURL(fileURLToPath(new URL('./lib/record-loads.mjs', import.meta.url))).href;
    const run = spawnSync(process.execPath, ['--import', hooks, runner], {
      env: { ...process.env, BENCH_LOADED: loaded },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`the split bundle failed to run: ${run.stderr}`);
    const files = [...new Set(readFileSync(loaded, 'utf8').split('\n').filter(Boolean))]
      .map((url) => fileURLToPath(url))
      .filter((file) => file.startsWith(dir) && file !== runner);
    const all = readdirSync(dir).filter((name) => name.endsWith('.js'));
    const size = (names) => names.reduce((sum, file) => sum + gz(readFileSync(file)), 0);
    return {
      loadedGzip: size(files),
      loadedChunks: files.map((file) => basename(file)),
      allGzip: size(all.map((name) => join(dir, name))),
    };
  } finally {
    project.cleanup();
  }
}

/** Every size the budgets and the table use, in bytes. */
export async function measureBundles() {
  const lite = await singleFile(CONSUMERS.lite);
  const client = await singleFile(CONSUMERS.client);
  const check = await singleFile(CONSUMERS.check);
  const helpers = await singleFile(CONSUMERS.helpers);
  const clientSplit = await split(CONSUMERS.client);
  return { lite, client, check, helpers, clientSplit };
}

/** Minified bytes per package or source directory, largest first (what to look at when over). */
export function breakdown(inputs) {
  const by = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const parts = path.split('/');
    const nm = parts.lastIndexOf('node_modules');
    const dist = parts.lastIndexOf('dist');
    const key = nm >= 0 ? parts[nm + 1] : dist >= 0 ? parts.slice(dist).join('/') : path;
    by.set(key, (by.get(key) ?? 0) + bytesInOutput);
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  requireBuild();
  const { lite, client, check, helpers, clientSplit } = await measureBundles();
  const GOAL = 15_000;
  /** A row for a one-file bundle: gzip size, against its minified size. */
  const oneFile = (measure, bundle, withGoal) => ({
    measure,
    value: fmtKB(bundle.gzip),
    baseline: `${fmtKB(bundle.minified)} minified`,
    ...(withGoal ? { goal: '≤ 15 KB (stretch < 9.3 KB)', met: bundle.gzip <= GOAL } : {}),
    raw: bundle.gzip,
  });
  const largest = (name, bundle) =>
    `Largest parts of the one-file ${name} bundle (minified bytes): ${breakdown(bundle.inputs)
      .slice(0, 8)
      .map(([part, bytes]) => `${part} ${bytes}`)
      .join(', ')}.`;
  report(
    'Bundle size',
    [
      oneFile('bundle: InvoicingLiteClient (invoicing-sdk/lite) + one call, esbuild --bundle --minify, gzip -9', lite, true),
      oneFile('bundle: InvoicingClient (with checks and filing) + one call, esbuild --bundle --minify, gzip -9', client, true),
      {
        measure: 'bundle: InvoicingClient + one call, code-split, chunks the call loads',
        value: fmtKB(clientSplit.loadedGzip),
        baseline: `${fmtKB(clientSplit.allGzip)} all chunks`,
        goal: '≤ 15 KB (stretch < 9.3 KB)',
        met: clientSplit.loadedGzip <= GOAL,
        raw: clientSplit.loadedGzip,
      },
      oneFile('bundle: checkInvoice alone, gzip -9', check, false),
      oneFile('bundle: InvoiceStatus, isAfterSubmitted and two error guards alone, gzip -9', helpers, false),
    ],
    { notes: [largest('lite', lite), largest('InvoicingClient', client)] },
  );
}
