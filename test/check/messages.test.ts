import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../src/check/index.js';
import { withInvoice, withLine } from './fixtures.js';

const wrongType = (input: unknown) => checkInvoice(input).errors.find((i) => i.code === 'FIELD_WRONG_TYPE')?.message;

describe('check/messages', () => {
  it('names the type of a wrong-typed value once', () => {
    expect(wrongType(withInvoice({ dueDate: new Date('2026-12-31T00:00:00Z') }))).toBe(
      'dueDate must be a string (an ISO 8601 date-time), got a Date object.',
    );
    expect(wrongType(withLine({ quantity: 10n }))).toBe('lines[0].quantity must be a number or a decimal string such as "850.50", got 10n (a BigInt).');
    expect(wrongType(withLine({ quantity: 'abc' }))).toBe('lines[0].quantity must be a number or a decimal string such as "850.50", got a string "abc".');
    expect(wrongType(withLine({ description: 5 }))).toBe('lines[0].description must be a string, got the number 5.');
    expect(wrongType(withLine({ description: true }))).toBe('lines[0].description must be a string, got the boolean true.');
    expect(wrongType(withLine({ description: {} }))).toBe('lines[0].description must be a string, got an object.');
    expect(wrongType(withLine({ description: [1, 2] }))).toBe('lines[0].description must be a string, got an array of 2.');
  });
});
