/**
 * `invoicing-sdk/check` as a browser app or a CI job gets it: bundled from dist/ through the
 * package's `exports`, with none of ky, zod or uuid, and working once bundled.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

const CONSUMER = `
import { CHECK_RULES, checkInvoice, computeTotals, HS_CODES, ISIC_CODES } from 'invoicing-sdk/check';
export const run = (input) => ({
  report: checkInvoice(input, { expectedTotals: { total: '1612.50' } }),
  total: computeTotals(input.lines).total,
  rules: Object.keys(CHECK_RULES).length,
  hs: HS_CODES.has('8471.30'),
  isic: ISIC_CODES.has('6202'),
});
`;

const invoice = (hsnCode: string) => ({
  businessId: 'biz_123',
  buyer: { type: 'B2B', tin: '12345678-0001' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, hsnCode }],
});

let dir: string;
let bundle: { code: string; inputs: string[] };

beforeAll(async () => {
  // Outside the repository, so that tsconfig paths do not point the import at src/.
  dir = mkdtempSync(join(tmpdir(), 'invoicing-check-entry-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'invoicing-sdk'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'consumer.mjs'), CONSUMER);
  const result = await build({
    entryPoints: [join(dir, 'consumer.mjs')],
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(dir, 'bundle.mjs'),
    metafile: true,
    logLevel: 'silent',
  });
  bundle = { code: join(dir, 'bundle.mjs'), inputs: Object.keys(result.metafile.inputs) };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('release/check-entry', () => {
  it('bundles for the browser from dist/ with none of ky, zod or uuid', () => {
    expect(bundle.inputs.some((input) => input.includes('dist/check.js'))).toBe(true);
    expect(bundle.inputs.filter((input) => /node_modules\/(ky|zod|uuid)\//.test(input))).toEqual([]);
  });

  it('checks an invoice, computes totals and holds the rule catalogue and code sets once bundled', async () => {
    const { run } = await import(pathToFileURL(bundle.code).href);
    const good = run(invoice('8471.30'));
    expect(good.report.ok).toBe(true);
    expect(good.report.totals?.total).toBe('1612.50');
    expect(good.total).toBe('1612.50');
    expect(good.rules).toBeGreaterThan(0);
    expect([good.hs, good.isic]).toEqual([true, true]);

    const padded = run(invoice('6202.00'));
    expect(padded.report.ok).toBe(false);
    expect(padded.report.errors.map((issue: { code: string }) => issue.code)).toContain('HSN_CODE_PADDED_ISIC');
  });

  it('ships types that reach none of ky, zod or uuid', () => {
    for (const entry of ['dist/check.d.ts', 'dist/check.d.cts']) {
      const seen = new Set<string>();
      const packages: string[] = [];
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const [, specifier] of readFileSync(join(root, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm)) {
          if (!specifier!.startsWith('.')) packages.push(specifier!);
          else visit(join(dirname(file), specifier!.replace(/\.(c?)js$/, '.d.$1ts')));
        }
      };
      visit(entry);
      expect(seen.size, entry).toBeGreaterThan(1);
      expect(packages, entry).toEqual([]);
    }
  });

  it('is required from CommonJS without loading zod', () => {
    const probe = `const check = require('invoicing-sdk/check');
      console.log(JSON.stringify({ ok: check.checkInvoice(${JSON.stringify(invoice('8471.30'))}).ok, loaded: Object.keys(require.cache) }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' })) as { ok: boolean; loaded: string[] };
    expect(out.ok).toBe(true);
    expect(out.loaded.some((file) => file.endsWith('dist/check.cjs'))).toBe(true);
    expect(out.loaded.filter((file) => file.includes('node_modules'))).toEqual([]);
  });
});
