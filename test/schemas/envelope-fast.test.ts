import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readMeta, unwrapEnvelope } from '../../src/schemas/envelope.js';
import { readEnvelopeFast, readMetaFast, UNDECIDED } from '../../src/schemas/envelope-fast.js';

const source = { status: 200, headers: undefined, method: 'GET', path: '/api/v1/invoices' };

/** What the zod schemas make of `body`: the envelope, or `'invalid'`. */
function schemaVerdict(body: unknown): unknown {
  try {
    return unwrapEnvelope(body, source);
  } catch {
    return 'invalid';
  }
}

const count = fc.oneof(
  fc.nat(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 2 ** 53, Number.MAX_SAFE_INTEGER, ' 12 ', '7', 'x', null, undefined, true),
  fc.string(),
);
const meta = fc.oneof(
  fc.record({ total: count, page: count, limit: count, totalPages: count }, { requiredKeys: [] }),
  fc.anything(),
);
const envelopeLike = fc.record(
  {
    success: fc.oneof(fc.constant(true), fc.anything()),
    data: fc.anything(),
    timestamp: fc.oneof(fc.string(), fc.anything()),
    message: fc.oneof(fc.string(), fc.anything()),
    meta,
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('schemas/envelope-fast', () => {
  it('reads a well-formed envelope exactly as the zod schema does', () => {
    const body = {
      success: true,
      data: { id: 'inv_1', status: 'draft' },
      timestamp: '2026-11-01T09:00:00Z',
      meta: { total: 7, page: 1, limit: 3 },
      extra: 1,
    };
    expect(readEnvelopeFast(body)).toEqual(unwrapEnvelope(body, source));
    expect(readEnvelopeFast(body)?.meta?.totalPages).toBe(3);
  });

  it('agrees with the zod schema on every body it settles, and settles every plain well-formed one', () => {
    fc.assert(
      fc.property(fc.oneof(envelopeLike, fc.anything()), (body) => {
        const fast = readEnvelopeFast(body);
        if (fast !== undefined) expect(fast).toEqual(schemaVerdict(body));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.anything(), fc.option(fc.string(), { nil: undefined }), (data, timestamp) => {
        expect(readEnvelopeFast({ success: true, data, timestamp })).toEqual(schemaVerdict({ success: true, data, timestamp }));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with readMeta on every meta it settles', () => {
    fc.assert(
      fc.property(meta, (value) => {
        const fast = readMetaFast(value);
        if (fast !== UNDECIDED) expect(fast).toEqual(readMeta(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves string counts, odd prototypes and non-envelopes to the schema', () => {
    expect(readEnvelopeFast({ success: true, data: [], meta: { total: '7' } })).toBeUndefined();
    expect(readEnvelopeFast(Object.assign(new (class Body {})(), { success: true, data: 1 }))).toBeUndefined();
    expect(readEnvelopeFast({ success: true })).toBeUndefined();
    expect(readEnvelopeFast({ success: false, data: 1 })).toBeUndefined();
    expect(readEnvelopeFast('<html>')).toBeUndefined();
    expect(readMetaFast({ total: 1.5 })).toBe(UNDECIDED);
    expect(readMetaFast('nope')).toBeUndefined();
  });
});
