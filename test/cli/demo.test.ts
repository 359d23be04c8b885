/**
 * `invoicing demo`, run through the built bin as users run it: every scenario ends as it should,
 * with exit code 0, narrating each step and status change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, root, useBin, type RunOutput } from './helpers.js';

const ANSI = /\u001b\[\d+m/;
const SCENARIOS = ['accepted', 'offline', 'field-error'] as const;

let bin: string;
useBin((built) => (bin = built));
const runs = new Map<string, RunOutput>();

function demo(args: string[], env: Record<string, string | undefined> = {}): Promise<RunOutput> {
  return runBin(bin, ['demo', ...args], { cwd: root, env });
}

function outputOf(scenario: (typeof SCENARIOS)[number]): RunOutput {
  const run = runs.get(scenario);
  if (run === undefined) throw new Error(`scenario ${scenario} did not run`);
  return run;
}

beforeAll(async () => {
  // The three scenarios at once: each spends most of its time waiting on the sandbox clock.
  const outputs = await Promise.all(SCENARIOS.map((s) => demo(['--scenario', s])));
  SCENARIOS.forEach((s, i) => runs.set(s, outputs[i] as RunOutput));
}, 120_000);

describe('cli/demo', () => {
  it.each(SCENARIOS)('ends the %s scenario with exit code 0 and nothing on stderr', (scenario) => {
    const { code, stderr } = outputOf(scenario);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it.each(SCENARIOS)('narrates every filing step of the %s scenario, in order', (scenario) => {
    const { stdout } = outputOf(scenario);
    const steps = [...stdout.matchAll(/^ {2}✔ (\w+)/gm)].map((m) => m[1]);
    expect(steps).toEqual(['check', 'create', 'reconcile', 'validate', 'sign', 'submit', 'wait']);
    expect(stdout).toMatch(/create {5}inv_\w+ · draft · idempotency key derived from ORDER-2026-0042/);
    expect(stdout).toContain("the service's totals match the lines: 1,836.00 + 137.71 tax = 1,973.71");
    expect(stdout).toContain('POST /submit was sent once');
  });

  it('files the invoice in the accepted scenario', () => {
    const { stdout } = outputOf('accepted');
    expect(stdout).toMatch(/✔ Filed: invoice inv_\w+ is Accepted\./);
    expect(stdout).toContain('clock runs at real time');
    expect(stdout).toContain('--scenario offline, --scenario field-error');
  });

  it('waits through the automatic retries in the offline scenario and never re-submits', () => {
    const { stdout } = outputOf('offline');
    // At 600x real time the recovery job can run within a poll of the failure, so the first Error
    // seen may already be retry 1's.
    expect(stdout).toMatch(/Error on (?:submission|automatic retry 1 of 3): Access points are offline/);
    // The service's retry job runs every 10 minutes on its own schedule (the sandbox: at every
    // multiple of 10 minutes of its clock), so retry 1 lands within 10 minutes of the failure at +2s,
    // and retry 2 ten minutes after it.
    // Times are printed as `+45s` or `+4m 11s` (src/cli/demo.ts, span()).
    const at = (event: string): number => {
      const m = new RegExp(`\\+(?:(\\d+)m )?(\\d+)s +${event}`).exec(stdout);
      expect(m, event).not.toBeNull();
      return Number(m![1] ?? 0) * 60 + Number(m![2]);
    };
    const retry1 = at('Error on automatic retry 1 of 3: Access points are offline');
    const retry2 = at('Accepted \\(went through on automatic retry 2\\)');
    expect(retry1).toBeGreaterThanOrEqual(2);
    expect(retry1).toBeLessThanOrEqual(10 * 60 + 2);
    expect(retry2 - retry1).toBeGreaterThanOrEqual(10 * 60 - 1);
    expect(retry2 - retry1).toBeLessThanOrEqual(10 * 60 + 1);
    expect(stdout).toContain('waiting, not re-submitting');
    expect(stdout).toMatch(/✔ Filed: invoice inv_\w+ is Accepted\./);
    expect(stdout).toContain('never re-submitted (POST /submit was sent once)');
    expect(stdout).toContain('clock runs at 600× real time');
  });

  it('ends the field-error scenario naming the field and asking for a corrected invoice under the next revision', () => {
    const { stdout } = outputOf('field-error');
    expect(stdout.match(/Error on automatic retry \d of 3: Validation failed: buyer\.tin is invalid/g)).toHaveLength(3);
    expect(stdout).toContain('automatic recovery is over');
    expect(stdout).toContain('Field rejected by the tax authority: buyer.tin');
    expect(stdout).toMatch(/Invoice inv_\w+ stays in Error; the corrected document is filed as a new invoice with client\.invoices\.createAndFile\(corrected, \{ externalRef, revision: 1 \}\)/);
    expect(stdout).not.toContain('resumeFiling');
    expect(stdout).not.toContain('Filed:');
  });

  it('writes no colour codes when stdout is not a terminal', () => {
    for (const s of SCENARIOS) expect(outputOf(s).stdout).not.toMatch(ANSI);
  });

  it('colours its output when FORCE_COLOR is set', async () => {
    const { code, stdout } = await demo([], { FORCE_COLOR: '1' });
    expect(code).toBe(0);
    expect(stdout).toMatch(ANSI);
  });

  it('takes --no-color over FORCE_COLOR, and --color without a terminal', async () => {
    const off = await demo(['--no-color'], { FORCE_COLOR: '1' });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toMatch(ANSI);
    const on = await demo(['--color']);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(ANSI);
  });

  it('refuses an unknown scenario with exit code 2 and the list of scenarios', async () => {
    const { code, stderr, stdout } = await demo(['--scenario', 'pending']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--scenario must be one of accepted, offline, field-error, got "pending"');
  });

  it('prints its help with --help', async () => {
    const { code, stdout } = await demo(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: invoicing demo [--scenario accepted|offline|field-error]');
  });

  it('is listed by invoicing --help', async () => {
    const { stdout } = await runBin(bin, ['--help'], { cwd: root });
    expect(stdout).toMatch(/^ {2}demo +\S/m);
  });
});
