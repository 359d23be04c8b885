#!/usr/bin/env node
/**
 * GET overhead: `client.invoices.retrieve(id)` against raw `fetch(url) + response.json()`, both
 * against the same minimal loopback server (node:http in a child process, answering the service's
 * envelope with a stored invoice: not the sandbox, so the figure is the SDK's own cost). Calls are
 * interleaved (fetch, ky, SDK, fetch, ky, SDK, …) so that a disturbance hits every variant alike;
 * each figure is the median of 2,000 calls after a warm-up. `ky` alone is shown for reference.
 *
 *   npm run build && node bench/get-overhead.mjs [--quick]
 *
 * Goal: the SDK's median at most 1.20× raw fetch's.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fmtRatio, fmtUs, median, percentile, quick, report, requireBuild } from './lib/common.mjs';

const INVOICE = {
  id: 'inv_01J9Z8Q4K3',
  businessId: 'biz_123',
  status: 'Submitted',
  buyer: { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd', email: 'ap@acme.example' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [
    { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' },
    { description: 'Laptop', quantity: 1, unitPrice: 1299.99, taxRate: 7.5, hsnCode: '8471.30' },
  ],
  subtotal: '2799.99',
  taxTotal: '210.00',
  total: '3009.99',
  createdAt: '2026-11-01T09:00:00Z',
  updatedAt: '2026-11-01T09:05:00Z',
};

if (process.argv.includes('--serve')) {
  // The child: answers every request with the envelope, as the service would for GET /invoices/:id.
  const body = JSON.stringify({ success: true, data: INVOICE, timestamp: '2026-11-01T09:05:01.000Z' });
  const length = String(Buffer.byteLength(body));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
} else {
  requireBuild();
  const server = fork(new URL(import.meta.url), ['--serve'], { stdio: 'inherit' });
  const port = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`loopback server exited (${code})`)));
  });
  try {
    const rows = await measure(`http://127.0.0.1:${port}`);
    report('GET overhead', rows.rows, { notes: rows.notes });
  } finally {
    server.disconnect();
  }
}

async function measure(origin) {
  const { InvoicingClient } = await import('invoicing-sdk');
  const ky = (await import('ky')).default;
  const API_KEY = 'bench_key_0123456789abcdef';
  const client = new InvoicingClient({ baseUrl: origin, apiKey: API_KEY, logLevel: 'warn' });
  const url = `${origin}/api/v1/invoices/${INVOICE.id}`;
  const headers = { 'x-api-key': API_KEY };
  const variants = {
    fetch: async () => {
      const response = await fetch(url, { headers });
      return response.json();
    },
    ky: () => ky(url, { headers, retry: 0 }).json(),
    sdk: () => client.invoices.retrieve(INVOICE.id),
  };
  // Every variant must read the same invoice, or the comparison means nothing.
  const read = await variants.sdk();
  if (read.id !== INVOICE.id || read.status !== 'SUBMITTED' || read.total !== '3009.99') {
    throw new Error(`retrieve read ${JSON.stringify(read)}`);
  }
  const calls = quick ? 500 : 2000;
  const warmup = quick ? 200 : 500;
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < warmup; i++) for (const name of names) await variants[name]();
  for (let i = 0; i < calls; i++) {
    for (const name of names) {
      const start = performance.now();
      await variants[name]();
      times[name].push(performance.now() - start);
    }
  }
  const base = median(times.fetch);
  const row = (name, label, goal) => {
    const value = median(times[name]);
    const ratio = value / base;
    return {
      measure: label,
      value: `${fmtUs(value)} (p90 ${fmtUs(percentile(times[name], 90))})`,
      baseline: `${fmtUs(base)} raw fetch + json()`,
      ratio: fmtRatio(ratio),
      goal: goal === undefined ? undefined : `≤ ${fmtRatio(goal)}`,
      met: goal === undefined ? undefined : ratio <= goal,
      raw: { median: value, base, ratio },
    };
  };
  return {
    rows: [
      row('sdk', `GET overhead: invoices.retrieve, median of ${calls.toLocaleString('en-US')} calls`, 1.2),
      row('ky', 'reference: ky alone (no validation)'),
    ],
    notes: [`Loopback node:http server in a child process; ${warmup} warm-up rounds, then ${calls} interleaved calls per variant.`],
  };
}
