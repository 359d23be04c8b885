import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/file.js';
import type { CliContext } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/context.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { tempFiles } from './helpers.js';

function invoice(businessId: string, n: number) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: `Buyer ${n}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description: `Consulting #${n}`, quantity: 2, unitPrice: 150, taxRate: 7.5, isicCode: '6201' }],
  };
}

function context(sandbox: Sandbox, cwd: string, argv: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    argv,
    cwd,
    env: { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey, ...env },
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readStdin: async () => '',
  };
  return { ctx, out: () => stdout, err: () => stderr };
}

describe('cli/file (invoicing file)', () => {
  let sandbox: Sandbox;
  let files: { dir: string; cleanup(): void };

  beforeEach(async () => {
    // The tax authority answers 50 ms after a submit, so --wait takes no noticeable time.
    sandbox = await createSandbox({ responseDelayMs: 50 });
  });
  afterEach(async () => {
    files?.cleanup();
    await sandbox.close();
  });

  it('files every invoice of every file once, and a re-run files nothing twice', async () => {
    const b = sandbox.businessId;
    files = tempFiles({
      'a.json': JSON.stringify(invoice(b, 1)),
      'batch/b.json': JSON.stringify([invoice(b, 2), invoice(b, 3)]),
      'batch/c.ndjson': `${JSON.stringify(invoice(b, 4))}\n${JSON.stringify(invoice(b, 5))}\n`,
    });

    const first = context(sandbox, files.dir, ['a.json', 'batch']);
    expect(await run(first.ctx)).toBe(0);
    expect(first.out()).toMatch(/Filed 5 of 5 invoices/);
    expect(sandbox.invoices.count).toBe(5);

    const again = context(sandbox, files.dir, ['a.json', 'batch']);
    expect(await run(again.ctx)).toBe(0);
    expect(sandbox.invoices.count).toBe(5);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
  });

  it('exits 1 and names the invoice when one fails its checks, filing the others', async () => {
    const bad = { ...invoice(sandbox.businessId, 2), lines: [] };
    files = tempFiles({ 'mixed.json': JSON.stringify([invoice(sandbox.businessId, 1), bad, invoice(sandbox.businessId, 3)]) });

    const { ctx, out } = context(sandbox, files.dir, ['mixed.json']);

    expect(await run(ctx)).toBe(1);
    expect(out()).toMatch(/mixed\.json\[1\]/);
    expect(out()).toMatch(/Filed 2 of 3 invoices; 1 did not go through/);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('writes one JSON record per invoice with --format json', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const { ctx, out } = context(sandbox, files.dir, ['one.json', '--format', 'json', '--wait', '--wait-timeout', '30']);

    expect(await run(ctx)).toBe(0);
    const report = JSON.parse(out()) as { results: Record<string, unknown>[]; summary: Record<string, number> };
    expect(report.summary).toMatchObject({ invoices: 1, filed: 1, stopped: 0 });
    expect(report.results[0]).toMatchObject({ source: 'one.json', ok: true, rawStatus: 'Accepted' });
  });

  it('derives keys from file and position with --ref path', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const { ctx } = context(sandbox, files.dir, ['one.json', '--ref', 'path']);
    expect(await run(ctx)).toBe(0);

    // The same content under another name is another document.
    files.cleanup();
    files = tempFiles({ 'two.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const second = context(sandbox, files.dir, ['two.json', '--ref', 'path']);
    expect(await run(second.ctx)).toBe(0);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('gives a file the same --ref path key from any directory (git root, else absolute path)', async () => {
    files = tempFiles({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/invoices/a.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const repo = join(files.dir, 'repo');
    const runs = [
      context(sandbox, repo, ['invoices/a.json', '--ref', 'path', '--format', 'json']),
      context(sandbox, join(repo, 'invoices'), ['a.json', '--ref', 'path', '--format', 'json']),
      context(sandbox, '/', [join(repo, 'invoices', 'a.json'), '--ref', 'path', '--format', 'json']),
    ];
    const ids = [];
    for (const r of runs) {
      expect(await run(r.ctx)).toBe(0);
      ids.push((JSON.parse(r.out()) as { results: { invoiceId: string }[] }).results[0]?.invoiceId);
    }
    expect(new Set(ids).size).toBe(1);
    expect(sandbox.invoices.count).toBe(1);

    // Outside a repository: the absolute path, also the same from anywhere.
    files.cleanup();
    files = tempFiles({ 'b.json': JSON.stringify(invoice(sandbox.businessId, 2)) });
    expect(await run(context(sandbox, files.dir, ['b.json', '--ref', 'path']).ctx)).toBe(0);
    expect(await run(context(sandbox, '/', [join(files.dir, 'b.json'), '--ref', 'path']).ctx)).toBe(0);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('refuses without configuration, or with a path that is not there, before any request', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });

    await expect(run(context(sandbox, files.dir, ['one.json'], { INVOICING_API_KEY: undefined }).ctx)).rejects.toThrow(UsageError);
    await expect(run(context(sandbox, files.dir, ['one.json', '--concurrency', '0']).ctx)).rejects.toThrow(/--concurrency takes a whole number >= 1/);
    const missing = context(sandbox, files.dir, ['one.json', 'nope.json']);
    expect(await run(missing.ctx)).toBe(2);
    expect(missing.err()).toMatch(/cannot read nope\.json/);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('cli/file through the built bin', () => {
  it('is listed by invoicing --help and files through the real entry point', async () => {
    const { buildBin, runBin } = await import('./helpers.js');
    const sandbox = await createSandbox();
    const { bin, cleanup } = await buildBin();
    const files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    try {
      const help = await runBin(bin, ['--help'], { cwd: files.dir });
      expect(help.stdout).toMatch(/^\s+file\s+File invoice files/m);

      const env = { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey };
      const filed = await runBin(bin, ['file', 'one.json'], { cwd: files.dir, env });
      expect(filed).toMatchObject({ code: 0, stderr: '' });
      expect(filed.stdout).toMatch(/Filed 1 of 1 invoice/);
      expect(sandbox.invoices.count).toBe(1);

      const unset = await runBin(bin, ['file', 'one.json'], { cwd: files.dir, env: { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: undefined } });
      expect(unset.code).toBe(2);
      expect(unset.stderr).toMatch(/INVOICING_API_KEY is not set/);
    } finally {
      files.cleanup();
      cleanup();
      await sandbox.close();
    }
  });
});
