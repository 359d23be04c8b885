import { describe, expect, it } from 'vitest';
import { nextRecoveryRead, WAIT_DEFAULTS } from '../../src/filing/wait.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const MIN = 60_000;

describe('filing/wait nextRecoveryRead', () => {
  it('reads just after the next 10-minute retry after the record was touched', () => {
    expect(nextRecoveryRead({ updatedAt: new Date(T0).toISOString() }, T0 + 4 * MIN)).toBe(6 * MIN + WAIT_DEFAULTS.retryMargin);
  });

  it('reads once a minute when the retry is overdue', () => {
    expect(nextRecoveryRead({ updatedAt: new Date(T0).toISOString() }, T0 + 11 * MIN)).toBe(WAIT_DEFAULTS.overduePoll);
  });

  it('reads when the 24-hour window closes if that comes first', () => {
    const touched = T0;
    const now = T0 + 24 * 60 * MIN - 30_000;
    expect(nextRecoveryRead({ updatedAt: new Date(touched).toISOString() }, now)).toBe(30_001);
  });

  it('reads once a minute when the record carries no readable updatedAt', () => {
    expect(nextRecoveryRead({ updatedAt: undefined }, T0)).toBe(WAIT_DEFAULTS.overduePoll);
  });

  it('follows a 30-minute recovery in far fewer than 60 reads', () => {
    // Three retries 10 minutes apart, each touching the record; count reads until the last.
    let now = T0;
    let touched = T0;
    let reads = 0;
    while (now < T0 + 31 * MIN) {
      reads += 1;
      if (now - touched >= 10 * MIN) touched += 10 * MIN; // the retry that ran since the last read
      now += nextRecoveryRead({ updatedAt: new Date(touched).toISOString() }, now);
    }
    expect(reads).toBeLessThanOrEqual(6);
  });
});
