#!/usr/bin/env node
/**
 * Bundle size, side by side: esbuild `--bundle --minify` of a consumer that constructs the client
 * and makes one call, dependencies included (ky, zod and uuid for invoicing-sdk; whatever openai and
 * stripe pull in), gzip -9 (1 KB = 1,000 bytes). One file holding everything the client can reach,
 * for the browser/edge platform (`platform: 'browser'`, where every one of them has a build).
 * Also with code splitting, as an app's bundler loads it: the first load (what loads before the
 * call runs) and every chunk the client can reach.
 * Also the `invoicing-sdk/check` entry (checks, totals, rule catalogue and code sets, for a CI job
 * or a form that only checks) and the status helpers alone.
 *
 *   npm run build && node bench/bundle-size.mjs
 *
 * The no-growth guard CI enforces is scripts/size-check.mjs, which uses {@link measureBundles}.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fmtKB, report, requireBuild, root } from './lib/common.mjs';

/** The consumers. Each is bundled from an installed package, through its own name. */
export const CONSUMERS = {
  'invoicing-sdk': [
    "import { InvoicingClient } from 'invoicing-sdk';",
    "const client = new InvoicingClient({ baseUrl: 'https://invoicing.example.com', apiKey: 'sk_live_example', dangerouslyAllowBrowser: true });",
    "client.invoices.retrieve('inv_123').then((invoice) => console.log(invoice.status));",
  ].join('\n'),
  openai: [
    "import OpenAI from 'openai';",
    "const client = new OpenAI({ apiKey: 'sk_example', baseURL: 'https://invoicing.example.com/v1', dangerouslyAllowBrowser: true });",
    "client.get('/invoices/inv_123').then((invoice) => console.log(invoice.status));",
  ].join('\n'),
  stripe: [
    "import Stripe from 'stripe';",
    "const stripe = new Stripe('sk_test_example');",
    "stripe.invoices.retrieve('in_123').then((invoice) => console.log(invoice.status));",
  ].join('\n'),
  check: [
    "import { CHECK_RULES, checkInvoice, computeTotals, HS_CODES, ISIC_CODES } from 'invoicing-sdk/check';",
    'const input = JSON.parse(globalThis.input ?? "{}");',
    'console.log(checkInvoice(input).ok, computeTotals(input.lines ?? []).total, Object.keys(CHECK_RULES).length, HS_CODES.size, ISIC_CODES.size);',
  ].join('\n'),
  helpers: [
    "import { InvoiceStatus, isAPIError, isRateLimitError } from 'invoicing-sdk';",
    'console.log(globalThis.status ?? InvoiceStatus.DRAFT, isAPIError(globalThis.err), isRateLimitError(globalThis.err));',
  ].join('\n'),
};

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * A consumer project in a temporary directory with the packages installed as links: this checkout
 * as `node_modules/invoicing-sdk` (resolved from dist/ through its exports map, as any app would),
 * openai and stripe from this checkout's node_modules.
 */
