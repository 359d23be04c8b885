import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBlank, isTrimmedSpace } from '../../../src/check/rules/fields.js';

describe('check/rules/fields', () => {
  it('calls a string blank exactly when every character is one of the listed spaces (property)', () => {
    // The rule written out: the ASCII spaces, NBSP, U+2000 to U+200B, U+3000 and U+FEFF.
    const spaces = new Set([' ', '\t', '\n', '\r', '\u000b', '\f', '\u00a0', '\u3000', '\ufeff']);
    for (let c = 0x2000; c <= 0x200b; c++) spaces.add(String.fromCharCode(c));
    const reference = (s: string) => [...s].every((c) => spaces.has(c));
    const char = fc.oneof(
      fc.constantFrom(...spaces),
      // Either side of every range the scan tests, and ordinary text.
      fc.constantFrom('\u0008', '\u000e', '\u001f', '!', '~', '\u007f', '\u0080', '\u009f', '\u00a1', '\u1fff', '\u200c', '\u2fff', '\u3001', '\ufefe', '\uffff'),
      fc.constantFrom('a', 'Z', '0', '-'),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 8 }).map((cs) => cs.join('')), (s) => {
        expect(isBlank(s), JSON.stringify(s)).toBe(reference(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('calls a code unit a space exactly when String.prototype.trim removes it (all 65,536)', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (isTrimmedSpace(c) !== (String.fromCharCode(c).trim() === '')) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
  });
});
