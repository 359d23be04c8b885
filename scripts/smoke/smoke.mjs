#!/usr/bin/env node
// Smoke entry for server runtimes: Node, Bun and Deno run this same file unchanged.
// The matrix runner (scripts/runtimes/run.mjs) starts the sandbox once and passes it in:
//   INVOICING_BASE_URL, INVOICING_API_KEY, SMOKE_BUSINESS_ID
// Run alone under Node (`npm run smoke`) it starts its own sandbox when INVOICING_BASE_URL is unset.
// It imports the package by its own name, so it exercises the built dist/ through package.json
// `exports` exactly as a user's `import 'invoicing-sdk'` would.
import * as sdk from 'invoicing-sdk';
import * as check from 'invoicing-sdk/check';
import { runChecks, runSmoke } from './smoke-core.mjs';

const env = globalThis.process?.env ?? globalThis.Deno?.env.toObject() ?? {};
const runtime = globalThis.Deno
  ? `Deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `Bun ${globalThis.Bun.version}`
    : `Node ${globalThis.process?.version}`;

let sandbox;
try {
  let settings = { baseUrl: env.INVOICING_BASE_URL, apiKey: env.INVOICING_API_KEY, businessId: env.SMOKE_BUSINESS_ID };
  if (!settings.baseUrl) {
    const { createSandbox } = await import('invoicing-sdk/testing');
    sandbox = await createSandbox({ responseDelayMs: 200 });
    settings = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, businessId: sandbox.businessId };
  }
  if (!globalThis.Deno && !globalThis.Bun) {
    // CommonJS: the sandbox of require('invoicing-sdk/testing') hands out clients of the very class
    // of require('invoicing-sdk') (the CJS entries share chunks), and classes keep their names.
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const [cjs, cjsTesting] = [require('invoicing-sdk'), require('invoicing-sdk/testing')];
    const cjsSandbox = await cjsTesting.createSandbox({ listen: false });
    try {
      const probe = cjsSandbox.client({ logLevel: 'error' });
      const error = await probe.invoices.retrieve('inv_none').then(() => undefined, (e) => e);
      if (!(probe instanceof cjs.InvoicingClient) || !(error instanceof cjs.NotFoundError) || error.constructor.name !== 'NotFoundError') {
        throw new Error("smoke: require('invoicing-sdk/testing') does not share the classes of require('invoicing-sdk')");
      }
    } finally {
      await cjsSandbox.close();
    }
    console.log('  cjs: invoicing-sdk/testing shares the classes of invoicing-sdk');
  }
  runChecks(check, settings.businessId);
  console.log('  invoicing-sdk/check: the same codes and totals without the client');
  const summary = await runSmoke(sdk, { ...settings, log: (line) => console.log(`  ${line}`) });
  console.log(`SMOKE OK ${runtime}: ${summary}`);
} catch (error) {
  console.error(`SMOKE FAILED ${runtime}: ${error?.stack ?? error}`);
  // Set the exit code instead of exiting so pending output is flushed on every runtime.
  if (globalThis.process) globalThis.process.exitCode = 1;
  else globalThis.Deno?.exit(1);
} finally {
  await sandbox?.close();
}
