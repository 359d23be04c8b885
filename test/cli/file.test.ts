import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/file.js';
import type { CliContext } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/context.js';
import type { InvoiceCreateParams } from '../../src/index.js';
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

  it('writes every count with thousands separators ("Filed 1 of 1,002 invoices; 1,001 did not go through")', async () => {
    const b = sandbox.businessId;
    // Invoices that fail their local checks cost no request: the counts pass 1,000 in no time.
    const lines = Array.from({ length: 1001 }, (_, i) => JSON.stringify({ ...invoice(b, i), lines: [] }));
    files = tempFiles({ 'many.ndjson': [JSON.stringify(invoice(b, 0)), ...lines].join('\n') });
    const { ctx, out } = context(sandbox, files.dir, ['many.ndjson', '--quiet']);
    expect(await run(ctx)).toBe(1);
    expect(out()).toMatch(/^Filed 1 of 1,002 invoices; 1,001 did not go through \([\d,]+\.\d s\)\.$/m);
    expect(sandbox.invoices.count).toBe(1);
  });

  it('lists every invoice, past 50, in a table when stdout is not a terminal', async () => {
    const b = sandbox.businessId;
    files = tempFiles({ 'many.json': JSON.stringify([...Array.from({ length: 59 }, (_, i) => invoice(b, i)), { ...invoice(b, 99), lines: [] }]) });
    const { ctx, out } = context(sandbox, files.dir, ['many.json', '--concurrency', '8']);
    expect(await run(ctx)).toBe(1);
    const lines = out().split('\n');
    expect(lines[0]).toMatch(/^RESULT\s+INVOICE\s+STATUS\s+SOURCE$/);
    const rows = lines.slice(1, 61);
    expect(rows.filter((l) => /^filed\s+\S+\s+\S+\s+many\.json\[\d+\]$/.test(l))).toHaveLength(59);
    expect(rows[59]).toMatch(/^stopped\s+-\s+-\s+many\.json\[59\]$/);
    for (let i = 0; i < 60; i++) expect(out()).toContain(`many.json[${i}]`);
    expect(out()).toMatch(/^✗ many\.json\[59\]/m);
    expect(out()).toMatch(/^Filed 59 of 60 invoices; 1 did not go through/m);
  });

  it('prints one line per invoice, past 50, on a terminal, and says what --quiet leaves out', async () => {
    const b = sandbox.businessId;
    files = tempFiles({ 'many.json': JSON.stringify(Array.from({ length: 55 }, (_, i) => invoice(b, i))) });
    const tty = context(sandbox, files.dir, ['many.json', '--concurrency', '8', '--no-color']);
    tty.ctx.stdout.isTTY = true;
    expect(await run(tty.ctx)).toBe(0);
    expect(tty.out()).not.toContain('RESULT');
    expect(tty.out().match(/^✓ many\.json\[\d+\] {2}\S+ {2}\S+$/gm)).toHaveLength(55);

    const quiet = context(sandbox, files.dir, ['many.json', '--quiet']);
    expect(await run(quiet.ctx)).toBe(0);
    expect(quiet.out()).not.toContain('many.json[');
    expect(quiet.out()).toContain('(55 filed invoices not listed: --quiet)');
    expect(sandbox.invoices.count).toBe(55);
  });

  it('exits 1 and names the invoice when one fails its checks, filing the others', async () => {
    const bad = { ...invoice(sandbox.businessId, 2), lines: [] };
    files = tempFiles({ 'mixed.json': JSON.stringify([invoice(sandbox.businessId, 1), bad, invoice(sandbox.businessId, 3)]) });

    const { ctx, out } = context(sandbox, files.dir, ['mixed.json']);

    expect(await run(ctx)).toBe(1);
    expect(out()).toMatch(/mixed\.json\[1\]/);
    expect(out()).toMatch(/Filed 2 of 3 invoices; 1 did not go through/);
    // In CLI terms: what to do with the file, not which option of a library call to pass.
    expect(out()).toContain("Fix mixed.json and run the same command again; nothing was sent. `npx invoicing check mixed.json` lists every problem");
    expect(out()).not.toMatch(/skipChecks|err\.cause|createAndFile/);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('compares the totals a file carries with its lines: files the one that agrees (without them), refuses the one that does not', async () => {
    // 2 × 150 at 7.5 %: 300.00 + 22.50 = 322.50.
    const agrees = { ...invoice(sandbox.businessId, 1), totalAmount: '322.50' };
    const contradicts = { ...invoice(sandbox.businessId, 2), totalAmount: 300 };
    files = tempFiles({ 'totals.json': JSON.stringify([agrees, contradicts]) });

    const { ctx, out } = context(sandbox, files.dir, ['totals.json']);

    expect(await run(ctx)).toBe(1);
    expect(out()).toMatch(/totals\.json\[1\]/);
    expect(out()).toContain('TOTALS_MISMATCH');
    expect(sandbox.invoices.count).toBe(1);
    const [create] = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/invoices'));
    expect(create?.body).not.toHaveProperty('totalAmount');
  });

  it('writes one JSON record per invoice with --format json', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const { ctx, out } = context(sandbox, files.dir, ['one.json', '--format', 'json', '--wait', '--wait-timeout', '30']);

    expect(await run(ctx)).toBe(0);
    const report = JSON.parse(out()) as { results: Record<string, unknown>[]; summary: Record<string, number> };
    expect(report.summary).toMatchObject({ invoices: 1, filed: 1, stopped: 0 });
    expect(report.results[0]).toMatchObject({ source: 'one.json', ok: true, rawStatus: 'Accepted' });
  });

  it('with --wait, exits 1 when an invoice ends rejected, prints its reason, and says ok: false in JSON', async () => {
    sandbox.setScenario((subject) => (subject.buyer.name === 'Buyer 2' ? { name: 'rejected', reason: 'Duplicate invoice number' } : undefined));
    files = tempFiles({ 'pair.json': JSON.stringify([invoice(sandbox.businessId, 1), invoice(sandbox.businessId, 2)]) });

    const text = context(sandbox, files.dir, ['pair.json', '--wait', '--wait-timeout', '30']);
    expect(await run(text.ctx)).toBe(1);
    expect(text.out()).toMatch(/pair\.json\[1\].*rejected: Duplicate invoice number/);
    expect(text.out()).toMatch(/Filed 1 of 2 invoices; 1 did not go through/);

    const json = context(sandbox, files.dir, ['pair.json', '--wait', '--wait-timeout', '30', '--format', 'json']);
    expect(await run(json.ctx)).toBe(1);
    const report = JSON.parse(json.out()) as { results: Record<string, unknown>[]; summary: Record<string, number> };
    expect(report.results[1]).toMatchObject({ ok: false, status: 'REJECTED', failure: { kind: 'rejected', message: 'Duplicate invoice number' } });
    expect(report.summary).toMatchObject({ filed: 1, stopped: 1 });
  });

  it('names the file an identical invoice repeats, and says how to file both on purpose, in CLI terms', async () => {
    const same = JSON.stringify(invoice(sandbox.businessId, 1));
    files = tempFiles({ 'a.json': same, 'b.json': same, 'c.json': JSON.stringify(invoice(sandbox.businessId, 2)) });

    const text = context(sandbox, files.dir, ['a.json', 'b.json', 'c.json']);
    expect(await run(text.ctx)).toBe(1);
    expect(text.out()).toMatch(/✗ b\.json {2}The same invoice as a\.json \(same content\): not filed again\./);
    expect(text.out()).toContain('file them with --ref path');
    expect(text.out()).not.toMatch(/Input \d|externalRef/);
    expect(text.out()).not.toContain('Run the same command again');
    expect(sandbox.invoices.count).toBe(2);

    const json = context(sandbox, files.dir, ['a.json', 'b.json', '--format', 'json']);
    expect(await run(json.ctx)).toBe(1);
    const [, repeat] = (JSON.parse(json.out()) as { results: { source: string; error?: { message: string; hint: string } }[] }).results;
    expect(repeat?.source).toBe('b.json');
    expect(repeat?.error?.message).toBe('The same invoice as a.json (same content): not filed again.');
    expect(repeat?.error?.hint).toMatch(/^With --ref content \(the default\)/);
    expect(sandbox.invoices.count).toBe(2);
  });

  it('says what to do after a stop in CLI terms: run again after a passing fault, not after a refusal', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });

    // No answer to the create: unknown whether it was created; running again is the way.
    const dropped = sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-before', times: Infinity });
    const lost = context(sandbox, files.dir, ['one.json']);
    expect(await run(lost.ctx)).toBe(1);
    expect(lost.out()).toContain('It is not known whether the invoice was created. Run the same command again');
    expect(lost.out()).toContain('Run the same command again to finish what was left');
    expect(lost.out()).not.toMatch(/createAndFile|resumeFiling|waitFor\(/);
    dropped.remove();

    // Refused: the same command would be refused again, so it is not suggested.
    const refused = sandbox.faults.inject({
      method: 'POST', path: '/invoices', kind: 'status', status: 400, times: Infinity,
      body: { success: false, message: 'Line has an invalid or missing classification code' },
    });
    const bad = context(sandbox, files.dir, ['one.json']);
    expect(await run(bad.ctx)).toBe(1);
    expect(bad.out()).toContain('The service refused the invoice; nothing was created');
    expect(bad.out()).not.toMatch(/Run the same command again|createAndFile/);
    refused.remove();

    // Created, then the submit gets no answer: running again reads it and does what is left.
    sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before', times: Infinity });
    const stopped = context(sandbox, files.dir, ['one.json', '--format', 'json']);
    expect(await run(stopped.ctx)).toBe(1);
    const [result] = (JSON.parse(stopped.out()) as { results: { invoiceId: string; error: { step: string; hint: string } }[] }).results;
    expect(result?.error.step).toBe('submit');
    expect(result?.error.hint).toBe(
      `Run the same command again: invoice ${result?.invoiceId} is read, and only the steps it has not passed are performed, so nothing is filed twice.`,
    );
    expect(sandbox.invoices.count).toBe(1);
  });

  it('after a 401 says to set a valid INVOICING_API_KEY first, in CLI terms, then run again', async () => {
    files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const revoked = sandbox.faults.inject({ path: '/invoices/:id/validate', kind: 'status', status: 401, times: Infinity, body: { success: false, message: 'Invalid API key' } });

    const { ctx, out } = context(sandbox, files.dir, ['one.json', '--format', 'json']);
    expect(await run(ctx)).toBe(1);
    const [result] = (JSON.parse(out()) as { results: { invoiceId: string; error: { step: string; hint: string } }[] }).results;
    expect(result?.error.step).toBe('validate');
    expect(result?.error.hint).toBe(
      'The API key was refused: set INVOICING_API_KEY to a valid USER key. Creating a key revokes the existing key of the same ' +
        `type at once, so a key that worked before may have been replaced. Then run the same command again: invoice ${result?.invoiceId} ` +
        'is read, and only the steps it has not passed are performed, so nothing is filed twice.',
    );
    // Running again as things stand meets the 401 again: the text report does not suggest it alone.
    const text = context(sandbox, files.dir, ['one.json']);
    expect(await run(text.ctx)).toBe(1);
    expect(text.out()).toContain('set INVOICING_API_KEY to a valid USER key');
    expect(text.out()).not.toContain('Run the same command again to finish what was left');
    revoked.remove();
    expect(await run(context(sandbox, files.dir, ['one.json']).ctx)).toBe(0);
    expect(sandbox.invoices.count).toBe(1);
  });

  it('files a corrected invoice with --ref path under --revision 1; the hints of the failure and of the key conflict say so', async () => {
    sandbox.setScenario((inv) => (inv.buyer.tin === '20456789-0001' ? { name: 'field-error', field: 'buyer.tin', automaticRetries: false } : 'accepted'));
    files = tempFiles({ 'inv.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    expect(await run(context(sandbox, files.dir, ['inv.json', '--ref', 'path']).ctx)).toBe(0);
    // The authority answers 50 ms after the submit; a day later automatic recovery is over.
    await new Promise((r) => setTimeout(r, 200));
    sandbox.clock.advance(25 * 3_600_000);
    const first = context(sandbox, files.dir, ['inv.json', '--ref', 'path', '--format', 'json']);
    expect(await run(first.ctx)).toBe(1);
    const [failed] = (JSON.parse(first.out()) as { results: { invoiceId: string; failure?: { kind: string; hint: string } }[] }).results;
    expect(failed?.failure?.kind).toBe('field-validation');
    expect(failed?.failure?.hint).toContain('the invoice stays in Error on the service');
    expect(failed?.failure?.hint).toContain('Correct the file, then run the command again with --revision 1');
    expect(failed?.failure?.hint).not.toMatch(/createAndFile|resumeFiling|\(/);

    writeFileSync(join(files.dir, 'inv.json'), JSON.stringify({ ...invoice(sandbox.businessId, 1), buyer: { type: 'B2B', tin: '30111222-0001', name: 'Buyer 1' } }));
    const edited = context(sandbox, files.dir, ['inv.json', '--ref', 'path', '--format', 'json']);
    expect(await run(edited.ctx)).toBe(1);
    const [conflict] = (JSON.parse(edited.out()) as { results: { error: { hint: string } }[] }).results;
    expect(conflict?.error.hint).toContain('run the command with --revision 1');

    const corrected = context(sandbox, files.dir, ['inv.json', '--ref', 'path', '--revision', '1', '--format', 'json']);
    expect(await run(corrected.ctx)).toBe(0);
    const [filed] = (JSON.parse(corrected.out()) as { results: { ok: boolean; invoiceId: string }[] }).results;
    expect(filed?.invoiceId).not.toBe(failed?.invoiceId);
    // The same revision again finds its invoice: nothing filed twice.
    expect(await run(context(sandbox, files.dir, ['inv.json', '--ref', 'path', '--revision', '1']).ctx)).toBe(0);
    expect(sandbox.invoices.count).toBe(2);
    expect(sandbox.invoices.list().find((inv) => inv.id === failed?.invoiceId)?.status).toBe('Error');
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

  it('says how to get a new key, in CLI terms, when the service holds another body under a content key', async () => {
    const input = invoice(sandbox.businessId, 1) as InvoiceCreateParams;
    files = tempFiles({ 'one.json': JSON.stringify(input) });
    // Another program used this invoice's content key with another body.
    const { InvoicingClient, deriveIdempotencyKey } = await import('../../src/index.js');
    const { contentRef } = await import('../../src/filing/file-many.js');
    const client = new InvoicingClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, logLevel: 'off' });
    await client.invoices.create(invoice(sandbox.businessId, 2) as InvoiceCreateParams, { idempotencyKey: deriveIdempotencyKey(sandbox.businessId, contentRef(input)) });

    const { ctx, out } = context(sandbox, files.dir, ['one.json', '--format', 'json']);
    expect(await run(ctx)).toBe(1);
    const [result] = (JSON.parse(out()) as { results: { error: { step: string; hint: string } }[] }).results;
    expect(result?.error.step).toBe('create');
    expect(result?.error.hint).toContain('With --ref content (the default)');
    expect(result?.error.hint).toContain('--ref path');
    expect(result?.error.hint).not.toMatch(/deriveIdempotencyKey|createAndFile/);
    expect(sandbox.invoices.count).toBe(1);
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
  it('says, in CLI terms, that a file filed with --ref path changed, and what to do (409 idempotency conflict)', async () => {
    const { buildBin, runBin } = await import('./helpers.js');
    const sandbox = await createSandbox();
    const { bin, cleanup } = await buildBin();
    const files = tempFiles({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    try {
      const env = { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey };
      expect((await runBin(bin, ['file', 'one.json', '--ref', 'path'], { cwd: files.dir, env })).code).toBe(0);

      // Edited in place: same path and position, so the same key, with another body.
      writeFileSync(join(files.dir, 'one.json'), JSON.stringify(invoice(sandbox.businessId, 2)));
      const edited = await runBin(bin, ['file', 'one.json', '--ref', 'path'], { cwd: files.dir, env });
      expect(edited.code).toBe(1);
      expect(edited.stdout).toMatch(/✗ one\.json .*stopped at create: .*already used with a different request body/);
      // Said once: the error's own message already names the step.
      expect(edited.stdout.match(/stopped at create/g)).toHaveLength(1);
      expect(edited.stdout).toContain('one.json changed since it was first filed: with --ref path the key comes from');
      expect(edited.stdout).toContain('restore the content it had');
      expect(edited.stdout).toContain('a new path is a new key');
      expect(edited.stdout).not.toMatch(/deriveIdempotencyKey|createAndFile/);
      // A re-run would get the same 409: it is not suggested.
      expect(edited.stdout).not.toContain('Run the same command again');

      const json = await runBin(bin, ['file', 'one.json', '--ref', 'path', '--format', 'json'], { cwd: files.dir, env });
      const [result] = (JSON.parse(json.stdout) as { results: { error: { hint: string } }[] }).results;
      expect(result?.error.hint).toMatch(/^one\.json changed since it was first filed/);
      expect(sandbox.invoices.count).toBe(1);
    } finally {
      files.cleanup();
      cleanup();
      await sandbox.close();
    }
  });

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
