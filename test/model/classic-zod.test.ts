/**
 * The exported schemas are zod/mini schemas; a user's classic zod composes them, and the migration
 * the changeset documents for chained classic methods works as written.
 */
import * as z from 'zod';
import * as zm from 'zod/mini';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiKeyCreateParamsSchema } from '../../src/model/api-key.js';
import { InvoiceCreateParamsSchema, type InvoiceCreateParams } from '../../src/model/invoice-input.js';
import { InvoiceSchema, type Invoice } from '../../src/model/invoice.js';
import { EnvelopeSchema } from '../../src/model/listing.js';

const invoice = {
  businessId: 'biz_1',
  buyer: { type: 'B2B', tin: '12345678-0001' },
  dueDate: '2026-12-31T00:00:00Z',
  lines: [{ description: 'Widget', quantity: 2, unitPrice: '9.99', taxRate: 7.5, hsnCode: '8471.30' }],
};

describe('model schemas inside classic zod', () => {
  const Job = z.object({ invoice: InvoiceCreateParamsSchema, externalRef: z.string() });

  it('parses a valid value through z.object({ invoice: InvoiceCreateParamsSchema }), unknown fields kept', () => {
    const parsed = Job.parse({ invoice: { ...invoice, currency: 'NGN' }, externalRef: 'ERP-1' });
    expect(parsed.invoice).toEqual({ ...invoice, currency: 'NGN' });
    expectTypeOf(parsed.invoice).toExtend<InvoiceCreateParams>();
  });

  it.each([
    ['no lines', { ...invoice, lines: [] }, ['invoice', 'lines']],
    ['a buyer type outside B2B, B2C, B2G', { ...invoice, buyer: { type: 'B2X' } }, ['invoice', 'buyer', 'type']],
    ['a unitPrice with an exponent', { ...invoice, lines: [{ ...invoice.lines[0], unitPrice: '1e3' }] }, ['invoice', 'lines', 0, 'unitPrice']],
  ])('fails %s at the path inside the user schema', (_label, value, path) => {
    const result = Job.safeParse({ invoice: value, externalRef: 'ERP-1' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('runs the schemas’ own refinements and transforms inside the user schema', () => {
    const Keys = z.object({ key: ApiKeyCreateParamsSchema });
    const business = { name: 'ci', type: 'LIVE', keyableType: 'BUSINESS', scopes: ['*'] };
    expect(Keys.safeParse({ key: business }).error?.issues.map((issue) => issue.path)).toEqual([['key', 'businessId']]);
    const Batch = z.object({ invoices: z.array(InvoiceSchema), envelope: EnvelopeSchema });
    const parsed = Batch.parse({ invoices: [{ _id: 'inv_1', invoiceStatus: 'Validated' }], envelope: { success: true, data: [], meta: { total: 7, limit: 3 } } });
    expect(parsed.invoices[0]).toMatchObject({ id: 'inv_1', status: 'VALIDATED' });
    expect(parsed.envelope.meta?.totalPages).toBe(3);
    expectTypeOf(parsed.invoices[0]!).toEqualTypeOf<Invoice>();
  });

  it('has no classic methods; the documented wrappers replace them', () => {
    expect('optional' in InvoiceCreateParamsSchema).toBe(false);
    expect('extend' in InvoiceCreateParamsSchema).toBe(false);
    expectTypeOf(InvoiceCreateParamsSchema).not.toExtend<z.ZodType>();
    expectTypeOf(InvoiceCreateParamsSchema).toExtend<z.core.$ZodType>();

    const Maybe = z.optional(InvoiceCreateParamsSchema);
    expect(Maybe.safeParse(undefined).success).toBe(true);
    expect(Maybe.safeParse({ ...invoice, lines: [] }).error?.issues[0]?.path).toEqual(['lines']);

    const withNote = { ...invoice, note: 'rush' };
    const Classic = z.looseObject({ ...InvoiceCreateParamsSchema.shape, note: z.string() });
    const Mini = zm.extend(InvoiceCreateParamsSchema, { note: zm.string() });
    for (const Extended of [Classic, Mini]) {
      expect(Extended.parse(withNote)).toEqual(withNote);
      expect(Extended.safeParse(invoice).error?.issues[0]?.path).toEqual(['note']);
      expect(Extended.safeParse({ ...withNote, buyer: { type: 'B2X' } }).error?.issues[0]?.path).toEqual(['buyer', 'type']);
    }
    expectTypeOf(Mini.parse(withNote).note).toEqualTypeOf<string>();
    expectTypeOf(Classic.parse(withNote).note).toEqualTypeOf<string>();
  });
});
