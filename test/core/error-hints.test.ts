import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { hintFor, requestIdOf, sentLinesClassificationHint, summarizeBody } from '../../src/core/error-hints.js';

const BARE = 'has an invalid or missing classification code';
const line = (codes: Record<string, unknown>) => ({ description: 'x', quantity: 1, unitPrice: 1, taxRate: 7.5, ...codes });

describe('core/error-hints sentLinesClassificationHint', () => {
  it('names a line with neither code, both fields', () => {
    const hint = sentLinesClassificationHint(BARE, [line({ isicCode: '6202' }), line({ hsnCode: '  ', isicCode: null })]) ?? '';
    expect(hint).toMatch(/^From the lines sent: line 2 \(lines\[1\]\.hsnCode, lines\[1\]\.isicCode\) has neither code\. /);
    expect(hint).toContain('/api/v1/taxauth/hs-codes');
    expect(hint).toContain('/api/v1/taxauth/service-codes');
  });

  it('names only the field that holds a placeholder', () => {
    expect(sentLinesClassificationHint(BARE, [line({ hsnCode: '0000.00' })])).toContain('line 1 (lines[0].hsnCode) is the placeholder 0000.00');
    expect(sentLinesClassificationHint(BARE, [line({ isicCode: '0000' })])).toContain('line 1 (lines[0].isicCode) is the placeholder 0000');
    expect(sentLinesClassificationHint(BARE, [line({ isicCode: '0000.00' })])).toContain('(lines[0].isicCode) is the placeholder 0000.00');
  });

  it('names both fields when both codes are sent with different values, and not when they agree', () => {
    expect(sentLinesClassificationHint(BARE, [line({ hsnCode: '8471.30', isicCode: '6202' })])).toContain(
      'line 1 (lines[0].hsnCode, lines[0].isicCode) sends both codes with different values',
    );
    expect(sentLinesClassificationHint(BARE, [line({ hsnCode: '6202', isicCode: '6202' })])).toBeUndefined();
  });

  it('lists every faulty line at once', () => {
    const hint = sentLinesClassificationHint(BARE, [line({}), line({ isicCode: '6202' }), line({ hsnCode: '0000' })]) ?? '';
    expect(hint).toContain('line 1 (lines[0].hsnCode, lines[0].isicCode) has neither code; line 3 (lines[2].hsnCode) is the placeholder 0000.');
  });

  it('leaves the hint alone when the message is not about classification, names a line, or no line is at fault', () => {
    expect(sentLinesClassificationHint('dueDate must be a date', [line({})])).toBeUndefined();
    expect(sentLinesClassificationHint(undefined, [line({})])).toBeUndefined();
    expect(sentLinesClassificationHint(`lines.0.hsnCode ${BARE}`, [line({})])).toBeUndefined();
    expect(sentLinesClassificationHint(`Line 1 ${BARE}`, [line({})])).toBeUndefined();
    expect(sentLinesClassificationHint(BARE, [line({ hsnCode: '8471.30' })])).toBeUndefined();
    expect(sentLinesClassificationHint(BARE, 'not lines')).toBeUndefined();
  });
});

describe('core/error-hints', () => {
  it('reads a body nested deeper than real ones without exhausting the stack', () => {
    let body: unknown = 'deep words';
    for (let i = 0; i < 10_000; i += 1) body = { message: body };
    expect(summarizeBody(body)).toEqual({ message: undefined, code: undefined });
    expect(summarizeBody({ message: { message: { message: 'three levels' } } }).message).toBe('three levels');
  });

  it('reads a code from the body or from its error object, never from a status text', () => {
    expect(summarizeBody({ error: { code: 'E_NESTED', message: 'x' } })).toEqual({ message: 'x', code: 'E_NESTED' });
    expect(summarizeBody({ message: 'x', error: 'Bad Request' }).code).toBeUndefined();
    expect(summarizeBody(['a', { message: 'b' }, 3])).toEqual({ message: 'a; b', code: undefined });
  });

  it('takes the request id from x-request-id, then request-id, then x-correlation-id', () => {
    expect(requestIdOf(new Headers({ 'x-request-id': 'a', 'request-id': 'b', 'x-correlation-id': 'c' }))).toBe('a');
    expect(requestIdOf(new Headers({ 'request-id': 'b', 'x-correlation-id': 'c' }))).toBe('b');
    expect(requestIdOf(new Headers({ 'x-correlation-id': 'c' }))).toBe('c');
    expect(requestIdOf(new Headers())).toBeUndefined();
    expect(requestIdOf(undefined)).toBeUndefined();
  });

  it('gives no hint where the service document tells no cause', () => {
    for (const status of [409, 429, 500, 502, 418]) {
      expect(hintFor({ status, message: 'something', method: 'GET', path: '/api/v1/invoices' }), String(status)).toBeUndefined();
    }
    expect(hintFor({ status: 404, message: 'Invoice not found', method: 'GET', path: '/api/v1/invoices/x' })).toBeUndefined();
    expect(hintFor({ status: 400, message: 'dueDate must be a date', method: 'POST', path: '/api/v1/invoices' })).toBeUndefined();
  });

  it('does not reach the error classes (errors.ts imports this module, never the other way round)', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, '../../src/core/error-hints.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      packages: 'external',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/core/routes.ts');
    expect(inputs.filter((i) => i.includes('errors'))).toEqual([]);
  });
});
