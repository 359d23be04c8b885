import { describe, expect, it } from 'vitest';
import { sentLinesClassificationHint } from '../../../src/core/errors/hints.js';

const BARE = 'has an invalid or missing classification code';
const line = (codes: Record<string, unknown>) => ({ description: 'x', quantity: 1, unitPrice: 1, taxRate: 7.5, ...codes });

describe('core/errors/hints sentLinesClassificationHint', () => {
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
