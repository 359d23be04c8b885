import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import * as classic from 'zod';
import * as z from 'zod/mini';
import { lazySchema } from '../../src/model/lazy.js';
import { BuyerTypeSchema, CanonicalInvoiceSchema, InvoiceLineSchema } from '../../src/index.js';

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    const build = vi.fn(() => z.object({ id: z.string() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse({ id: 'a' })).toEqual({ id: 'a' });
    expect(schema.safeParse({ id: 1 }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('is the built schema for instanceof, shape, keys and checks', () => {
    const schema = lazySchema(() => z.object({ id: z.string(), n: z.optional(z.number()) }));
    expect(schema instanceof z.ZodMiniObject).toBe(true);
    expect(schema instanceof z.core.$ZodType).toBe(true);
    expect(Object.keys(schema.shape)).toEqual(['id', 'n']);
    expect('parse' in schema).toBe(true);
    expect(schema.check(z.refine((v) => v.id !== 'x')).safeParse({ id: 'x' }).success).toBe(false);
  });

  it('shows the built schema to Object.keys, JSON.stringify and util.inspect', () => {
    const built = z.object({ id: z.string() });
    const schema = lazySchema(() => built);
    expect(Object.keys(schema)).toEqual(Object.keys(built));
    expect(JSON.stringify(schema)).toBe(JSON.stringify(built));
    expect(inspect(schema, { depth: 1 })).toBe(inspect(built, { depth: 1 }));
  });

  it('composes inside zod/mini and classic zod schemas', () => {
    const line = { description: 'Consulting', quantity: 1, unitPrice: 150, taxRate: 7.5, isicCode: '6202' };
    expect(z.array(InvoiceLineSchema).parse([line])).toEqual([line]);
    const Job = classic.object({ line: InvoiceLineSchema, ref: classic.string() });
    expect(Job.parse({ line, ref: 'r1' }).line).toEqual(line);
    expect(Job.safeParse({ line: { ...line, description: 3 }, ref: 'r1' }).error?.issues[0]?.path).toEqual(['line', 'description']);
  });

  it('registers itself, so a registry and toJSONSchema see the schema users hold', () => {
    const registry = z.registry<{ id: string; description: string }>();
    expect(BuyerTypeSchema.register(registry, { id: 'BuyerType', description: 'who buys' })).toBe(BuyerTypeSchema);
    expect(registry.get(BuyerTypeSchema)).toEqual({ id: 'BuyerType', description: 'who buys' });
    const json = z.toJSONSchema(z.object({ buyerType: BuyerTypeSchema }), { metadata: registry }) as { $defs?: Record<string, unknown> };
    expect(json.$defs?.BuyerType).toMatchObject({ description: 'who buys', enum: ['B2B', 'B2C', 'B2G'] });
  });

  it('refuses to be frozen rather than break later', () => {
    const schema = lazySchema(() => z.object({ id: z.string() }));
    expect(() => Object.freeze(schema)).toThrow(TypeError);
    expect(Object.keys(schema)).toEqual(Object.keys(z.object({ id: z.string() })));
    expect(schema.parse({ id: 'a' })).toEqual({ id: 'a' });
  });

  it('keeps the exported schemas working as before', () => {
    const invoice = CanonicalInvoiceSchema.parse({ id: 'inv_1', status: 'ACCEPTED', total: '107.50', raw: {} });
    expect(invoice.total).toBe('107.50');
    expect(CanonicalInvoiceSchema.safeParse({ id: '', status: 'ACCEPTED', raw: {} }).success).toBe(false);
  });
});
