#!/usr/bin/env node
/**
 * Per call and per record, side by side, in one warm process against the loopback server
 * (bench/lib/server.mjs):
 *
 * - per call: GET one invoice (invoicing-sdk validates the record; openai and stripe parse it),
 *   against raw `fetch` + `JSON.parse`, and ky alone (what the SDK's transport is built on);
 * - per record: a list page of 100 invoices through `client.invoices.list({ limit: 100 })`, whose
 *   every record is validated, against raw `fetch` + `JSON.parse` of the same page: the difference
 *   divided by 100 is the SDK's cost per record (envelope, validation and field reading, and the
 *   transport's per-byte work); then the validator alone (`readInvoiceRecord`) on the same records.
 *
 * After a warm-up, blocks of calls are interleaved (fetch, invoicing-sdk, openai, stripe, …) so a
 * disturbance hits every client alike; each figure is the median of the blocks' per-call means.
 *
 *   npm run build && node bench/per-call.mjs [--quick]
 *
 * Goals (issue 25): per call at most 100 µs over raw fetch + JSON.parse and below openai;
 * at most 5 µs per record through `list()`.
 */
import { INVOICE_ID, KINDS, makeClient } from './lib/clients.mjs';
import { fmtUs, median, quick, report, requireBuild } from './lib/common.mjs';
import { invoiceRecord, PAGE_SIZE, startServer } from './lib/server.mjs';

const WARMUP = quick ? 100 : 400;
const ROUNDS = quick ? 10 : 40;
const BLOCK = 25;
const LIST_BLOCK = 5;

/**
 * Median over rounds of the mean ms per call of `fn`, interleaved across `fns`; `cpu` holds the
 * same for this process's CPU time (user + system), which moves less than wall time on a shared
 * machine (the loopback server runs in another process, so it is the client's own work).
 */
async function interleaved(fns, rounds, block) {
  const names = Object.keys(fns);
  const means = Object.fromEntries(names.map((name) => [name, []]));
  const cpuMeans = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let call = 0; call < block; call++) await fns[name]();
      means[name].push((performance.now() - t0) / block);
      const c = process.cpuUsage(c0);
      cpuMeans[name].push((c.user + c.system) / 1000 / block);
    }
  }
  const out = Object.fromEntries(names.map((name) => [name, median(means[name])]));
  Object.defineProperty(out, 'cpu', { value: Object.fromEntries(names.map((name) => [name, median(cpuMeans[name])])) });
  return out;
}

requireBuild();
const server = await startServer();
try {
  const clients = Object.fromEntries(await Promise.all(KINDS.map(async (kind) => [kind, await makeClient(kind, server.origin)])));
  // ky alone, as the SDK's transport is built on it: its defaults (a 10 s timeout per attempt), no retries.
  const { default: ky } = await import('ky');
  const kyUrl = `${server.origin}/raw/invoices/${INVOICE_ID}`;
  clients.ky = { get: async () => JSON.parse(await ky.get(kyUrl, { retry: 0 }).text()) };
  const kinds = [...KINDS, 'ky'];
  for (const kind of kinds) for (let i = 0; i < WARMUP; i++) await clients[kind].get();
  const get = await interleaved(Object.fromEntries(kinds.map((kind) => [kind, clients[kind].get])), ROUNDS, BLOCK);

  const listers = { fetch: clients.fetch.list, 'invoicing-sdk': clients['invoicing-sdk'].list };
  for (const lister of Object.values(listers)) for (let i = 0; i < WARMUP / 10; i++) await lister();
  const list = await interleaved(listers, ROUNDS, LIST_BLOCK);
  const perRecord = (list['invoicing-sdk'] - list.fetch) / PAGE_SIZE;

  // The validator alone, no transport: the exported zod reader over the same records, parsed from
  // the same JSON (so objects have JSON.parse's shapes).
  const { readInvoiceRecord } = await import('invoicing-sdk');
  const page = JSON.parse(JSON.stringify(Array.from({ length: PAGE_SIZE }, (_, i) => invoiceRecord(i))));
  const readPage = () => {
    for (const record of page) if (!readInvoiceRecord(record, { observedAt: '2026-11-01T09:05:01.000Z' }).ok) throw new Error('unreadable');
  };
  for (let i = 0; i < WARMUP; i++) readPage();
  const reads = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < BLOCK; i++) readPage();
    reads.push((performance.now() - t0) / BLOCK / PAGE_SIZE);
  }
  const validator = median(reads);

  const sign = (d) => `${d >= 0 ? '+' : '−'}${fmtUs(Math.abs(d))}`;
  const plus = (kind) => `${fmtUs(get[kind])} (${sign(get[kind] - get.fetch)}; CPU ${kind === 'fetch' ? fmtUs(get.cpu.fetch) : sign(get.cpu[kind] - get.cpu.fetch)})`;
  const cpuPerRecord = (list.cpu['invoicing-sdk'] - list.cpu.fetch) / PAGE_SIZE;
  const over = get['invoicing-sdk'] - get.fetch;
  report('per call', [
    {
      measure: `per call: warm GET of one invoice, median of ${ROUNDS} blocks of ${BLOCK}`,
      fetch: `${fmtUs(get.fetch)} (CPU ${fmtUs(get.cpu.fetch)})`,
      sdk: plus('invoicing-sdk'),
      openai: plus('openai'),
      stripe: plus('stripe'),
      goal: '≤ +100 µs over raw fetch + JSON.parse, below openai',
      met: over * 1000 <= 100 && get['invoicing-sdk'] < get.openai,
    },
    {
      measure: `per call: ky alone (\`ky.get(url).text()\` + JSON.parse, ky's default timeout, no retries), in the same blocks`,
      fetch: '',
      sdk: `ky ${plus('ky')}; invoicing-sdk ${sign(get['invoicing-sdk'] - get.ky)} over ky (CPU ${sign(get.cpu['invoicing-sdk'] - get.cpu.ky)})`,
    },
    {
      measure: `response validation per invoice record, list pages of ${PAGE_SIZE} (page: SDK minus raw fetch + JSON.parse, ÷ ${PAGE_SIZE})`,
      fetch: `${fmtUs(list.fetch)} a page`,
      sdk: `${(perRecord * 1000).toFixed(2)} µs a record (${fmtUs(list['invoicing-sdk'])} a page; CPU ${(cpuPerRecord * 1000).toFixed(2)} µs a record)`,
      goal: '≤ 5 µs a record',
      met: perRecord * 1000 <= 5,
    },
    {
      measure: `the reader alone: readInvoiceRecord (field aliases; the zod schema runs only to explain a failure) on a page of ${PAGE_SIZE} parsed records, median of ${ROUNDS} blocks`,
      sdk: `${(validator * 1000).toFixed(2)} µs a record`,
      goal: '≤ 5 µs a record',
      met: validator * 1000 <= 5,
    },
  ]);
} finally {
  server.stop();
}
