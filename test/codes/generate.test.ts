import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'codes-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('scripts/generate-codes.mjs', () => {
  it('regenerates exactly the committed tables from ../shared/data', () => {
    execFileSync(process.execPath, [join(root, 'scripts/generate-codes.mjs'), '--out', out], { stdio: 'pipe' });
    for (const file of ['isic-codes.ts', 'isic-classes.ts', 'hs-subheadings.ts', 'hs-codes.ts']) {
      const fresh = readFileSync(join(out, file), 'utf8');
      const committed = readFileSync(join(root, 'src/codes', file), 'utf8');
      expect(fresh === committed, `src/codes/${file} differs from a fresh run: npm run codes:generate`).toBe(true);
    }
  });

  it('refuses a data folder without the lists, with exit code 2', () => {
    let status: number | null = null;
    try {
      execFileSync(process.execPath, [join(root, 'scripts/generate-codes.mjs'), '--data', out, '--out', out], { stdio: 'pipe' });
    } catch (err) {
      status = (err as { status: number }).status;
    }
    expect(status).toBe(2);
  });
});
