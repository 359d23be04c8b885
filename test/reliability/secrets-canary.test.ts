/**
 * The canary of the secret scan: the same driver and the same scanner as secrets.test.ts, with the
 * SDK's redaction switched off. The scan must now find leaks, in errors and in log lines alike, or
 * it could not have found them in the real run either.
 */
import { describe, expect, it, vi } from 'vitest';
import { findLeaks, needlesFor, renderings } from './support/leaks.js';
import { driveEveryErrorPath, SECRETS } from './support/secret-paths.js';

vi.mock('../../src/core/redact.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/redact.js')>();
  // Every client's Redactor stops scrubbing.
  real.Redactor.prototype.redact = (text: string) => text;
  real.Redactor.prototype.redactDeep = <T>(value: T) => value;
  return real;
});

describe('secret scan canary', () => {
  it('finds the leaks when redaction is switched off', async () => {
    const run = await driveEveryErrorPath();
    const needles = needlesFor(SECRETS);
    const errorLeaks = run.paths.flatMap((p) => findLeaks(renderings(p.error), needles).map((l) => ({ path: p.name, ...l })));
    const logLeaks = findLeaks(run.logLines.map((text, i) => ({ where: `log line ${i}`, text })), needles);

    const leakingPaths = new Set(errorLeaks.map((l) => l.path));
    // Every echoing answer of the hostile server shows up, in each of the usual renderings.
    for (const path of [
      '401 { error }',
      '500 plain text',
      '200 success: false',
      'x-request-id echoing the key',
      '500 body cut inside the key',
      '401 echoing the key without its prefix',
      '400 echoing 24 of the 32 secret characters',
      '401 on a session route echoing the token without its prefix',
    ]) {
      expect(leakingPaths, path).toContain(path);
    }
    for (const where of ['message', 'toString()', 'stack', 'JSON.stringify', 'util.inspect']) {
      expect(errorLeaks.some((l) => l.where === where), where).toBe(true);
    }
    // A body cut inside the key leaks only a prefix, and the scan still sees it.
    expect(errorLeaks.some((l) => l.path === '500 body cut inside the key' && l.needle === 'API key (prefix)')).toBe(true);
    expect(errorLeaks.some((l) => l.path === '500 body cut inside the key' && l.needle === 'API key (whole)')).toBe(false);
    // The session token reaches errors from the session routes.
    expect(errorLeaks.some((l) => l.needle.startsWith('session token'))).toBe(true);
    // Without redaction the debug log shows what the server said back.
    expect(logLeaks.length).toBeGreaterThan(0);
  }, 60_000);
});
