import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { resolveFieldMap } from '../../src/model/field-map.js';
import {
  CanonicalInvoiceSchema,
  InvoiceSchema,
  InvoiceStatusSchema,
  invoiceSchemaFor,
  readInvoiceRecord,
} from '../../src/model/invoice.js';

describe('model/invoice', () => {
  describe('InvoiceSchema', () => {
    it('reads a stored record through the default aliases into the canonical invoice', () => {
      const raw = { _id: 'inv_1', invoiceStatus: 'Validated', netAmount: 100, totalTax: '7.50', totals: { total: 107.5 }, retryCount: 1 };
      expect(InvoiceSchema.parse(raw)).toEqual({
        id: 'inv_1',
        status: 'VALIDATED',
        rawStatus: 'Validated',
        subtotal: '100.00',
        taxTotal: '7.50',
        total: '107.50',
        updatedAt: undefined,
        errorMessage: undefined,
        recoveryAttempts: 1,
        attempts: 1,
        observedAt: undefined,
        raw,
      });
    });

    it('keeps the record itself, unknown fields and all, untouched as raw', () => {
      const raw = { id: 'inv_1', status: 'draft', currency: 'NGN', lines: [{ sku: 'A' }] };
      const before = structuredClone(raw);
      const invoice = InvoiceSchema.parse(raw);
      expect(invoice.raw).toBe(raw);
      expect(raw).toEqual(before);
    });

    it('fails at the id, naming the aliases it tried, when the record has no readable id', () => {
      const result = InvoiceSchema.safeParse({ status: 'draft', id: '  ' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['id']);
      expect(result.error?.issues[0]?.message).toMatch(/id, _id, invoiceId, uuid/);
    });

    it.each([null, 'inv_1', 42, [{ id: 'x' }]])('fails at the root for %j, which is not a record', (value) => {
      const result = InvoiceSchema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([]);
    });

    it('produces invoices that the canonical schema accepts', () => {
      const invoice = InvoiceSchema.parse({ uuid: 'u', state: 'in_progress', total: '1e2', updated_at: 1_795_000_000, error: [{ message: 'x' }] });
      expect(CanonicalInvoiceSchema.parse(invoice)).toEqual(invoice);
      expect(invoice).toMatchObject({ status: 'PROCESSING', total: '100.00', errorMessage: 'x' });
    });

    it('composes with user schemas', () => {
      const Batch = z.object({ invoices: z.array(InvoiceSchema) });
      const result = Batch.safeParse({ invoices: [{ id: 'a' }, { status: 'draft' }] });
      expect(result.error?.issues[0]?.path).toEqual(['invoices', 1, 'id']);
    });
  });

  describe('invoiceSchemaFor', () => {
    it('reads through a caller field map and reuses one schema per resolved map', () => {
      const map = resolveFieldMap({ total: 'amounts.gross', status: ['lifecycle.state'] });
      const Stored = invoiceSchemaFor(map);
      expect(invoiceSchemaFor(map)).toBe(Stored);
      expect(resolveFieldMap(map)).toBe(map);
      expect(Stored.parse({ id: 'x', total: 1, amounts: { gross: '9.99' }, lifecycle: { state: 'Signed' } })).toMatchObject({
        total: '9.99',
        status: 'SIGNED',
      });
    });

    it('treats recoveryAttempts and its deprecated name attempts as one field', () => {
      for (const map of [resolveFieldMap({ recoveryAttempts: 'tries' }), resolveFieldMap({ attempts: 'tries' })]) {
        expect(invoiceSchemaFor(map).parse({ id: 'x', tries: 2, attempts: 0 })).toMatchObject({ recoveryAttempts: 2, attempts: 2 });
      }
    });
  });

  describe('readInvoiceRecord', () => {
    it('gives the invoice stamped with observedAt', () => {
      const result = readInvoiceRecord({ id: 'inv_1', status: 'Accepted' }, { observedAt: '2026-11-21T10:00:00Z' });
      expect(result).toMatchObject({ ok: true, invoice: { id: 'inv_1', status: 'ACCEPTED', observedAt: '2026-11-21T10:00:00Z' } });
    });

    it('names the field it cannot read', () => {
      expect(readInvoiceRecord({ status: 'draft' })).toMatchObject({ ok: false, field: 'id' });
      expect(readInvoiceRecord('oops')).toMatchObject({ ok: false, field: '' });
    });

    it('uses the fallback id only when the record has none', () => {
      expect(readInvoiceRecord({ status: 'draft' }, { fallbackId: 'inv_9' })).toMatchObject({ ok: true, invoice: { id: 'inv_9' } });
      expect(readInvoiceRecord({ id: 'inv_1' }, { fallbackId: 'inv_9' })).toMatchObject({ ok: true, invoice: { id: 'inv_1' } });
      expect(readInvoiceRecord(null, { fallbackId: 'inv_9' })).toMatchObject({ ok: false });
    });
  });

  describe('InvoiceStatusSchema', () => {
    it('accepts the canonical members only', () => {
      expect(InvoiceStatusSchema.parse('CANCELLED')).toBe('CANCELLED');
      expect(InvoiceStatusSchema.safeParse('Cancelled').success).toBe(false);
    });
  });
});
