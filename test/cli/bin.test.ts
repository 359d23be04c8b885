import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliHint } from '../../src/cli/context.js';
import { createSandbox } from '../../src/testing/index.js';
import { runBin, tempFiles, useBin } from './helpers.js';

const good = {
  businessId: 'biz_1',
  buyer: { type: 'B2B', tin: '12345678-0001' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Laptop', quantity: 2, unitPrice: 999.99, taxRate: 7.5, hsnCode: '8471.30' }],
};
// A date-time without an offset: a warning (a B2B buyer without tin is an error since it files a placeholder).
const warnOnly = { ...good, dueDate: '2026-12-31T00:00:00' };
const bad = {
  ...good,
  lines: [{ description: 'Consulting', quantity: 2, unitPrice: 150, taxRate: 7.5, hsnCode: '6202.00' }],
};

const files = {
  'clean/good.json': JSON.stringify(good, null, 2),
  'warn/warn.json': JSON.stringify(warnOnly, null, 2),
  'bad/array.json': JSON.stringify([good, bad], null, 2),
  'broken/broken.json': '{\n  "businessId": "b",\n  "buyer": }\n',
  'nd/batch.ndjson': `${JSON.stringify(good)}\n{"businessId": \n${JSON.stringify(bad)}\n`,
  'hs/unknown.json': JSON.stringify({ ...good, lines: [{ ...good.lines[0], hsnCode: '9999.99' }] }),
  // 2 × 999.99 at 7.5 %: 1999.98 + 150.00 = 2149.98.
  'totals/wrong.json': JSON.stringify({ ...good, totalAmount: '2000.00' }),
  'totals/right.json': JSON.stringify({ ...good, totalAmount: '2149.98' }),
  'tree/a/one.json': JSON.stringify(good),
  'tree/b/deeper/two.json': JSON.stringify(good),
  'tree/node_modules/skip.json': '{ broken',
  'tree/notes.txt': 'not an invoice',
};

let bin: string;
let dir: string;
const cleanups = useBin((built) => (bin = built));
const run = (args: string[], opts: { stdin?: string; env?: Record<string, string | undefined> } = {}) =>
  runBin(bin, args, { cwd: dir, ...opts });

beforeAll(() => {
  const tmp = tempFiles(files);
  dir = tmp.dir;
  cleanups.push(tmp.cleanup);
});

describe('cli/bin (invoicing)', () => {
  it('prints the command list on stdout and exits 0 with --help, -h and help', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const help = await run([flag]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/check\s+Check invoice files/);
      expect(help.stdout).toMatch(/sandbox\s+Serve the sandbox on 127.0.0.1 until Ctrl-C/);
      expect(help.stderr).toBe('');
    }
  });

  it('treats no command as a usage error: the command list on stderr, nothing on stdout, exit 2', async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^invoicing: no command given\./);
    expect(none.stderr).toMatch(/check\s+Check invoice files/);
  });

  it('reports an unknown or empty command on stderr with a pointer to --help, exit 2', async () => {
    for (const name of ['chek', '']) {
      const unknown = await run([name]);
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain(`unknown command "${name}"`);
      expect(unknown.stderr).toContain('Run `invoicing --help` for usage.');
    }
  });

  it('prints the check options with check --help', async () => {
    const r = await run(['check', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--max-warnings');
    expect(r.stdout).toContain('Exit codes');
  });
});

