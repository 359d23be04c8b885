/**
 * What the CLI reads and prints from outside, through the built bin against a loopback sandbox:
 * the service's text is printed with control characters escaped, input files are UTF-8 only and
 * size-checked before they are read.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { runBin, tempFiles, useBin } from './helpers.js';

function invoice(businessId: string, n: number, description = `Consulting #${n}`) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: `Buyer ${n}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description, quantity: 2, unitPrice: 150, taxRate: 7.5, isicCode: '6201' }],
  };
}

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let bin: string;
let sandbox: Sandbox;
let env: Record<string, string>;
const cleanups = useBin((built) => (bin = built));

beforeAll(async () => {
  sandbox = await createSandbox();
  env = { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey };
});
afterAll(() => sandbox.close());

function files(content: Record<string, string>) {
  const t = tempFiles(content);
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('cli (text from outside)', () => {
  it('prints a hostile server message with its escape sequences and bidi overrides made visible', async () => {
    const dir = files({ 'one.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const fake = '\u001b[2K\r\u001b[32m✓ one.json  inv_1  Accepted\u001b[0m\n\u202eFiled 1 of 1';
    const refused = sandbox.faults.inject({
      method: 'POST', path: '/invoices', kind: 'status', status: 400, times: Infinity,
      body: { success: false, message: fake },
    });
    try {
      for (const format of ['text', 'json']) {
        const r = await runBin(bin, ['file', 'one.json', '--format', format], { cwd: dir, env });
        expect(r.code).toBe(1);
        expect(r.stdout).not.toMatch(RAW_CONTROL);
        expect(r.stderr).not.toMatch(RAW_CONTROL);
        if (format === 'text') {
          expect(r.stdout).toContain('\\x1b[2K');
          expect(r.stdout).toContain('\\x1b[32m✓ one.json');
          expect(r.stdout).toContain('\\u202eFiled 1 of 1');
          expect(r.stdout).not.toMatch(/^✓/m);
        } else {
          // Still the service's text (line breaks folded by the SDK) for a program reading the JSON.
          const [result] = (JSON.parse(r.stdout) as { results: { error: { message: string } }[] }).results;
          expect(result?.error.message).toContain('\u001b[32m✓ one.json');
          expect(result?.error.message).toContain('\u202eFiled 1 of 1');
        }
      }
      expect(sandbox.invoices.count).toBe(0);
    } finally {
      refused.remove();
    }
  });

  it('prints control characters from a file (values and names) escaped in check reports', async () => {
    const bad = { ...invoice('biz_1', 1), lines: [{ description: 'x', quantity: 1, unitPrice: 1, taxRate: 7.5, hsnCode: '\u001b[32mOK\u202e' }] };
    const dir = files({ 'bad.json': JSON.stringify(bad) });
    for (const format of ['text', 'github', 'json']) {
      const r = await runBin(bin, ['check', 'bad.json', '--format', format], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      if (format !== 'json') expect(r.stdout).toMatch(/\\(x1b|u001b)\[32mOK\\u202e/);
    }
    const unknown = await runBin(bin, ['\u001b[31mfake'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "\\x1b[31mfake"');
  });
});

describe('cli (input files)', () => {
  it('refuses a Latin-1 file with an encoding error naming it, and files nothing', async () => {
    const dir = files({});
    writeFileSync(join(dir, 'latin1.json'), Buffer.from(JSON.stringify(invoice(sandbox.businessId, 1, 'Caf\u00e9 au lait')), 'latin1'));
    writeFileSync(join(dir, 'good.json'), JSON.stringify(invoice(sandbox.businessId, 2, 'Café au lait')));
    const before = sandbox.requests.length;

    const filed = await runBin(bin, ['file', 'good.json', 'latin1.json'], { cwd: dir, env });
    expect(filed.code).toBe(2);
    expect(filed.stderr).toMatch(/cannot read latin1\.json: not UTF-8 text \(invalid byte 0xe9 at offset \d+\)/);
    expect(sandbox.requests.length).toBe(before);
    expect(sandbox.invoices.count).toBe(0);

    const checked = await runBin(bin, ['check', 'latin1.json', 'good.json'], { cwd: dir });
    expect(checked.code).toBe(2);
    expect(checked.stdout).toMatch(/latin1\.json\n\s+error\s+cannot read the file: not UTF-8 text/);
    // The UTF-8 file is read, accents and all.
    expect((await runBin(bin, ['check', 'good.json'], { cwd: dir })).code).toBe(0);
  });

  it('refuses a file over --max-file-size before reading it, and files nothing', async () => {
    const dir = files({ 'small.json': JSON.stringify(invoice(sandbox.businessId, 1)) });
    const big = JSON.stringify(Array.from({ length: 6000 }, (_, i) => invoice(sandbox.businessId, i, 'x'.repeat(200))));
    writeFileSync(join(dir, 'big.json'), big);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const before = sandbox.requests.length;

    const r = await runBin(bin, ['file', 'small.json', 'big.json', '--max-file-size', '1'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read big\.json: larger than the 1 MiB limit \([\d.]+ MiB\); raise it with --max-file-size/);
    expect(sandbox.requests.length).toBe(before);

    const checked = await runBin(bin, ['check', 'big.json', '--max-file-size', '1', '--format', 'json'], { cwd: dir });
    expect(checked.code).toBe(2);
    expect(JSON.parse(checked.stdout).files[0].readError).toMatch(/^larger than the 1 MiB limit/);
    // Under the default of 10 MiB it is read.
    expect((await runBin(bin, ['check', 'big.json', '--format', 'json', '--hs-codes', 'none'], { cwd: dir })).code).not.toBe(2);
    expect((await runBin(bin, ['check', 'big.json', '--max-file-size', '0'], { cwd: dir })).code).toBe(2);
  });

  it('refuses /dev/zero and other non-regular files at once, without reading them', async () => {
    const dir = files({});
    const started = Date.now();
    const r = await runBin(bin, ['check', '/dev/zero', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).files[0].readError).toBe('a character device, not an invoice file');
    const filed = await runBin(bin, ['file', '/dev/zero'], { cwd: dir, env });
    expect(filed.code).toBe(2);
    expect(filed.stderr).toContain('cannot read /dev/zero: a character device, not an invoice file');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses standard input over the limit, and reads it as UTF-8 strictly', async () => {
    const dir = files({});
    const big = await runBin(bin, ['check', '-', '--max-file-size', '1', '--format', 'json'], { cwd: dir, stdin: ' '.repeat(1024 * 1024 + 10) });
    expect(big.code).toBe(2);
    expect(JSON.parse(big.stdout).files[0].readError).toMatch(/^larger than the 1 MiB limit \(over 1 MiB\)/);
    const latin1 = await runBin(bin, ['check', '-', '--format', 'json'], { cwd: dir, stdin: Buffer.from('{"a":"caf\u00e9"}', 'latin1') });
    expect(latin1.code).toBe(2);
    expect(JSON.parse(latin1.stdout).files[0].readError).toMatch(/^not UTF-8 text \(invalid byte 0xe9 at offset 9\)/);
  });
});
