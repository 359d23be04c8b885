import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { epochMs, isoDateTime } from '../../src/model/timestamp.js';

describe('model/timestamp', () => {
  it('writes the same ISO date-time as Date#toISOString for every millisecond it may be given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.double({ min: -1e16, max: 1e16, noNaN: true })), (ms) => {
        if (Math.abs(ms) > 8.64e15) expect(() => isoDateTime(ms)).toThrow(RangeError);
        else expect(isoDateTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
    for (const ms of [0, 951_782_400_000, 4_107_542_400_000, 253_402_300_799_999, 1_767_225_599_999]) {
      expect(isoDateTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('reads epoch seconds and milliseconds, as numbers or digits', () => {
    expect(epochMs(1_767_225_600)).toBe(1_767_225_600_000);
    expect(epochMs(' 1767225600000 ')).toBe(1_767_225_600_000);
    expect(epochMs('2026-01-01')).toBeNaN();
  });
});
