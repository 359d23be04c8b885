import { describe, expect, it } from 'vitest';
import { formatNumber, formatSeconds, plural } from '../../src/cli/format.js';

describe('cli/format', () => {
  it('groups thousands in every count', () => {
    expect(formatNumber(2000)).toBe('2,000');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(plural(2000, 'invoice')).toBe('2,000 invoices');
    expect(plural(1, 'invoice')).toBe('1 invoice');
  });

  it('writes fixed decimals with the same grouping', () => {
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatSeconds(1234567)).toBe('1,234.57 s');
    expect(formatSeconds(250, 1)).toBe('0.3 s');
  });
});
