import { describe, expect, it } from 'vitest';
import { checkInvoice, formatIssuePath, type CheckOptions } from '../../src/check/index.js';
import { validInvoice } from './fixtures.js';

const optionIssues = (opts: CheckOptions) =>
  checkInvoice(validInvoice(), opts).errors.map((i) => [i.code, formatIssuePath(i.path), i.message]);

describe('check/options', () => {
  it('states the real range of each numeric option', () => {
    for (const minorUnits of [13, 2000, 1.5, -1]) {
      expect(optionIssues({ minorUnits }), String(minorUnits)).toEqual([
        ['OPTION_INVALID', 'options.minorUnits', `Option options.minorUnits is ${minorUnits}; expected an integer from 0 to 12.`],
      ]);
    }
    expect(optionIssues({ minCategoryLength: 1001 })[0]?.[2]).toContain('expected an integer from 0 to 1000');
    expect(optionIssues({ minTinLength: 2.5 })[0]?.[2]).toContain('expected an integer from 0 to 1000');
    expect(optionIssues({ minorUnits: 12 })).toEqual([]);
  });
});
