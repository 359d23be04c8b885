/**
 * Ctrl-C during `invoicing file`, for real: the built bin in a child process against a loopback
 * sandbox, sent SIGINT while invoices are in flight.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { binEnv, runBin, tempFiles, useBin } from './helpers.js';

function invoice(businessId: string, n: number) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: `Buyer ${n}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description: `Consulting #${n}`, quantity: 2, unitPrice: 150, taxRate: 7.5, isicCode: '6201' }],
  };
}

let bin: string;
const cleanups = useBin((built) => (bin = built));

/**
 * Runs the bin and sends SIGINT once `when()` holds (polled), then again once `twice(stderr)` holds
 * (after the first was seen: two signals sent at once may arrive as one).
 */
function runAndInterrupt(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; when: () => boolean; twice?: (stderr: string) => boolean },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: opts.cwd, env: binEnv(opts.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let sent = 0;
    const poll = setInterval(() => {
      if (sent === 0 && opts.when()) {
        sent = 1;
        child.kill('SIGINT');
      } else if (sent === 1 && opts.twice?.(stderr)) {
        sent = 2;
        child.kill('SIGINT');
      }
    }, 5);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end();
  });
}

describe('cli/file Ctrl-C (SIGINT)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('starts nothing new, lets the invoices in flight settle, prints the summary and the resume command, exits 130; the rerun files the rest once', async () => {
    const b = sandbox.businessId;
    const files = tempFiles({ 'batch.ndjson': Array.from({ length: 12 }, (_, i) => JSON.stringify(invoice(b, i))).join('\n') });
    cleanups.push(files.cleanup);
    const env = { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey };
    // Each submit answers after 600 ms: Ctrl-C lands while two invoices are mid-filing.
    const slow = sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'delay', ms: 600, times: Infinity });
    const creates = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/invoices')).length;

    const args = ['file', 'batch.ndjson', '--concurrency', '2'];
    const r = await runAndInterrupt(args, { cwd: files.dir, env, when: () => creates() >= 2 });
    slow.remove();

    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Interrupted: no new invoice is started; waiting for the 2 invoices in flight to settle.');
    // The two in flight were let finish: created, validated, signed and submitted, nothing half-done.
    const created = sandbox.invoices.list();
    expect(created).toHaveLength(2);
    expect(created.every((inv) => inv.submissions === 1 && inv.status !== 'DRAFT')).toBe(true);
    // Every invoice reported: 2 filed, 10 not started, in the table (stdout is a pipe).
    expect(r.stdout.match(/^filed\s+\S+\s+\S+\s+batch\.ndjson line \d+$/gm)).toHaveLength(2);
    expect(r.stdout.match(/^not started\s+-\s+-\s+batch\.ndjson line \d+$/gm)).toHaveLength(10);
    expect(r.stdout).toMatch(/^Filed 2 of 12 invoices; 10 not started \([\d.]+ s\)\.$/m);
    expect(r.stdout).toContain('Interrupted (Ctrl-C): 10 invoices not started.');
    // Runnable as printed from a local install: npx finds the project's bin.
    expect(r.stdout).toContain('\n  npx invoicing file batch.ndjson --concurrency 2\n');
    expect(r.stdout).toContain(`(in ${files.dir})`);
    // Nothing was sent for the invoices not started.
    expect(creates()).toBe(2);

    const again = await runBin(bin, args, { cwd: files.dir, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Filed 12 of 12 invoices/m);
    expect(sandbox.invoices.count).toBe(12);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
  }, 30_000);

  it('aborts the invoices in flight on a second Ctrl-C, says which to run again, exits 130', async () => {
    const b = sandbox.businessId;
    const files = tempFiles({ 'batch.json': JSON.stringify(Array.from({ length: 6 }, (_, i) => invoice(b, 100 + i))) });
    cleanups.push(files.cleanup);
    const env = { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey };
    const before = sandbox.invoices.count;
    const stalled = sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'delay', ms: 20_000, times: Infinity });
    const submits = () => sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/submit')).length;
    const base = submits();

    const args = ['file', 'batch.json', '--concurrency', '2', '--format', 'json'];
    const started = Date.now();
    const r = await runAndInterrupt(args, { cwd: files.dir, env, when: () => submits() >= base + 2, twice: (err) => err.includes('Interrupted: no new invoice') });
    stalled.remove();

    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(15_000);
    const doc = JSON.parse(r.stdout) as {
      results: { ok: boolean; notStarted?: boolean; error?: { step?: string; hint?: string } }[];
      summary: { interrupted: boolean; notStarted: number; filed: number };
      resume: { command: string; cwd: string };
    };
    expect(doc.summary).toMatchObject({ interrupted: true, notStarted: 4, filed: 0 });
    const aborted = doc.results.filter((x) => x.notStarted !== true);
    expect(aborted).toHaveLength(2);
    expect(aborted.every((x) => x.error?.step === 'submit' && /Run the same command again/.test(x.error.hint ?? ''))).toBe(true);
    expect(doc.resume).toEqual({ command: 'npx invoicing file batch.json --concurrency 2 --format json', cwd: files.dir, stdin: false });
    expect(sandbox.invoices.count).toBe(before + 2);

    const again = await runBin(bin, args, { cwd: files.dir, env });
    expect(again.code).toBe(0);
    expect(sandbox.invoices.count).toBe(before + 6);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
  }, 40_000);
});
