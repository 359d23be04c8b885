#!/usr/bin/env node
/**
 * The bundle budget, enforced in CI: fails (exit 1) when a bundle of the built package grows past
 * its budget, or when an ES module entry loads more files than its budget. Bundles are measured as
 * in bench/bundle-size.mjs (esbuild --bundle --minify, gzip -9, 1 KB = 1,000 bytes), from dist/:
 *
 *   npm run build && npm run size
 *
 * A budget sits a little above today's size, so that growth is a decision (raise it here, with the
 * reason in the commit) rather than an accident. The goals of issue 7 and where we stand against
 * them are in docs/performance.md.
 */
import { breakdown, measureBundles } from '../bench/bundle-size.mjs';
import { requireBuild, staticModuleGraph } from '../bench/lib/common.mjs';

/** Bytes, gzip -9. */
export const BUDGETS = {
  /** `InvoicingLiteClient` and one call, one file: issue 7's goal itself, 15 KB. */
  liteSingleFile: 15_000,
  /**
   * `InvoicingClient` and one call, one file: everything it can reach (checks and filing included).
   * 39 KB until the audit fixes of 0.2.0 (redirects refused, header and idempotency-key checks,
   * scrubbed causes, pagination guards, exactly-once submit, the checks' fixes) took it to 40.0 KB;
   * 41 KB until the second round (the checks' bound on lines and throwing code lists, every page of
   * apiKeys.list(), secrets withheld from key-route errors and inspect output, codes lookups that one
   * caller's abort no longer fails, a refused create's own hint) took it to 41.1 KB.
   */
  clientSingleFile: 42_000,
  /** `InvoicingClient` and one call, code-split: what constructing it and one call load. */
  clientLoaded: 42_000,
  /** `checkInvoice` alone: 15.5 KB until the audit fixes of the checks took it to 16.2 KB. */
  checkOnly: 16_700,
  /** `InvoiceStatus`, `isAfterSubmitted` and two error guards: none of the client (it was 13.8 KB). */
  helpersOnly: 2_000,
};

/**
 * Files `import` of an ES module entry loads before it runs (the entry and its static chunks). Each
 * one costs Node about 1 ms on a cold start (resolve, read, compile, link; docs/performance.md).
 * dist/index.js is the whole SDK in one file and dist/lite.js re-exports from it (tsup.config.ts):
 * a chunk here would mean the build's layout changed.
 */
export const MODULE_BUDGETS = {
  'index.js': 1,
  'lite.js': 2,
};

requireBuild();
const { lite, client, check, helpers, clientSplit } = await measureBundles();
const rows = [
  ['InvoicingLiteClient + one call, one file', lite.gzip, BUDGETS.liteSingleFile],
  ['InvoicingClient + one call, one file', client.gzip, BUDGETS.clientSingleFile],
  ['InvoicingClient + one call, code-split, loaded by the call', clientSplit.loadedGzip, BUDGETS.clientLoaded],
  ['checkInvoice alone', check.gzip, BUDGETS.checkOnly],
  ['InvoiceStatus, isAfterSubmitted, isAPIError, isRateLimitError alone', helpers.gzip, BUDGETS.helpersOnly],
];
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
let over = 0;
console.log('| bundle (gzip -9) | size | budget | |');
console.log('|---|---|---|---|');
for (const [name, size, budget] of rows) {
  const ok = size <= budget;
  if (!ok) over += 1;
  console.log(`| ${name} | ${kb(size)} | ${kb(budget)} | ${ok ? 'ok' : 'OVER'} |`);
}
console.log('\n| ES module entry | files loaded by import | budget | |');
console.log('|---|---|---|---|');
let overModules = 0;
for (const [entry, budget] of Object.entries(MODULE_BUDGETS)) {
  const files = staticModuleGraph(entry);
  const ok = files.length <= budget;
  if (!ok) overModules += 1;
  console.log(`| dist/${entry} | ${files.length} (${files.join(', ')}) | ${budget} | ${ok ? 'ok' : 'OVER'} |`);
}
if (overModules > 0) {
  console.error(
    `\n${overModules} entry(ies) load more files than their budget: see tsup.config.ts for the layout of the ES module ` +
      'build, or raise the budget in scripts/size-check.mjs and say why.',
  );
}
if (over > 0) {
  console.error(
    `\n${over} bundle(s) over budget. Largest parts of the one-file lite and client bundles (minified bytes): ` +
      [...breakdown(lite.inputs).slice(0, 4), ...breakdown(client.inputs)]
        .slice(0, 8)
        .map(([name, bytes]) => `${name} ${bytes}`)
        .join(', ') +
      '.\nFind what grew (a new static import on the client path?), or raise the budget in scripts/size-check.mjs and say why.',
  );
}
if (over > 0 || overModules > 0) process.exit(1);
