#!/usr/bin/env node
/**
 * Bulk filing: `client.invoices.fileMany` of 5,000 invoices against the loopback sandbox, at
 * concurrency 1, 4 and 16: invoices per second and the peak memory of the filing process. The
 * baseline, run in the same way against the same sandbox: a hand-written loop of the four calls
 * (create with an idempotency key, validate, sign, submit) over bare `fetch`, with the same number
 * of workers and no checks, no totals reconciliation, no retries and no response validation.
 *
 * The sandbox runs in its own process (so its store of 30,000 invoices is not counted), each filing
 * run in a fresh process of its own (so each peak is that run's alone). Memory is sampled every
 * 20 ms: peak RSS, and peak heap over the heap before the run.
 *
 *   npm run build && node bench/file-many.mjs [--quick]     # --quick: 500 invoices
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fmtRatio, quick, report, requireBuild } from './lib/common.mjs';

const COUNT = quick ? 500 : 5000;
const LEVELS = [1, 4, 16];
const role = process.argv[2];

function makeInvoices(businessId, count) {
  return Array.from({ length: count }, (_, i) => ({
    businessId,
    buyer: { type: 'B2B', tin: `${String(10_000_000 + i)}-0001`, name: `Buyer ${i}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: `Consulting ${i}`, quantity: 1 + (i % 9), unitPrice: 150, taxRate: 7.5, isicCode: '6202' },
      ...(i % 2 === 0 ? [{ description: 'Cable', quantity: 3, unitPrice: 12.99, taxRate: 7.5, hsnCode: '8544.42' }] : []),
    ],
  }));
}

/** Samples memory until stopped; returns the peaks. */
function memorySampler() {
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  return () => {
    clearInterval(timer);
    return { peakRss, heapGrowth: peakHeap - before.heapUsed };
  };
}

if (role === '--sandbox') {
  const { createSandbox } = await import('invoicing-sdk/testing');
  const sandbox = await createSandbox({ requestLogLimit: 1000 });
  process.send({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, businessId: sandbox.businessId });
  process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
} else if (role === '--file') {
  // One filing run: argv = --file <sdk|raw> <concurrency> <tag>; the sandbox comes over IPC.
  const [, , , mode, level, tag] = process.argv;
  const concurrency = Number(level);
  const sandbox = await new Promise((resolve) => process.once('message', resolve));
  const inputs = makeInvoices(sandbox.businessId, COUNT);
  const { InvoicingClient, deriveIdempotencyKey } = await import('invoicing-sdk');
  const stop = memorySampler();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let ok = 0;
  if (mode === 'sdk') {
    const client = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off' });
    const results = await client.invoices.fileMany(inputs, { concurrency, externalRef: (_, i) => `${tag}-${i}` });
    ok = results.filter((r) => r.ok && r.invoice.status === 'SUBMITTED').length;
  } else {
    const api = `${sandbox.baseUrl}/api/v1/invoices`;
    const headers = { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json', accept: 'application/json' };
    let next = 0;
    const worker = async () => {
      while (next < inputs.length) {
        const i = next++;
        const key = deriveIdempotencyKey(sandbox.businessId, `${tag}-${i}`);
        const created = await fetch(api, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify(inputs[i]) });
        const { data } = await created.json();
        let last;
        for (const step of ['validate', 'sign', 'submit']) {
          last = await (await fetch(`${api}/${data.id}/${step}`, { method: 'POST', headers })).json();
        }
        if (last?.data?.status === 'Submitted') ok += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const memory = stop();
  process.send({ ms, ok, cpuMs: (cpu.user + cpu.system) / 1000, ...memory });
  process.disconnect();
} else {
  requireBuild();
  const self = fileURLToPath(import.meta.url);
  const server = fork(self, ['--sandbox', ...(quick ? ['--quick'] : [])]);
  const sandbox = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
  });
  const file = (mode, level) =>
    new Promise((resolve, reject) => {
      const tag = `${mode}-c${level}-${process.pid}`;
      const child = fork(self, ['--file', mode, String(level), tag, ...(quick ? ['--quick'] : [])]);
      child.send(sandbox);
      child.once('message', resolve);
      child.once('exit', (code) => code !== 0 && reject(new Error(`${mode} filing at concurrency ${level} exited ${code}`)));
    });
  const rows = [];
  try {
    for (const level of LEVELS) {
      const raw = await file('raw', level);
      const sdk = await file('sdk', level);
      if (sdk.ok !== COUNT || raw.ok !== COUNT) throw new Error(`not every invoice was submitted: sdk ${sdk.ok}, raw ${raw.ok} of ${COUNT}`);
      const rate = (r) => (COUNT / r.ms) * 1000;
      const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
      const cpuPer = (r) => `${((r.cpuMs / COUNT) * 1000).toFixed(0)} µs`;
      rows.push({
        measure: `fileMany: ${COUNT.toLocaleString('en-US')} invoices, concurrency ${level}`,
        value: `${rate(sdk).toFixed(0)} invoices/s, ${cpuPer(sdk)} CPU each; peak RSS ${mb(sdk.peakRss)}, heap +${mb(sdk.heapGrowth)}`,
        baseline: `${rate(raw).toFixed(0)} invoices/s, ${cpuPer(raw)} CPU each; peak RSS ${mb(raw.peakRss)}, heap +${mb(raw.heapGrowth)} (bare fetch loop)`,
        ratio: `${fmtRatio(sdk.ms / raw.ms)} the time`,
        raw: { level, sdk, raw },
      });
    }
  } finally {
    server.disconnect();
  }
  report('Bulk filing', rows, {
    notes: [
      'Each invoice is four requests (create, validate, sign, submit) to the loopback sandbox in another process; ' +
        'fileMany also checks each invoice locally, derives its idempotency key, reconciles the totals and validates every response.',
    ],
  });
}