function consumerProject(source) {
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-bundle-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'invoicing-sdk'), 'dir');
  for (const peer of ['openai', 'stripe']) symlinkSync(join(root, 'node_modules', peer), join(dir, 'node_modules', peer), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'consumer.mjs'), `${source}\n`);
  return { dir, entry: join(dir, 'consumer.mjs'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `esbuild --bundle --minify` for the browser, ESM, with a metafile. */
const esbuildOptions = (project) => ({
  entryPoints: [project.entry],
  absWorkingDir: project.dir,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  metafile: true,
  logLevel: 'silent',
});

/** One file, as `esbuild --bundle --minify` makes it: gzip -9 size, minified size, per-input bytes. */
async function singleFile(source) {
  const project = consumerProject(source);
  try {
    const result = await build({ ...esbuildOptions(project), write: false });
    const bytes = result.outputFiles[0].contents;
    const inputs = Object.values(result.metafile.outputs)[0].inputs;
    return { gzip: gz(bytes), minified: bytes.length, inputs };
  } finally {
    project.cleanup();
  }
}

/**
 * With code splitting (`splitting: true`, ESM, as an app's bundler makes it): `first` is what loads
 * before the call runs, the entry chunk and the chunks it imports statically (transitively), each
 * file gzipped and summed (`firstConcat`: gzip of their concatenation); `all` is every chunk, with
 * those the `import()`s reach. `firstInputs`: what the first load holds.
 */
async function splitFiles(source) {
  const project = consumerProject(source);
  try {
    const result = await build({ ...esbuildOptions(project), splitting: true, outdir: join(project.dir, 'out') });
    const outputs = result.metafile.outputs;
    const bytesOf = (path) => readFileSync(join(project.dir, path));
    const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint !== undefined);
    const first = new Set();
    const visit = (path) => {
      if (first.has(path)) return;
      first.add(path);
      for (const { path: next, kind } of outputs[path].imports) if (kind === 'import-statement') visit(next);
    };
    visit(entry);
    const js = Object.keys(outputs).filter((path) => path.endsWith('.js'));
    const sum = (paths) => paths.reduce((total, path) => total + gz(bytesOf(path)), 0);
    return {
      first: sum([...first]),
      firstConcat: gz(Buffer.concat([...first].map(bytesOf))),
      firstInputs: Object.assign({}, ...[...first].map((path) => outputs[path].inputs)),
      all: sum(js),
      chunks: js.length,
    };
  } finally {
    project.cleanup();
  }
}

/** Every size the guard and the table use, in bytes. */
export async function measureBundles() {
  const out = {};
  for (const [name, source] of Object.entries(CONSUMERS)) out[name] = await singleFile(source);
  for (const name of ['invoicing-sdk', 'openai', 'stripe']) out[name].split = await splitFiles(CONSUMERS[name]);
  return out;
}

/** The largest inputs of a bundle, by package (or by source folder for this package). */
export function breakdown(inputs) {
  const parts = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
    const name = pkg === 'invoicing-sdk' || pkg === undefined ? path.replace(/^.*?dist\//, 'dist/') : pkg;
    parts.set(name, (parts.get(name) ?? 0) + bytesInOutput);
  }
  return [...parts.entries()].sort((a, b) => b[1] - a[1]);
}

/** The runtime dependencies (ky, zod, uuid) that a bundle's inputs hold. */
export function dependenciesIn(inputs) {
  return ['ky', 'zod', 'uuid'].filter((dep) => Object.keys(inputs).some((path) => path.includes(`node_modules/${dep}/`)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireBuild();
  const sizes = await measureBundles();
  const sdk = sizes['invoicing-sdk'].gzip;
  const peers = ['openai', 'stripe'].map((name) => sizes[name].gzip);
  report('bundle size', [
    {
      measure: 'bundle: client + one GET, esbuild --bundle --minify, dependencies included, gzip -9',
      fetch: '',
      sdk: fmtKB(sdk),
      openai: fmtKB(sizes.openai.gzip),
      stripe: fmtKB(sizes.stripe.gzip),
      goal: '≤ 60 KB; no growth (scripts/size-check.mjs)',
      met: `${sdk <= 60_000 ? 'yes' : '**no**'}, ${sdk <= Math.min(...peers) ? 'below peers' : 'above a peer'}`,
    },
    {
      measure: 'bundle: client + one GET, first load with code splitting (entry + static chunks, gzip -9 each, summed)',
      sdk: `${fmtKB(sizes['invoicing-sdk'].split.first)} (concatenated ${fmtKB(sizes['invoicing-sdk'].split.firstConcat)})`,
      openai: fmtKB(sizes.openai.split.first),
      stripe: fmtKB(sizes.stripe.split.first),
      goal: '≤ 60 KB; no growth (scripts/size-check.mjs)',
      met: sizes['invoicing-sdk'].split.first <= 60_000,
    },
    {
      measure: 'bundle: client + one GET, every chunk it can reach with code splitting, gzip -9 each, summed',
      sdk: `${fmtKB(sizes['invoicing-sdk'].split.all)} (${sizes['invoicing-sdk'].split.chunks} chunks)`,
      openai: fmtKB(sizes.openai.split.all),
      stripe: fmtKB(sizes.stripe.split.all),
    },
    {
      measure: 'bundle: invoicing-sdk/check (checks, totals, rules, code sets), gzip -9',
      sdk: fmtKB(sizes.check.gzip),
      goal: '≤ 15 KB, none of ky, zod, uuid',
      met: sizes.check.gzip <= 15_000 && dependenciesIn(sizes.check.inputs).length === 0,
    },
    { measure: 'bundle: status helpers alone, gzip -9', sdk: fmtKB(sizes.helpers.gzip) },
  ], {
    notes: [
      `Largest parts of the invoicing-sdk bundle (minified bytes): ${breakdown(sizes['invoicing-sdk'].inputs)
        .slice(0, 6)
        .map(([name, bytes]) => `${name} ${bytes}`)
        .join(', ')}.`,
      `Largest parts of the invoicing-sdk first load with code splitting (minified bytes): ${breakdown(sizes['invoicing-sdk'].split.firstInputs)
        .slice(0, 6)
        .map(([name, bytes]) => `${name} ${bytes}`)
        .join(', ')}.`,
      `Largest parts of the invoicing-sdk/check bundle (minified bytes): ${breakdown(sizes.check.inputs)
        .slice(0, 6)
        .map(([name, bytes]) => `${name} ${bytes}`)
        .join(', ')}.`,
    ],
  });
}
