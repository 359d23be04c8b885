import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { deriveIdempotencyKey, IDEMPOTENCY_NAMESPACE, mintIdempotencyKey } from '../../src/core/idempotency.js';

describe('core/idempotency', () => {
  it('derives a stable UUID v5 from business and document reference', () => {
    const key = deriveIdempotencyKey('biz_1', 'INV-42');
    expect(validate(key)).toBe(true);
    expect(version(key)).toBe(5);
    expect(deriveIdempotencyKey('biz_1', 'INV-42')).toBe(key);
    // Pinned: a change of namespace or encoding would let a document be filed twice across upgrades.
    expect(key).toBe('8fd75da0-1286-5f5b-8960-ad282159620f');
  });

  it('gives different keys for different documents or businesses, without separator collisions', () => {
    const keys = new Set([
      deriveIdempotencyKey('biz_1', 'INV-42'),
      deriveIdempotencyKey('biz_1', 'INV-43'),
      deriveIdempotencyKey('biz_2', 'INV-42'),
      deriveIdempotencyKey('a:b', 'c'),
      deriveIdempotencyKey('a', 'b:c'),
    ]);
    expect(keys.size).toBe(5);
  });

  it('rejects empty inputs', () => {
    expect(() => deriveIdempotencyKey('', 'x')).toThrow(/businessId/);
    expect(() => deriveIdempotencyKey('b', '  ')).toThrow(/externalRef/);
  });

  it('mints a fresh UUID v7 per call', () => {
    const a = mintIdempotencyKey();
    const b = mintIdempotencyKey();
    expect(version(a)).toBe(7);
    expect(a).not.toBe(b);
    expect(validate(IDEMPOTENCY_NAMESPACE)).toBe(true);
  });
});
