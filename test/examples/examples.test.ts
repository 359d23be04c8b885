/**
 * Runs every example in examples/ against one loopback sandbox, through scripts/run-examples.mjs
 * (the runner CI uses), each as its own process. The SDK is a fresh esbuild of src/ rather than
 * dist/, so the test never passes against a stale build; `npm run examples` checks dist/ itself.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

interface ExampleResult {
  name: string;
  ok: boolean;
  code: number | null;
  signal: string | null;
  output: string;
}

interface Runner {
  listExamples(): string[];
  buildFromSource(): Promise<string>;
  runExamples(options: { sdkDir?: string; env?: Record<string, string>; write?: (text: string) => void }): Promise<ExampleResult[]>;
}

// A computed specifier: the runner is plain JavaScript, typed by the interface above.
const loadRunner = (): Promise<Runner> => import(pathToFileURL(join(root, 'scripts/run-examples.mjs')).href) as Promise<Runner>;

let runner: Runner;
let sdkDir: string;
let scratch: string;
let results: Map<string, ExampleResult>;

function result(name: string): ExampleResult {
  const r = results.get(name);
  if (r === undefined) throw new Error(`example ${name} did not run`);
  return r;
}

/** Runs one example file directly (no sandbox), with the runner's loader and the fresh build. */
function runExampleFile(name: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(join(root, 'scripts/examples-loader.mjs')).href, join(root, 'examples', `${name}.ts`), ...args],
      { cwd: root, env: { ...process.env, INVOICING_SDK_DIR: sdkDir, GITHUB_ACTIONS: 'true' } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  runner = await loadRunner();
  sdkDir = await runner.buildFromSource();
  scratch = mkdtempSync(join(tmpdir(), 'invoicing-examples-test-'));
  const env = { EXPORT_DIR: join(scratch, 'export'), GITHUB_STEP_SUMMARY: join(scratch, 'step-summary.md') };
  const list = await runner.runExamples({ sdkDir, env, write: () => {} });
  results = new Map(list.map((r) => [r.name, r]));
}, 180_000);

