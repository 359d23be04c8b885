import { describe, expect, it } from 'vitest';
import { ListingMetaSchema } from '../../src/model/listing.js';

describe('model/listing', () => {
  it('reads the counts, digits included, and keeps unknown fields', () => {
    expect(ListingMetaSchema.parse({ total: 25, page: '2', limit: 10, totalPages: 3, cursor: 'c' })).toEqual({
      total: 25,
      page: 2,
      limit: 10,
      totalPages: 3,
      cursor: 'c',
    });
  });

  it('computes totalPages from total and limit only when it is missing', () => {
    expect(ListingMetaSchema.parse({ total: 25, limit: 10 }).totalPages).toBe(3);
    expect(ListingMetaSchema.parse({ total: 25, limit: 10, totalPages: 5 }).totalPages).toBe(5);
    expect(ListingMetaSchema.parse({ total: 25, limit: 0 }).totalPages).toBeUndefined();
  });

  it.each([
    [{ totalPages: -1 }, ['totalPages']],
    [{ page: 1.5 }, ['page']],
    [{ limit: 'ten' }, ['limit']],
    [{ total: 2 ** 60 }, ['total']],
  ])('refuses %j, naming the field', (meta, path) => {
    expect(ListingMetaSchema.safeParse(meta).error?.issues[0]?.path).toEqual(path);
  });
});
