#!/usr/bin/env node
/**
 * The bundle no-growth guard, enforced in CI: fails (exit 1) when the bundle of `InvoicingClient`
 * and one call grows past the figure last measured. Measured as in bench/bundle-size.mjs (esbuild
 * --bundle --minify for the browser, dependencies included, gzip -9, 1 KB = 1,000 bytes), from dist/:
 *
 *   npm run build && npm run size
 *
 * The budget is the measured size, so that growth is a decision (raise it here, with the reason in
 * the commit) rather than an accident. The peers' figures are in docs/performance.md.
 */
import { breakdown, measureBundles } from '../bench/bundle-size.mjs';
import { requireBuild } from '../bench/lib/common.mjs';

/**
 * Bytes, gzip -9: `InvoicingClient` + one call with ky, zod and uuid, measured 25 November 2026 at
 * 19:08 UTC (98,033 bytes), after responses were read through the zod schemas, the per-client
 * redaction was wired and `apiKeys.rotate` landed. Raised from 44,600 when the schemas moved onto
 * classic zod at runtime: zod alone is about 96 KB of the ~300 KB minified (classic zod's method API
 * does not tree-shake). Raised from 98,100 for `client.diagnose()` (issue 26): its checks are a
 * method of the client, so they ride along (104,406 bytes measured 27 November 2026; loading them
 * with `import()` measured larger, as a split chunk that the bundle includes anyway).
 */
export const BUDGET = 104_500;

requireBuild();
const { 'invoicing-sdk': client } = await measureBundles();
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const ok = client.gzip <= BUDGET;
console.log('| bundle (gzip -9) | size | budget | |');
console.log('|---|---|---|---|');
console.log(`| InvoicingClient + one call, dependencies included | ${kb(client.gzip)} (${client.gzip} bytes) | ${kb(BUDGET)} | ${ok ? 'ok' : 'OVER'} |`);
if (!ok) {
  console.error(
    `\nThe client bundle grew past its budget. Largest parts (minified bytes): ${breakdown(client.inputs)
      .slice(0, 8)
      .map(([name, bytes]) => `${name} ${bytes}`)
      .join(', ')}.\nFind what grew (a new static import on the client path?), or raise BUDGET in scripts/size-check.mjs and say why.`,
  );
  process.exit(1);
}