afterAll(() => {
  if (sdkDir !== undefined) rmSync(sdkDir, { recursive: true, force: true });
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('examples', () => {
  it('runs every example in examples/, each exiting 0', () => {
    expect([...results.keys()].sort()).toEqual(runner.listExamples().sort());
    const failed = [...results.values()].filter((r) => !r.ok).map((r) => `${r.name} (${r.signal ?? r.code}):\n${r.output}`);
    expect(failed).toEqual([]);
  });

  it('covers the documented tasks: each task in docs/README.md links a guide that exists and an example that runs', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const tasks = index.slice(index.indexOf('## Tasks'), index.indexOf('## Guides'));
    const rows = tasks.split('\n').filter((line) => /\]\(\.\.\/examples\//.test(line));
    const linked = rows.map((row) => ({
      guide: /\]\(([\w-]+\.md)\)/.exec(row)?.[1],
      example: /\]\(\.\.\/examples\/([\w-]+)\.ts\)/.exec(row)?.[1],
    }));
    expect(linked.map((l) => l.example)).toEqual(['file-one-invoice', 'file-batch-from-ci', 'follow-outcomes', 'test-with-sandbox', 'rotate-api-key', 'behind-a-proxy']);
    for (const { guide, example } of linked) {
      expect(() => readFileSync(join(root, 'docs', guide ?? 'missing'), 'utf8')).not.toThrow();
      expect(runner.listExamples()).toContain(example);
      expect(result(example ?? 'missing').ok).toBe(true);
    }
    expect(runner.listExamples()).toEqual(
      expect.arrayContaining(['quick-start', 'check-invoices-in-ci', 'rotate-api-key', 'export-invoices', 'resume-after-crash', 'bulk-filing']),
    );
  });

  it('file-one-invoice files step by step, then once under one externalRef however often it runs', () => {
    const { output } = result('file-one-invoice');
    expect(output).toMatch(/create {4}inv_\w+ DRAFT \(request id req_\w+\)/);
    expect(output).toContain('validate  VALIDATED');
    expect(output).toContain('sign      SIGNED');
    expect(output).toContain('submit    SUBMITTED');
    expect(output).toMatch(/Invoice inv_\w+: ACCEPTED \(Accepted\)/);
    expect(output).toMatch(/createAndFile INV-2026-0102: inv_\w+ ACCEPTED; check → create → reconcile → validate → sign → submit → wait/);
    expect(output).toContain('validate (skipped) → sign (skipped) → submit (skipped)');
    expect(output).toMatch(/Same invoice both times: inv_\w+\./);
  });

  it('file-batch-from-ci files the sample folder, a re-run files nothing twice, and the job summary lists each invoice', () => {
    const { output } = result('file-batch-from-ci');
    expect(output).toContain('Checked 3 invoice(s): 0 error(s).');
    expect(output).toContain('3 invoice(s) filed; the re-run found the same invoices.');
    const rerun = output.slice(output.indexOf('re-run:'));
    expect(rerun.match(/skipped: check, validate, sign, submit/g)).toHaveLength(3);
    const summary = readFileSync(join(scratch, 'step-summary.md'), 'utf8').trimEnd().split('\n');
    expect(summary[0]).toBe('| document | invoice | status |');
    expect(summary.slice(2)).toEqual([
      expect.stringMatching(/^\| order-1001 \| inv_\w+ \| ACCEPTED \|$/),
      expect.stringMatching(/^\| order-1002#0 \| inv_\w+ \| ACCEPTED \|$/),
      expect.stringMatching(/^\| order-1002#1 \| inv_\w+ \| ACCEPTED \|$/),
    ]);
  });

  it('file-batch-from-ci files nothing when one invoice of the batch has an error', async () => {
    const dir = join(scratch, 'bad-batch');
    const good = JSON.parse(readFileSync(join(root, 'examples/invoices/order-1001.json'), 'utf8')) as Record<string, unknown>;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.json'), JSON.stringify(good));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...good, lines: [] }));
    // No INVOICING_BASE_URL: reaching the client would fail differently.
    const { code, output } = await runExampleFile('file-batch-from-ci', [dir]);
    expect(code).toBe(1);
    expect(output).toMatch(/^b {2}lines {2}\w+: /m);
    expect(output).toMatch(/Checked 2 invoice\(s\): [1-9]\d* error\(s\)\.\nNothing was filed\./);
  });

  it('follow-outcomes watches a batch to the end, waits through recovery without submitting, and honours finalStatuses', () => {
    const { output } = result('follow-outcomes');
    expect(output).toMatch(/4 of 4 settled, in \d+ requests\./);
    expect(output.match(/→ ACCEPTED \(settled\)/g)).toHaveLength(4);
    expect(output).toMatch(/ERROR: Access points are offline \(recovery in-progress\)/);
    expect(output).toMatch(/submit refused locally: RecoveryInProgressError, \d automatic attempt\(s\) left, next due \d{4}-\d\d-\d\dT/);
    expect(output).toContain("ACCEPTED after the service's own retry; submits sent by the SDK: 1");
    expect(output).toContain('WaitTimeoutError after a minute at UNKNOWN');
    expect(output).toMatch(/ REJECTED: failure rejected: Duplicate invoice number/);
    expect(output).toContain("with finalStatuses + 'Archived': returned UNKNOWN (raw 'Archived'), failure not-accepted");
  });

  it('test-with-sandbox passes its node:test suite', () => {
    const { output } = result('test-with-sandbox');
    expect(output).toMatch(/^# pass 5$/m);
    expect(output).toMatch(/^# fail 0$/m);
  });

  it('behind-a-proxy sends every request through the proxy, with the default header and without the proxy credentials', () => {
    const { output } = result('behind-a-proxy');
    const forwarded = Number(/The proxy forwarded (\d+) request/.exec(output)?.[1]);
    expect(forwarded).toBeGreaterThanOrEqual(5);
    expect(output).toContain(`Answers seen by hooks.afterResponse: ${forwarded}; refused by the proxy: 0.`);
    const headers = /Headers the service received: (.*)/.exec(output)?.[1]?.split(', ');
    expect(headers).toEqual(expect.arrayContaining(['x-api-key', 'x-client-name']));
    expect(headers).not.toContain('proxy-authorization');
    expect(output).toContain('Without proxy credentials: APIError, status 407');
    expect(output).toContain('Every request went through the proxy.');
  });

  it('quick-start files the invoice and reaches the tax authority’s answer', () => {
    const { output } = result('quick-start');
    expect(output).toMatch(/Invoice inv_\w+: Accepted/);
    expect(output).toContain('check → create → reconcile → validate → sign → submit → wait');
  });

  it('check-invoices-in-ci passes the sample folder', () => {
    expect(result('check-invoices-in-ci').output).toContain('3 invoice(s) checked: 0 error(s), 0 warning(s).');
  });

  it('check-invoices-in-ci exits 1 and annotates for GitHub when an invoice has errors', async () => {
    const dir = join(scratch, 'bad-invoices');
    const good = JSON.parse(readFileSync(join(root, 'examples/invoices/order-1001.json'), 'utf8')) as Record<string, unknown>;
    const padded = { ...good, lines: [{ description: 'Consulting', quantity: 1, unitPrice: 100, taxRate: 7.5, hsnCode: '6202.00' }] };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'good.json'), JSON.stringify(good));
    writeFileSync(join(dir, 'padded.json'), JSON.stringify(padded));
    const { code, output } = await runExampleFile('check-invoices-in-ci', [dir]);
    expect(code).toBe(1);
    expect(output).toMatch(/padded\.json {2}error {4}lines\[0\]\.hsnCode/);
    expect(output).toMatch(/^::error file=.*padded\.json,title=\w+::/m);
    expect(output).toMatch(/2 invoice\(s\) checked: [1-9]\d* error\(s\)/);
  });

  it('bulk-filing files one invoice per order', () => {
    expect(result('bulk-filing').output).toContain('25 orders in');
    expect(result('bulk-filing').output).toContain('25 distinct invoices');
  });

  it('resume-after-crash finishes the crashed invoice without repeating a step', () => {
    const { output } = result('resume-after-crash');
    expect(output).toContain('[attempt 1] killed (SIGKILL)');
    const ids = new Set(output.match(/inv_\w+/g));
    expect(ids.size).toBe(1);
    expect(output).toContain('[attempt 2] validate skipped');
    expect(output).toContain('[attempt 2] sign skipped');
    expect(output).toContain('[attempt 2] submit done');
  });

  it('export-invoices writes every invoice the earlier examples filed, as CSV and NDJSON', () => {
    const count = Number(/Exported (\d+) invoice/.exec(result('export-invoices').output)?.[1]);
    // quick-start 1, bulk-filing 25, resume-after-crash 1.
    expect(count).toBe(27);
    const csv = readFileSync(join(scratch, 'export/invoices.csv'), 'utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe('id,status,subtotal,taxTotal,total,updatedAt,errorMessage');
    expect(csv).toHaveLength(count + 1);
    const records = readFileSync(join(scratch, 'export/invoices.ndjson'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { id?: string });
    expect(new Set(records.map((r) => r.id)).size).toBe(count);
  });

  it('edge-status files and reads through the client, and refuses a bad invoice before sending', () => {
    const { output } = result('edge-status');
    expect(output).toMatch(/POST \/file → 201: invoice inv_\w+ SUBMITTED/);
    expect(output).toMatch(/GET \/status → 200: \{"id":"inv_\w+","status":"SUBMITTED"/);
    expect(output).toContain('POST /file (no code) → 422: Invoice failed the local checks (1 error); nothing was sent.');
    expect(output).toContain('GET /status (unknown id) → 404');
  });

  it('rotate-api-key replaces the key and sees the old one refused', () => {
    const { output } = result('rotate-api-key');
    expect(output).toContain('New key: accepted.');
    expect(output).toContain('Old key: refused with 401');
  });

  it('never prints a secret', () => {
    const all = [...results.values()].map((r) => r.output).join('\n');
    expect(all).not.toMatch(/sk_live_\w+/);
    expect(all).not.toMatch(/sess_\w+/);
  });
});
