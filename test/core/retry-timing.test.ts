import { describe, expect, it } from 'vitest';
import {
  INITIAL_RETRY_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_DELAY_MS,
  parseRetryAfter,
  retryDelay,
  sleep,
} from '../../src/core/retry-timing.js';

describe('core/retry-timing', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');

  it('reads Retry-After as delay-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
  });

  it('reads Retry-After as an HTTP date against now', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('ignores an absent or unreadable Retry-After', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('2026-11-21 10:00:05', now)).toBeUndefined();
  });

  it('honours Retry-After exactly, capped', () => {
    expect(retryDelay({ retriesSoFar: 0, retryAfterMs: 1000, random: () => 0.1 })).toBe(1000);
    expect(retryDelay({ retriesSoFar: 3, retryAfterMs: 3_600_000 })).toBe(MAX_RETRY_AFTER_MS);
  });

  it('backs off exponentially with full jitter between 0 and the ceiling', () => {
    expect(retryDelay({ retriesSoFar: 0, random: () => 0.999999 })).toBe(INITIAL_RETRY_DELAY_MS - 1);
    expect(retryDelay({ retriesSoFar: 1, random: () => 0.5 })).toBe(INITIAL_RETRY_DELAY_MS);
    expect(retryDelay({ retriesSoFar: 2, random: () => 0.5 })).toBe(INITIAL_RETRY_DELAY_MS * 2);
    expect(retryDelay({ retriesSoFar: 2, random: () => 0 })).toBe(0);
  });

  it('never backs off past the cap', () => {
    for (let n = 0; n < 40; n += 1) {
      expect(retryDelay({ retriesSoFar: n, random: () => 0.999999 })).toBeLessThan(MAX_RETRY_DELAY_MS);
    }
  });

  it('sleeps until aborted and rejects with the reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('rejects at once when the signal has already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
  });

  it('resolves after the wait when not aborted', async () => {
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
