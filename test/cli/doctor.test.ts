// `invoicing doctor`: the built bin against a real loopback sandbox, and the text rendering.
import { afterEach, describe, expect, it } from 'vitest';
import { renderText } from '../../src/cli/doctor.js';
import { styles } from '../../src/cli/context.js';
import type { Diagnosis } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { root, runBin, useBin } from './helpers.js';

let bin: string;
useBin((built) => (bin = built));

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function doctor(options: SandboxOptions, args: string[] = [], env: Record<string, string | undefined> = {}) {
  const sandbox = await createSandbox({ responseDelayMs: 10, ...options });
  open.push(sandbox);
  const result = await runBin(bin, ['doctor', ...args], {
    cwd: root,
    env: { INVOICING_BASE_URL: sandbox.baseUrl, INVOICING_API_KEY: sandbox.apiKey, INVOICING_SESSION_TOKEN: sandbox.sessionToken, ...env },
  });
  for (const secret of [sandbox.apiKey, sandbox.sessionToken]) {
    expect(result.stdout + result.stderr).not.toContain(secret);
  }
  return { ...result, sandbox };
}

describe('cli/doctor (invoicing doctor)', () => {
  it('exits 0 on a healthy sandbox and prints every check by area', async () => {
    const { code, stdout } = await doctor({});
    expect(code).toBe(0);
    expect(stdout).toMatch(/^invoicing doctor: http:\/\/127\.0\.0\.1:\d+/);
    for (const heading of ['Reachability', 'Credentials', 'Clock', 'Routes and shapes', 'Drift']) expect(stdout).toContain(`\n${heading}\n`);
    expect(stdout).toMatch(/✓ api-description +API description \(3\.0\.0\) found at \/api\/docs-json/);
    expect(stdout).toMatch(/\nOK: 15 checks, 15 passed, 0 warnings, 0 failed, 0 skipped\n$/);
  });

  it('exits 1 on a BUSINESS key and prints the defect as the hint; --format json carries the same', async () => {
    const text = await doctor({ apiKeyType: 'BUSINESS' });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/✗ key-type .*BUSINESS key\n +→ Known defect of the service/);
    const json = await doctor({ apiKeyType: 'BUSINESS' }, ['--format', 'json']);
    expect(json.code).toBe(1);
    const diagnosis = JSON.parse(json.stdout) as Diagnosis;
    expect(diagnosis.ok).toBe(false);
    expect(diagnosis.checks.find((c) => c.id === 'key-type')).toMatchObject({ status: 'fail', area: 'credentials' });
  });

  it('exits 0 with warnings, 1 with --strict', async () => {
    const lenient = await doctor({ routes: { retrieve: false } });
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/! read-route/);
    const strict = await doctor({ routes: { retrieve: false } }, ['--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/FAILED \(--strict: warnings count\)/);
  });

  it('exits 2 on bad usage or a missing base URL', async () => {
    const format = await doctor({}, ['--format', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format must be one of text, json/);
    const unset = await doctor({}, [], { INVOICING_BASE_URL: undefined });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/INVOICING_BASE_URL is not set/);
    expect((await doctor({}, ['--help'])).stdout).toMatch(/^Usage: invoicing doctor/);
  });
});

describe('cli/doctor renderText', () => {
  it('escapes control characters the service sent', () => {
    const diagnosis: Diagnosis = {
      ok: false,
      strict: false,
      baseUrl: 'https://x.test',
      checkedAt: '2026-11-27T00:00:00.000Z',
      checks: [{ id: 'api-key', area: 'credentials', status: 'fail', finding: 'refused: \u001b[2Jgone', hint: 'fix\u0007' }],
      counts: { pass: 0, warn: 0, fail: 1, skip: 0 },
    };
    const text = renderText(diagnosis, styles(false));
    expect(text).not.toMatch(/[\u001b\u0007]/);
    expect(text).toContain('✗ api-key  refused:');
  });
});
