import { describe, expect, it } from 'vitest';
import { classifyFailureMessage, describeFailure } from '../../src/filing/failure.js';

const HOUR = 60 * 60 * 1000;
const at = (iso: string) => Date.parse(iso);

describe('filing/failure', () => {
  describe('classifyFailureMessage', () => {
    it.each([
      'Access points are offline',
      'access point is offline for buyer 123',
      'Submission failed: the buyer access points are unavailable.',
      'ACCESS_POINTS offline',
    ])('recognises the offline access points message: %s', (message) => {
      expect(classifyFailureMessage(message)).toEqual({ kind: 'access-points-offline' });
    });

    it.each([
      ['Validation failed: buyer.tin is invalid', 'buyer.tin'],
      ["Validation error: field 'lines[0].hsnCode' is invalid", 'lines[0].hsnCode'],
      ['Validation error on field dueDate', 'dueDate'],
      ['"buyer.email" must be a valid email', 'buyer.email'],
      ['Invalid value for buyer.name.', 'buyer.name'],
      ['validation failed: field=buyer.tin', 'buyer.tin'],
    ])('names the field of a single-field validation error: %s', (message, field) => {
      expect(classifyFailureMessage(message)).toEqual({ kind: 'field-validation', field });
    });

    it('reads the field from a structured record before the message', () => {
      expect(classifyFailureMessage('Validation failed', { errors: [{ field: 'buyer.tin' }] })).toEqual({
        kind: 'field-validation',
        field: 'buyer.tin',
      });
      expect(classifyFailureMessage(undefined, { error: { path: ['lines', 0, 'taxRate'] } })).toEqual({
        kind: 'field-validation',
        field: 'lines.0.taxRate',
      });
    });

    it('keeps a validation error without a readable field as field-validation with no field', () => {
      expect(classifyFailureMessage('Validation error')).toEqual({ kind: 'field-validation' });
    });

    it('classifies anything else as unknown, including no message', () => {
      expect(classifyFailureMessage('Gateway exploded')).toEqual({ kind: 'unknown' });
      expect(classifyFailureMessage(undefined)).toEqual({ kind: 'unknown' });
    });
  });

  describe('describeFailure', () => {
    const base = { status: 'ERROR', errorMessage: 'Access points are offline', raw: {} };

    it('returns undefined for an invoice accepted or still on its way', () => {
      for (const status of ['SUBMITTED', 'PROCESSING', 'ACCEPTED', 'UNKNOWN']) {
        expect(describeFailure({ ...base, status, rawStatus: status === 'UNKNOWN' ? 'Registered' : undefined })).toBeUndefined();
      }
    });

    it('is a failure for every final status other than acceptance, with the service reason and a hint', () => {
      const rejected = describeFailure({ status: 'REJECTED', rawStatus: 'Declined', errorMessage: 'Validation failed: buyer.tin is invalid', raw: {} });
      expect(rejected).toMatchObject({ kind: 'rejected', message: 'Validation failed: buyer.tin is invalid', field: 'buyer.tin', recovery: 'not-applicable', resubmitRequired: false });
      expect(rejected?.hint).toMatch(/not filed.*buyer\.tin.*new invoice/);
      expect(describeFailure({ status: 'CANCELLED', raw: {} })).toMatchObject({ kind: 'cancelled', message: '(the service sent no error message)' });
      // A status the SDK does not know is a failure only once finalStatuses names it.
      const archived = { status: 'UNKNOWN', rawStatus: 'Archived', raw: {} };
      expect(describeFailure(archived)).toBeUndefined();
      expect(describeFailure(archived, undefined, { finalStatuses: ['ACCEPTED', 'Archived'] })).toMatchObject({ kind: 'not-accepted' });
      // A rejection is one whatever the list says.
      expect(describeFailure({ status: 'REJECTED', raw: {} }, undefined, { finalStatuses: ['ACCEPTED'] })?.kind).toBe('rejected');
    });

    it('says which evidence the recovery verdict rests on', () => {
      const noCount = { ...base, updatedAt: '2026-01-01T00:00:00Z' };
      expect(describeFailure(noCount, at('2026-01-01T00:05:00Z'))).toMatchObject({ recovery: 'in-progress', recoveryEvidence: 'quiet' });
      const over = describeFailure(noCount, at('2026-01-01T00:11:00Z'));
      expect(over).toMatchObject({ recovery: 'over', recoveryEvidence: 'quiet', resubmitRequired: true });
      expect(over?.hint).toMatch(/judged from the time since the last touch/);
      expect(describeFailure({ ...noCount, attempts: 1 }, at('2026-01-01T00:11:00Z'))).toMatchObject({ recovery: 'in-progress', recoveryEvidence: 'attempts' });
    });

    it('says recovery is in progress, and no re-submit is needed, within 24 h and under 3 attempts', () => {
      const failure = describeFailure(
        { ...base, updatedAt: '2026-01-01T00:00:00Z', attempts: 1 },
        at('2026-01-01T00:05:00Z'),
      );
      expect(failure).toMatchObject({ kind: 'access-points-offline', recovery: 'in-progress', resubmitRequired: false, attempts: 1 });
      expect(failure?.hint).toMatch(/buyer's provider must recover/);
      expect(failure?.hint).toMatch(/do not submit/);
    });

    it('says a deliberate re-submit is needed once 3 attempts are used', () => {
      const failure = describeFailure({ ...base, updatedAt: '2026-01-01T00:00:00Z', attempts: 3 }, at('2026-01-01T00:01:00Z'));
      expect(failure).toMatchObject({ recovery: 'over', resubmitRequired: true });
      expect(failure?.hint).toMatch(/deliberate re-submit/);
    });

    it('judges the 24-hour window on the server clock (observedAt), not the local one', () => {
      const invoice = { ...base, updatedAt: '2026-01-01T00:00:00Z', attempts: 1, observedAt: '2026-01-02T00:00:01Z' };
      // The local clock (Date.now()) is years away; only observedAt counts.
      expect(describeFailure(invoice)?.recovery).toBe('over');
      expect(describeFailure({ ...invoice, observedAt: new Date(at('2026-01-01T00:00:00Z') + 23 * HOUR).toISOString() })?.recovery).toBe(
        'in-progress',
      );
    });

    it('names the field and warns that fixing it may reveal the next one', () => {
      const failure = describeFailure(
        { status: 'ERROR', errorMessage: 'Validation failed: buyer.tin is invalid', updatedAt: '2026-01-01T00:00:00Z', attempts: 3, raw: {} },
        at('2026-01-01T00:30:00Z'),
      );
      expect(failure).toMatchObject({ kind: 'field-validation', field: 'buyer.tin', resubmitRequired: true });
      expect(failure?.hint).toMatch(/buyer\.tin/);
      expect(failure?.hint).toMatch(/may reveal the next/);
    });

    it('does not advise re-submitting a field-validation failure while automatic recovery is in progress', () => {
      const failure = describeFailure(
        { status: 'ERROR', errorMessage: 'Validation failed: buyer.tin is invalid', updatedAt: '2026-01-01T00:00:00Z', attempts: 1, raw: {} },
        at('2026-01-01T00:05:00Z'),
      );
      expect(failure).toMatchObject({ kind: 'field-validation', field: 'buyer.tin', recovery: 'in-progress', resubmitRequired: false });
      expect(failure?.hint).not.toMatch(/then re-submit/);
      expect(failure?.hint).toMatch(/do not submit/);
      // It cannot be fixed in place: the corrected document is a new invoice under the next revision.
      expect(failure?.hint).toMatch(/stays in Error/);
      expect(failure?.hint).toMatch(/revision/);
    });

    it.each(['Error', 'error', ' ERROR '])('reads an invoice whose status is spelled %s as in Error', (status) => {
      const failure = describeFailure({ ...base, status, updatedAt: '2026-01-01T00:00:00Z', attempts: 3 }, at('2026-01-01T00:31:00Z'));
      expect(failure).toMatchObject({ kind: 'access-points-offline', recovery: 'over', resubmitRequired: true });
    });
  });
});
