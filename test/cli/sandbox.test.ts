/**
 * `invoicing sandbox`, for real: the built bin in a child process serving a loopback port, called
 * over a real socket (and by `invoicing file` in another process), then stopped with SIGINT.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { binEnv, runBin, tempFiles, useBin } from './helpers.js';

let bin: string;
const cleanups = useBin((built) => (bin = built));

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `invoicing sandbox` and resolves once it has printed its credentials. */
async function start(args: string[] = []): Promise<Started & { printed: Record<string, string> }> {
  const child = spawn(process.execPath, [bin, 'sandbox', ...args], { env: binEnv() });
  const output = { stdout: '', stderr: '' };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  child.stderr.on('data', (c: Buffer) => (output.stderr += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output.stdout += c.toString();
      if (output.stdout.includes('Ctrl-C to stop')) resolve();
    });
    void exited.then(({ code }) => reject(new Error(`exited ${code}: ${output.stderr}`)));
  });
  const printed: Record<string, string> = {};
  for (const m of output.stdout.matchAll(/export (INVOICING_\w+)=(\S+)/g)) printed[m[1] as string] = m[2] as string;
  const business = /business id: (\S+)/.exec(output.stdout)?.[1];
  if (business !== undefined) printed.businessId = business;
  return { child, output, exited, printed };
}

const invoice = (businessId: string) => ({
  businessId,
  buyer: { type: 'B2B', tin: '20456789-0001', name: 'Buyer Ltd' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Consulting', quantity: 2, unitPrice: 150.25, taxRate: 7.5, isicCode: '6201' }],
});

describe('cli/sandbox (invoicing sandbox)', () => {
  it('serves the sandbox on a loopback port until SIGINT, then exits 0', async () => {
    const { child, output, exited, printed } = await start();
    const baseUrl = printed.INVOICING_BASE_URL ?? '';
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output.stdout).toMatch(/throwaway credentials/);

    const res = await fetch(`${baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': printed.INVOICING_API_KEY ?? '' } });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
    const keys = await fetch(`${baseUrl}/api/v1/api-key`, { headers: { authorization: `Bearer ${printed.INVOICING_SESSION_TOKEN}` } });
    expect(keys.status).toBe(200);
    const refused = await fetch(`${baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': 'not-the-key' } });
    expect(refused.status).toBe(401);

    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output.stdout).toMatch(/Stopped\. 3 requests served\./);
    expect(output.stderr).toBe('');
    await expect(fetch(`${baseUrl}/api/v1/invoices`)).rejects.toThrow();
  });

  it('files an invoice from another process with the credentials it printed', async () => {
    const { child, exited, printed } = await start();
    const files = tempFiles({ 'invoice.json': JSON.stringify(invoice(printed.businessId ?? '')) });
    cleanups.push(files.cleanup);
    const filed = await runBin(bin, ['file', 'invoice.json', '--format', 'json'], {
      cwd: files.dir,
      env: { INVOICING_BASE_URL: printed.INVOICING_BASE_URL, INVOICING_API_KEY: printed.INVOICING_API_KEY },
    });
    expect(filed.stderr).toBe('');
    expect(filed.code).toBe(0);
    expect(filed.stdout).toContain('"ok": true');
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  });

  it('listens on the --port given, and says so when that port is taken (exit 2)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const busy = await runBin(bin, ['sandbox', '--port', String(taken)], { cwd: process.cwd() });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(new RegExp(`port ${taken} cannot be used \\(EADDRINUSE\\); choose another with --port`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    // The port is free again: the sandbox takes it.
    const { child, exited, printed } = await start(['--port', String(taken)]);
    expect(printed.INVOICING_BASE_URL).toBe(`http://127.0.0.1:${taken}`);
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  });

  it('explains itself with --help, credentials included, without starting', async () => {
    const r = await runBin(bin, ['sandbox', '--help'], { cwd: process.cwd() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: invoicing sandbox \[--port N\]/);
    expect(r.stdout).toMatch(/throwaway identities: they work only against this\s+sandbox/);
  });

  it('refuses a port that is not a number, with a pointer to --help (exit 2)', async () => {
    for (const port of ['abc', '70000', '1.5']) {
      const r = await runBin(bin, ['sandbox', '--port', port], { cwd: process.cwd() });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/invoicing sandbox: --port takes/);
      expect(r.stderr).toMatch(/invoicing sandbox --help/);
    }
  });
});
