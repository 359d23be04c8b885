import { describe, expect, it } from 'vitest';
import { printable, safeJson } from '../../src/cli/escape.js';

describe('cli/escape', () => {
  it('writes C0, DEL, C1 and ESC sequences as visible escapes', () => {
    expect(printable('\u001b[2K\r\u001b[32m✓ Accepted')).toBe('\\x1b[2K\\x0d\\x1b[32m✓ Accepted');
    expect(printable('a\nb\tc\u0000\u007f\u009b')).toBe('a\\x0ab\\x09c\\x00\\x7f\\x9b');
  });

  it('writes bidi overrides, isolates, marks and line separators as visible escapes', () => {
    expect(printable('inv_\u202edetpecca')).toBe('inv_\\u202edetpecca');
    expect(printable('\u2066x\u2069\u200f\u2028')).toBe('\\u2066x\\u2069\\u200f\\u2028');
  });

  it('leaves ordinary text, accents and symbols alone', () => {
    expect(printable('Café Ünïcode ✓ 中文 — 1,000.50')).toBe('Café Ünïcode ✓ 中文 — 1,000.50');
  });

  it('escapes what JSON.stringify leaves raw, and the document parses to the same values', () => {
    const value = { message: '\u001b[31mred\u009b\u202eevil\u2028', n: 1 };
    const text = safeJson(value);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
