import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/safe-json.js';

describe('core/canonical-json', () => {
  it('gives the same text whatever order the keys were written in', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, 'x'] } })).toBe(canonicalJson({ a: { c: [3, 'x'], d: 2 }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('leaves undefined members out, as JSON.stringify does, and keeps array order', () => {
    expect(canonicalJson({ a: undefined, b: [2, 1] })).toBe('{"b":[2,1]}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('reads scalars as JSON does', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(7.5)).toBe('7.5');
  });
});
