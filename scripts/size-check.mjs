#!/usr/bin/env node
/**
 * The bundle budget, enforced in CI: fails (exit 1) when a bundle of the built package grows past
 * its budget. Measured as in bench/bundle-size.mjs (esbuild --bundle --minify, gzip -9, 1 KB = 1,000
 * bytes), from dist/:
 *
 *   npm run build && npm run size
 *
 * A budget sits a little above today's size, so that growth is a decision (raise it here, with the
 * reason in the commit) rather than an accident. The goals of issue 7 and where we stand against
 * them are in docs/performance.md.
 */
import { breakdown, measureBundles } from '../bench/bundle-size.mjs';
import { requireBuild } from '../bench/lib/common.mjs';

/** Bytes, gzip -9. */
export const BUDGETS = {
  /** `InvoicingLiteClient` and one call, one file: issue 7's goal itself, 15 KB. */
  liteSingleFile: 15_000,
  /** `InvoicingClient` and one call, one file: everything it can reach (checks and filing included). */
  clientSingleFile: 40_000,
  /** `InvoicingClient` and one call, code-split: what constructing it and one call load. */
  clientLoaded: 40_000,
  /** `checkInvoice` alone. */
  checkOnly: 16_000,
};

requireBuild();
const { lite, client, check, clientSplit } = await measureBundles();
const rows = [
  ['InvoicingLiteClient + one call, one file', lite.gzip, BUDGETS.liteSingleFile],
  ['InvoicingClient + one call, one file', client.gzip, BUDGETS.clientSingleFile],
  ['InvoicingClient + one call, code-split, loaded by the call', clientSplit.loadedGzip, BUDGETS.clientLoaded],
  ['checkInvoice alone', check.gzip, BUDGETS.checkOnly],
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
if (over > 0) {
  console.error(
    `\n${over} bundle(s) over budget. Largest parts of the one-file lite and client bundles (minified bytes): ` +
      [...breakdown(lite.inputs).slice(0, 4), ...breakdown(client.inputs)]
        .slice(0, 8)
        .map(([name, bytes]) => `${name} ${bytes}`)
        .join(', ') +
      '.\nFind what grew (a new static import on the client path?), or raise the budget in scripts/size-check.mjs and say why.',
  );
  process.exit(1);
}
