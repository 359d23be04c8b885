/**
 * The envelope reader (the model's EnvelopeSchema) against an independent reference written with
 * zod/mini from the document: the same verdict and the same reading for every body. Where the
 * reference cannot read a `meta` that is present, the tolerant reader leaves it out and the strict
 * one (`unwrapEnvelope`, used by every documented route) fails naming the field under `meta`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isInvalidResponseError } from '../../src/core/errors.js';
import { readEnvelope, unwrapEnvelope } from '../../src/core/envelope.js';
import { ListingMetaSchema } from '../../src/model/listing.js';

// The document: counts are integers (a safe integer here; digits in a string read as one).
const count = z.union([
  z.int().check(z.nonnegative()),
  z.pipe(
    z.string().check(z.regex(/^\s*\d+\s*$/)),
    z.pipe(
      z.transform((s: string) => Number(s)),
      z.number().check(z.maximum(Number.MAX_SAFE_INTEGER)),
    ),
  ),
]);
const ReferenceMeta = z.looseObject({
  total: z.optional(count),
  page: z.optional(count),
  limit: z.optional(count),
  totalPages: z.optional(count),
});
const ReferenceEnvelope = z.looseObject({
  success: z.literal(true),
  data: z.unknown(),
  timestamp: z.catch(z.optional(z.string()), undefined),
  message: z.catch(z.optional(z.string()), undefined),
  meta: z.optional(z.unknown()),
});

function referenceMeta(meta: unknown): unknown {
  const parsed = ReferenceMeta.safeParse(meta);
  if (!parsed.success) return undefined;
  // Unknown fields are kept.
  const { total, limit } = parsed.data;
  let { totalPages } = parsed.data;
  if (totalPages === undefined && total !== undefined && limit !== undefined && limit > 0) totalPages = Math.ceil(total / limit);
  return { ...parsed.data, totalPages };
}

function referenceEnvelope(body: unknown): unknown {
  const parsed = ReferenceEnvelope.safeParse(body);
  if (!parsed.success) return undefined;
  const { data, timestamp, message, meta } = parsed.data;
  return { data, timestamp, message, meta: referenceMeta(meta) };
}

const countArb = fc.oneof(
  fc.nat(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 2 ** 53, Number.MAX_SAFE_INTEGER, ' 12 ', '7', '\n3\t', '1.5', '-1', 'x', '', null, undefined, true, 7n),
  fc.string(),
  fc.stringMatching(/^\s*\d{1,20}\s*$/),
);
const metaArb = fc.oneof(
  fc.record({ total: countArb, page: countArb, limit: countArb, totalPages: countArb }, { requiredKeys: [] }),
  fc.anything(),
);
const plainEnvelope = fc.record(
  {
    success: fc.oneof(fc.constant(true), fc.anything()),
    data: fc.anything(),
    timestamp: fc.oneof(fc.string(), fc.anything()),
    message: fc.oneof(fc.string(), fc.anything()),
    meta: metaArb,
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);
/** The same fields on odd carriers: a class instance, a null prototype, an array, inherited keys. */
const oddEnvelope = fc.tuple(plainEnvelope, fc.constantFrom('class', 'null-proto', 'array', 'inherited', 'date')).map(([fields, carrier]) => {
  switch (carrier) {
    case 'class':
      return Object.assign(new (class Body {})(), fields);
    case 'null-proto':
      return Object.assign(Object.create(null) as object, fields);
    case 'array':
      return Object.assign([], fields);
    case 'inherited':
      return Object.create(fields) as object;
    case 'date':
      return Object.assign(new Date(0), fields);
  }
});

const source = { status: 200, headers: undefined, method: 'GET', path: '/api/v1/invoices' };

/** What unwrapEnvelope gives, or the message of the InvalidResponseError it throws. */
function strict(body: unknown): { envelope: unknown } | { error: string } {
  try {
    return { envelope: unwrapEnvelope(body, source) };
  } catch (error) {
    expect(isInvalidResponseError(error)).toBe(true);
    return { error: (error as Error).message };
  }
}

describe('core/envelope against the zod reference', () => {
  it('gives the same verdict and reading for every body', () => {
    fc.assert(
      fc.property(fc.oneof(plainEnvelope, oddEnvelope, fc.anything()), (body) => {
        expect(readEnvelope(body)).toEqual(referenceEnvelope(body));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads strictly as the reference does, and names the meta field the reference cannot read', () => {
    fc.assert(
      fc.property(fc.oneof(plainEnvelope, oddEnvelope, fc.anything()), (body) => {
        const reference = referenceEnvelope(body) as { meta: unknown } | undefined;
        const got = strict(body);
        if (reference === undefined) return void expect(got).toHaveProperty('error');
        const meta = (body as { meta?: unknown }).meta;
        if (meta !== undefined && meta !== null && reference.meta === undefined) {
          expect(got).toHaveProperty('error', expect.stringMatching(/envelope's meta(\.(total|page|limit|totalPages))? cannot be read/));
        } else {
          expect(got).toEqual({ envelope: reference });
        }
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [{ totalPages: -1 }, 'meta.totalPages'],
    [{ total: 10, page: 1.5 }, 'meta.page'],
    [{ limit: 'ten' }, 'meta.limit'],
    [{ total: '99999999999999999999' }, 'meta.total'],
    ['nope', 'meta'],
  ])('refuses the listing meta %j with an InvalidResponseError naming %s', (meta, field) => {
    const got = strict({ success: true, data: [], timestamp: 't', meta });
    expect(got).toHaveProperty('error', expect.stringContaining(`envelope's ${field} cannot be read`));
    expect(readEnvelope({ success: true, data: [], meta })?.meta).toBeUndefined();
  });

  it('reads listing meta as the reference does, string counts and odd carriers included', () => {
    fc.assert(
      fc.property(metaArb, (meta) => {
        expect(ListingMetaSchema.safeParse(meta).data).toEqual(referenceMeta(meta));
      }),
      { numRuns: 5000 },
    );
    for (const meta of [{ total: '7', limit: ' 3 ' }, Object.create({ total: 4, limit: 2 }) as object, { total: 1.5 }, { page: -1 }]) {
      expect(ListingMetaSchema.safeParse(meta).data).toEqual(referenceMeta(meta));
    }
  });

  it('keeps the reading of a well-formed listing, with totalPages derived', () => {
    const body = { success: true, data: [], timestamp: '2026-11-01T09:00:00Z', meta: { total: '7', page: 1, limit: 3 }, extra: 1 };
    expect(unwrapEnvelope(body, source)).toEqual({ data: [], timestamp: '2026-11-01T09:00:00Z', message: undefined, meta: { total: 7, page: 1, limit: 3, totalPages: 3 } });
  });
});