describe('cli/check (invoicing check)', () => {
  it('exits 0 with a summary line for clean invoices', async () => {
    const r = await run(['check', 'clean/good.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✔ 1 invoice in 1 file: no errors/);
  });

  it('exits 1 and groups problems by file and invoice, with positions, codes and hints', async () => {
    const r = await run(['check', 'bad/array.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bad/array.json');
    expect(r.stdout).toContain('invoice [1]');
    expect(r.stdout).not.toContain('invoice [0]');
    expect(r.stdout).toMatch(/\d+:\d+\s+error\s+HSN_CODE_PADDED_ISIC\s+lines\[0\]\.hsnCode/);
    expect(r.stdout).toContain('hint: If this line is a service, send isicCode "6202"');
    expect(r.stdout).toMatch(/✖ 1 error and 0 warnings in 1 of 2 invoices in 1 file/);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('colours the text report when FORCE_COLOR is set', async () => {
    const r = await run(['check', 'bad/array.json'], { env: { FORCE_COLOR: '1' } });
    expect(r.stdout).toContain('\u001b[31m');
  });

  it('follows --color / --no-color over NO_COLOR and FORCE_COLOR, the last flag winning', async () => {
    const esc = '\u001b[';
    expect((await run(['check', 'bad/array.json', '--color'])).stdout).toContain(esc);
    expect((await run(['check', 'bad/array.json', '--color'], { env: { NO_COLOR: '1' } })).stdout).toContain(esc);
    expect((await run(['check', 'bad/array.json', '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(esc);
    expect((await run(['check', 'bad/array.json', '--color', '--no-color'])).stdout).not.toContain(esc);
    expect((await run(['check', 'bad/array.json', '--no-color', '--color'])).stdout).toContain(esc);
  });

  it('turns colour off for any non-empty NO_COLOR and for FORCE_COLOR=0', async () => {
    const esc = '\u001b[';
    expect((await run(['check', 'bad/array.json'], { env: { NO_COLOR: 'yes' } })).stdout).not.toContain(esc);
    expect((await run(['check', 'bad/array.json'], { env: { FORCE_COLOR: '0' } })).stdout).not.toContain(esc);
    // Not a terminal (a pipe): no colour without FORCE_COLOR or --color.
    expect((await run(['check', 'bad/array.json'], { env: { NO_COLOR: '' } })).stdout).not.toContain(esc);
  });

  it('writes a stable JSON document with --format json', async () => {
    const r = await run(['check', 'bad/array.json', 'clean/good.json', '--format', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ version: 1, ok: false, exitCode: 1 });
    expect(doc.summary).toMatchObject({ files: 2, invoices: 3, invoicesWithErrors: 1, errors: 1, warnings: 0 });
    expect(doc.files.map((f: { file: string }) => f.file)).toEqual(['bad/array.json', 'clean/good.json']);
    const issue = doc.files[0].invoices[1].errors[0];
    expect(issue).toMatchObject({ code: 'HSN_CODE_PADDED_ISIC', severity: 'error', path: ['lines', 0, 'hsnCode'] });
    // "hsnCode": "6202.00" sits on the line of the second invoice's line item.
    const source = JSON.stringify([good, bad], null, 2).split('\n');
    expect(source[issue.line - 1]).toContain('"hsnCode": "6202.00"');
    expect(source[issue.line - 1]?.slice(issue.column - 1)).toMatch(/^"6202\.00"/);
    expect(doc.files[1].invoices[0].totals.total).toBe('2149.98');
  });

  it('prints GitHub annotations with --format github', async () => {
    const r = await run(['check', 'bad/array.json', 'warn/warn.json', '--format', 'github']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.some((l) => /^::error file=bad\/array\.json,line=\d+,col=\d+,title=HSN_CODE_PADDED_ISIC::invoice \[1\]: lines\[0\]\.hsnCode "/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('::warning file=warn/warn.json,line=') && l.includes('title=DUE_DATE_NO_OFFSET::'))).toBe(true);
    expect(lines.every((l) => !l.startsWith('::') || !l.slice(2).includes('\n'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^✖ /);
  });

  it('names files from the repository root in GitHub annotations run from a subdirectory', async () => {
    const r = await run(['check', 'bad/array.json', '--format', 'github'], { env: { GITHUB_WORKSPACE: dirname(dir) } });
    const base = basename(dir);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error')).every((l) => l.startsWith(`::error file=${base}/bad/array.json,`))).toBe(true);
    // Outside the workspace, as displayed.
    const outside = await run(['check', 'bad/array.json', '--format', 'github'], { env: { GITHUB_WORKSPACE: join(dir, 'elsewhere') } });
    expect(outside.stdout).toContain('::error file=bad/array.json,');
  });

  it('exits 0 on warnings unless --strict or --max-warnings says otherwise', async () => {
    expect((await run(['check', 'warn/warn.json'])).code).toBe(0);
    expect((await run(['check', 'warn/warn.json', '--strict'])).code).toBe(1);
    const capped = await run(['check', 'warn/warn.json', '--max-warnings', '0']);
    expect(capped.code).toBe(1);
    expect(capped.stdout).toContain('more warnings than --max-warnings 0');
    expect((await run(['check', 'warn/warn.json', '--max-warnings', '1'])).code).toBe(0);
    expect((await run(['check', 'warn/warn.json', '--strict', '--ignore', 'DUE_DATE_NO_OFFSET'])).code).toBe(0);
  });

  it('hides warnings with --quiet but still counts them', async () => {
    const r = await run(['check', 'warn/warn.json', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('DUE_DATE_NO_OFFSET');
    expect(r.stdout).toMatch(/no errors, 1 warning/);
  });

  it('reports broken JSON with its position and exits 1', async () => {
    const r = await run(['check', 'broken/broken.json', '--format', 'github']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=broken\/broken\.json,line=3,col=12,title=INVALID_JSON::invalid JSON: unexpected "}"/m);
  });

  it('checks every NDJSON record and reports a bad one by line', async () => {
    const r = await run(['check', 'nd/batch.ndjson', '--format', 'json']);
    expect(r.code).toBe(1);
    const invoices = JSON.parse(r.stdout).files[0].invoices;
    expect(invoices.map((i: { line: number }) => i.line)).toEqual([1, 2, 3]);
    expect(invoices[0].ok).toBe(true);
    expect(invoices[1].syntaxError.line).toBe(2);
    expect(invoices[2].errors[0].code).toBe('HSN_CODE_PADDED_ISIC');
    expect(invoices[2].errors[0].line).toBe(3);
  });

  it('expands directories and quoted globs, skipping node_modules and non-invoice files', async () => {
    const byDir = JSON.parse((await run(['check', 'tree', '--format', 'json'])).stdout);
    expect(byDir.files.map((f: { file: string }) => f.file)).toEqual(['tree/a/one.json', 'tree/b/deeper/two.json']);
    const byGlob = await run(['check', 'tree/**/*.json', '--format', 'json']);
    expect(byGlob.code).toBe(0);
    expect(JSON.parse(byGlob.stdout).summary.files).toBe(2);
    const oneLevel = JSON.parse((await run(['check', 'tree/[ab]/*.json', '--format', 'json'])).stdout);
    expect(oneLevel.files.map((f: { file: string }) => f.file)).toEqual(['tree/a/one.json']);
    const braces = JSON.parse((await run(['check', 'tree/{a,b/deeper}/*.json', '--format', 'json'])).stdout);
    expect(braces.summary.files).toBe(2);
  });

  it('warns about a code outside the bundled HS table (an error with --strict), and not with --hs-codes none', async () => {
    const bundled = await run(['check', 'hs/unknown.json']);
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toContain('HSN_CODE_UNKNOWN');
    expect((await run(['check', 'hs/unknown.json', '--strict'])).code).toBe(1);
    expect((await run(['check', 'hs/unknown.json', '--hs-codes', 'none'])).stdout).not.toContain('HSN_CODE_UNKNOWN');
  });

  it('compares a total in the file with its lines: an error on contradiction', async () => {
    const wrong = await run(['check', 'totals/wrong.json', '--format', 'json']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout).files[0].invoices[0].errors[0]).toMatchObject({ code: 'TOTALS_MISMATCH', path: ['totalAmount'] });
    const right = await run(['check', 'totals/right.json', '--format', 'json']);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout).files[0].invoices[0].warnings).toEqual([]);
  });

  it('reads standard input for "-"', async () => {
    const r = await run(['check', '-', '--format', 'json'], { stdin: JSON.stringify(bad) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).files[0].file).toBe('<stdin>');
  });

  it('exits 2 for a missing file or a glob that matches nothing, and still checks the rest', async () => {
    const r = await run(['check', 'missing.json', 'nothing/*.json', 'clean/good.json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('missing.json');
    expect(r.stdout).toContain('cannot read the file: no such file');
    expect(r.stdout).toContain('nothing matched "nothing/*.json"');
    expect(r.stdout).toMatch(/1 invoice in 2 files/);
  });

  it('exits 2 on usage errors with a pointer to --help', async () => {
    const bad1 = await run(['check', '--format', 'xml', 'clean/good.json']);
    expect(bad1.code).toBe(2);
    expect(bad1.stderr).toContain('--format must be one of text, json, github');
    expect(bad1.stderr).toContain('invoicing check --help');
    const bad2 = await run(['check', '--ignore', 'HSN_CODE_PADED_ISIC', 'clean/good.json']);
    expect(bad2.code).toBe(2);
    expect(bad2.stderr).toContain('did you mean HSN_CODE_PADDED_ISIC?');
    expect((await run(['check'])).code).toBe(2);
    expect((await run(['check', '--bogus', 'x'])).code).toBe(2);
    expect((await run(['check', '--max-warnings', 'many', 'x'])).code).toBe(2);
  });

  it('takes the HS codes from the service with --hs-codes api', async () => {
    const sandbox = await createSandbox();
    try {
      const env = { INVOICING_API_KEY: sandbox.apiKey, INVOICING_BASE_URL: sandbox.baseUrl };
      const unknown = await run(['check', 'hs/unknown.json', '--hs-codes', 'api', '--format', 'json'], { env });
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout).files[0].invoices[0].errors[0].code).toBe('HSN_CODE_NOT_LISTED');
      expect((await run(['check', 'clean/good.json', '--hs-codes', 'api'], { env })).code).toBe(0);
    } finally {
      await sandbox.close();
    }
  });

  it('exits 2 when --hs-codes api cannot reach the service', async () => {
    const r = await run(['check', 'clean/good.json', '--hs-codes', 'api'], {
      env: { INVOICING_API_KEY: undefined, INVOICING_BASE_URL: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invoicing check: .*(INVOICING_BASE_URL|baseUrl)/);
  });
});

describe('cli messages (what a shell user can act on)', () => {
  it('tells how to fix an invoice that fails the checks in CLI terms, not library calls', async () => {
    const sandbox = await createSandbox();
    try {
      const failing = { ...bad, businessId: sandbox.businessId };
      const tmp = tempFiles({ 'my invoices/a.json': JSON.stringify([{ ...good, businessId: sandbox.businessId }, failing]) });
      cleanups.push(tmp.cleanup);
      const r = await runBin(bin, ['file', 'my invoices/a.json', '--format', 'json'], {
        cwd: tmp.dir,
        env: { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey },
      });
      expect(r.code).toBe(1);
      const hints = [...r.stdout.matchAll(/"hint": "([^"]*)"/g)].map((m) => m[1]);
      expect(hints).toEqual([
        "Fix 'my invoices/a.json' and run the same command again; nothing was sent. `npx invoicing check 'my invoices/a.json'` lists every problem with its field, code and hint.",
      ]);
      expect(r.stdout).not.toMatch(/skipChecks|create\(\)|err\.report/);
    } finally {
      await sandbox.close();
    }
  });

  it('says to wait, not { force: true }, while the service retries on its own; keeps other hints', () => {
    const recovery = { name: 'FilingError', hint: 'Resume later', cause: { name: 'RecoveryInProgressError', hint: 'pass { force: true } to send it anyway' } };
    expect(cliHint(recovery, 'b.ndjson line 3')).toMatch(/^The service is retrying this invoice on its own .* Run the same command again later/);
    expect(cliHint({ name: 'InvoiceCheckError', hint: 'call create() again' }, 'b.ndjson line 3')).toMatch(/^Fix b\.ndjson and run/);
    expect(cliHint({ name: 'AuthenticationError', hint: 'Only X-API-Key works' }, 'a.json')).toBe('Only X-API-Key works');
  });
});
