import { describe, expect, it } from 'vitest';
import { nextRecoveryRead, WAIT_DEFAULTS } from '../../src/filing/wait.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const MIN = 60_000;

describe('filing/wait nextRecoveryRead', () => {
  it('reads again within a minute, since the recovery job runs on its own schedule', () => {
    expect(WAIT_DEFAULTS.recoveryPoll).toBe(MIN);
    expect(nextRecoveryRead({ updatedAt: new Date(T0).toISOString() }, T0 + 4 * MIN)).toBe(MIN);
    expect(nextRecoveryRead({ updatedAt: new Date(T0).toISOString() }, T0 + 11 * MIN)).toBe(MIN);
  });

  it('reads when the 24-hour window closes if that comes first', () => {
    const touched = T0;
    const now = T0 + 24 * 60 * MIN - 30_000;
    expect(nextRecoveryRead({ updatedAt: new Date(touched).toISOString() }, now)).toBe(30_001);
  });

  it('reads once a minute when the record carries no readable updatedAt', () => {
    expect(nextRecoveryRead({ updatedAt: undefined }, T0)).toBe(MIN);
  });

  it('has a default timeout that sees a whole automatic recovery through', () => {
    expect(WAIT_DEFAULTS.timeout).toBeGreaterThan(30 * MIN);
  });
});
