import { describe, expect, it } from 'vitest';
import { checkInvoice } from '../../../src/check/index.js';
import { withInvoice } from '../fixtures.js';

const issues = (dueDate: unknown) => {
  const r = checkInvoice(withInvoice({ dueDate }));
  return [...r.errors, ...r.warnings];
};

describe('check/rules/due-date', () => {
  it('accepts ISO 8601 date-times with Z or an offset, with or without fractions', () => {
    for (const d of [
      '2026-12-31T00:00:00Z',
      '2026-12-31T23:59:59.999Z',
      '2026-12-31T10:00:00+01:00',
      '2026-12-31T10:00:00-05:30',
      '2026-12-31T10:00Z',
      '2024-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
    ]) {
      expect(issues(d), d).toEqual([]);
    }
  });

  it('reports a bare date and suggests a full date-time', () => {
    const [i] = issues('2026-12-31');
    expect(i?.code).toBe('DUE_DATE_NOT_DATE_TIME');
    expect(i?.hint).toContain('2026-12-31T00:00:00Z');
  });

  it('reports dates and times that do not exist, and says why', () => {
    const cases: [string, string][] = [
      ['2026-02-29T00:00:00Z', 'February 2026 has 28 days'],
      ['1900-02-29T00:00:00Z', 'February 1900 has 28 days'],
      ['2026-04-31T00:00:00Z', 'April 2026 has 30 days'],
      ['2026-13-01T00:00:00Z', 'no month 13'],
      ['2026-12-31T24:00:00Z', 'hour 24'],
      ['2026-12-31T10:60:00Z', 'minute 60'],
      ['2026-12-31T10:00:61Z', 'second 61'],
      ['2026-12-31T10:00:00+25:00', 'offset'],
    ];
    for (const [d, why] of cases) {
      const [i] = issues(d);
      expect(i?.code, d).toBe('DUE_DATE_INVALID');
      expect(i?.message, d).toContain(why);
    }
  });

  it('reports other date spellings as invalid', () => {
    for (const d of ['31/12/2026', 'tomorrow', '2026-12-31 00:00:00Z', '', '20261231T000000Z']) {
      expect(issues(d)[0]?.code, d).toBe('DUE_DATE_INVALID');
    }
    expect(issues('2026-12-31 10:00:00')[0]?.hint).toContain('2026-12-31T10:00:00Z');
    expect(issues(' 2026-12-31T00:00:00Z')[0]?.hint).toContain('"2026-12-31T00:00:00Z"');
  });

  it('warns when no offset is given', () => {
    const [i] = issues('2026-12-31T00:00:00');
    expect(i).toMatchObject({ code: 'DUE_DATE_NO_OFFSET', severity: 'warning' });
    expect(i?.hint).toContain('2026-12-31T00:00:00Z');
  });

  it('tells a caller passing a Date object to send toISOString()', () => {
    const [i] = issues(new Date('2026-12-31T00:00:00Z'));
    expect(i?.code).toBe('FIELD_WRONG_TYPE');
    expect(i?.hint).toContain('"2026-12-31T00:00:00.000Z"');
  });

  it('reports a missing due date as required', () => {
    expect(issues(undefined)[0]?.code).toBe('FIELD_REQUIRED');
    expect(issues(null)[0]?.message).toContain('null');
  });
});
