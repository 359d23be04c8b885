import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAP, readInvoice, resolveFieldMap } from '../../src/model/field-map.js';

const read = (record: unknown, fieldMap = DEFAULT_FIELD_MAP, extra: { observedAt?: string; fallbackId?: string } = {}) =>
  readInvoice(record, { fieldMap, ...extra });

describe('model/field-map', () => {
  it('reads past a blank id or status to the next alias instead of losing the record', () => {
    expect(read({ id: '', _id: 'inv_9', status: 'Signed' })).toMatchObject({ id: 'inv_9', status: 'SIGNED' });
    expect(read({ id: '  ', invoiceId: 7, state: 'Draft' })?.id).toBe('7');
    expect(read({ id: 'inv_1', status: ' ', invoiceStatus: 'Validated' })).toMatchObject({ status: 'VALIDATED', rawStatus: 'Validated' });
    expect(read({ id: 'inv_1', status: '' })).toMatchObject({ status: 'UNKNOWN', rawStatus: undefined });
    expect(read({ id: '', _id: '' })).toBeUndefined();
  });

  it('reads the canonical names', () => {
    const raw = {
      id: 'inv_1',
      status: 'Validated',
      subtotal: 100,
      taxTotal: '7.50',
      total: 107.5,
      updatedAt: '2026-11-21T10:00:00Z',
      errorMessage: null,
      attempts: 2,
    };
    expect(read(raw, DEFAULT_FIELD_MAP, { observedAt: '2026-11-21T10:00:01Z' })).toEqual({
      id: 'inv_1',
      status: 'VALIDATED',
      rawStatus: 'Validated',
      subtotal: '100.00',
      taxTotal: '7.50',
      total: '107.50',
      updatedAt: '2026-11-21T10:00:00Z',
      errorMessage: undefined,
      recoveryAttempts: 2,
      attempts: 2,
      observedAt: '2026-11-21T10:00:01Z',
      raw,
    });
  });

  it.each([
    ['id', { _id: 'a' }, 'a'],
    ['id', { invoiceId: 'b' }, 'b'],
    ['id', { uuid: 'c' }, 'c'],
    ['id', { id: 42 }, '42'],
    ['status', { id: 'x', invoiceStatus: 'SIGNED' }, 'SIGNED'],
    ['status', { id: 'x', state: 'sub-mitted' }, 'SUBMITTED'],
    ['subtotal', { id: 'x', subTotal: 1 }, '1.00'],
    ['subtotal', { id: 'x', netAmount: '2.00' }, '2.00'],
    ['subtotal', { id: 'x', totals: { subtotal: 3 } }, '3.00'],
    ['taxTotal', { id: 'x', taxAmount: 1 }, '1.00'],
    ['taxTotal', { id: 'x', totalTax: 2 }, '2.00'],
    ['taxTotal', { id: 'x', vatAmount: 3 }, '3.00'],
    ['taxTotal', { id: 'x', totals: { tax: 4 } }, '4.00'],
    ['total', { id: 'x', totalAmount: 1 }, '1.00'],
    ['total', { id: 'x', grandTotal: 2 }, '2.00'],
    ['total', { id: 'x', totals: { total: 3 } }, '3.00'],
    ['dueDate', { id: 'x', due_date: '2026-12-31T00:00:00Z' }, '2026-12-31T00:00:00Z'],
    ['updatedAt', { id: 'x', updated_at: 'u' }, 'u'],
    ['updatedAt', { id: 'x', lastModified: 'l' }, 'l'],
    ['errorMessage', { id: 'x', error: 'Access points are offline' }, 'Access points are offline'],
    ['errorMessage', { id: 'x', failureReason: { message: 'buyer.tin invalid' } }, 'buyer.tin invalid'],
    ['errorMessage', { id: 'x', message: 'm' }, 'm'],
    ['attempts', { id: 'x', attemptCount: 3 }, 3],
    ['attempts', { id: 'x', retryCount: '1' }, 1],
    ['attempts', { id: 'x', retries: 0 }, 0],
    ['attempts', { id: 'x', submissionAttempts: [{}, {}] }, 2],
    ['attempts', { id: 'x', submitAttempts: 1 }, 1],
  ])('reads %s through the alias in %j', (field, record, expected) => {
    expect(read(record)?.[field as 'id']).toBe(expected);
  });

  it('gives money with two decimals, exactly, and never rounds digits away', () => {
    const totals = (subtotal: unknown, taxTotal: unknown, total: unknown) => {
      const invoice = read({ id: 'x', subtotal, taxTotal, total });
      return [invoice?.subtotal, invoice?.taxTotal, invoice?.total];
    };
    expect(totals(1836, 9.3, '0.1')).toEqual(['1836.00', '9.30', '0.10']);
    expect(totals('1828.90', ' 258 ', -5)).toEqual(['1828.90', '258.00', '-5.00']);
    expect(totals('107.500', 1e21, '0.125')).toEqual(['107.50', '1000000000000000000000.00', '0.125']);
    expect(totals(0.1 + 0.2, '-0', '1e-3')).toEqual(['0.30000000000000004', '0.00', '0.001']);
    expect(totals('N/A', null, '1e999999999')).toEqual([undefined, undefined, undefined]);
  });

  it('types the buyer, the lines and the due date, keeping the record untouched in raw', () => {
    const raw = {
      id: 'x',
      buyer: { type: 'B2B', tin: '20456789-0001', name: 'Buyer Ltd', email: 7, extra: true },
      dueDate: '2026-12-31T00:00:00Z',
      lines: [
        { description: 'Laptop', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30', discountRate: '10', sku: 'L-1' },
        { description: 'Setup', quantity: '3', unitPrice: '0.125', taxRate: 0, isicCode: '6201', serviceCategory: 'IT services' },
        'not a line',
        { quantity: 'many', unitPrice: null, description: 5 },
      ],
    };
    const copy = structuredClone(raw);
    const invoice = read(raw);
    expect(invoice?.buyer).toEqual({ type: 'B2B', tin: '20456789-0001', name: 'Buyer Ltd' });
    expect(invoice?.dueDate).toBe('2026-12-31T00:00:00Z');
    expect(invoice?.lines).toEqual([
      { description: 'Laptop', quantity: '2', unitPrice: '850.50', taxRate: '7.5', hsnCode: '8471.30', discountRate: '10', sku: 'L-1' },
      { description: 'Setup', quantity: '3', unitPrice: '0.125', taxRate: '0', isicCode: '6201', serviceCategory: 'IT services' },
      {},
      {},
    ]);
    expect(invoice?.raw).toBe(raw);
    expect(raw).toEqual(copy);
  });

  it('reads an odd buyer, lines or due date as absent, never a crash', () => {
    for (const odd of [null, 'B2B', 42, [], true]) {
      const invoice = read({ id: 'x', buyer: odd, lines: odd === null ? null : { 0: odd } });
      expect(invoice?.buyer).toBeUndefined();
      expect(invoice?.lines).toBeUndefined();
    }
    expect(read({ id: 'x', dueDate: 1767225600 })?.dueDate).toBe('2026-01-01T00:00:00.000Z');
    for (const odd of ['', ' ', true, {}, null]) expect(read({ id: 'x', dueDate: odd })?.dueDate).toBeUndefined();
    expect(read({ id: 'x', items: [{ description: 'a' }] })?.lines).toEqual([{ description: 'a' }]);
    expect(read({ id: 'x', order: { buyer: { tin: 't' } } }, resolveFieldMap({ buyer: 'order.buyer' }))?.buyer).toEqual({ tin: 't' });
  });

  it('prefers a literal dotted key over the nested path', () => {
    expect(read({ id: 'x', 'totals.total': 5, totals: { total: 6 } })?.total).toBe('5.00');
  });

  it('never crashes on an unknown status, and keeps it as sent in rawStatus', () => {
    expect(read({ id: 'x', status: 'Accepted' })).toMatchObject({ status: 'ACCEPTED', rawStatus: 'Accepted' });
    expect(read({ id: 'x', status: 'Registered' })).toMatchObject({ status: 'UNKNOWN', rawStatus: 'Registered' });
    expect(read({ id: 'x', status: 7 })).toMatchObject({ status: 'UNKNOWN', rawStatus: undefined });
    expect(read({ id: 'x' })).toMatchObject({ status: 'UNKNOWN' });
  });

  it('leaves unreadable amounts undefined and keeps the raw record untouched', () => {
    const raw = { id: 'x', total: 'N/A', subtotal: { amount: 1 } };
    const invoice = read(raw);
    expect(invoice).toMatchObject({ total: undefined, subtotal: undefined });
    expect(invoice?.raw).toBe(raw);
  });

  it('reads epoch timestamps as ISO strings', () => {
    expect(read({ id: 'x', updatedAt: 1_795_000_000 })?.updatedAt).toBe(new Date(1_795_000_000_000).toISOString());
    expect(read({ id: 'x', updatedAt: 1_795_000_000_000 })?.updatedAt).toBe(new Date(1_795_000_000_000).toISOString());
    // Written as digits, the same rule: new Date('1795000000') would not read it.
    expect(read({ id: 'x', updatedAt: '1795000000' })?.updatedAt).toBe(new Date(1_795_000_000_000).toISOString());
    expect(read({ id: 'x', updatedAt: ' 1795000000000 ' })?.updatedAt).toBe(new Date(1_795_000_000_000).toISOString());
    expect(read({ id: 'x', updatedAt: '2026-11-21' })?.updatedAt).toBe('2026-11-21');
  });

  it('gives undefined for a record without an id unless a fallback is given', () => {
    expect(read({ status: 'draft' })).toBeUndefined();
    expect(read({ status: 'draft' }, DEFAULT_FIELD_MAP, { fallbackId: 'inv_9' })?.id).toBe('inv_9');
    expect(read(null)).toBeUndefined();
    expect(read([{ id: 'x' }])).toBeUndefined();
    expect(read('inv_1')).toBeUndefined();
  });

  it('reads through a caller field map, which replaces the defaults of the fields it names', () => {
    const map = resolveFieldMap({ total: 'amounts.gross', status: ['lifecycle.state'] });
    const invoice = read({ id: 'x', total: 1, amounts: { gross: '9.99' }, status: 'draft', lifecycle: { state: 'Signed' } }, map);
    expect(invoice).toMatchObject({ total: '9.99', status: 'SIGNED', id: 'x' });
  });
});
