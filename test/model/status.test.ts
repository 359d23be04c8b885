import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_RECOVERY,
  canTransition,
  hasPassed,
  isAfterSubmitted,
  isKnownStatus,
  isTerminalStatus,
  nextTransition,
  normalizeStatus,
  recoveryState,
  SERVICE_STATUS_SPELLING,
  statusRank,
  UNKNOWN_STATUS,
} from '../../src/model/status.js';

const NOT_STRINGS: unknown[] = [undefined, null, 0, 42, true, {}, [], Symbol('s'), () => 'draft'];

describe('model/status', () => {
  describe('normalizeStatus', () => {
    it.each([
      ['draft', 'DRAFT'],
      ['Draft', 'DRAFT'],
      [' DRAFT ', 'DRAFT'],
      ['Validated', 'VALIDATED'],
      ['signed', 'SIGNED'],
      ['SUBMITTED', 'SUBMITTED'],
      ['sub-mitted', 'SUBMITTED'],
      ['sub_mitted', 'SUBMITTED'],
      ['Sub mitted', 'SUBMITTED'],
      ['error', 'ERROR'],
    ])('reads %j as %s, whatever the case, spaces, dashes or underscores', (raw, canonical) => {
      expect(normalizeStatus(raw)).toBe(canonical);
    });

    it('keeps a status the document does not name as the server spelled it, trimmed', () => {
      expect(normalizeStatus(' Accepted ')).toBe('Accepted');
      expect(normalizeStatus('CLEARED_BY_AUTHORITY')).toBe('CLEARED_BY_AUTHORITY');
    });

    it('gives UNKNOWN for anything that is not a non-empty string, without throwing', () => {
      for (const value of [...NOT_STRINGS, '', '   ']) expect(normalizeStatus(value)).toBe(UNKNOWN_STATUS);
    });

    it('is idempotent on its own output', () => {
      for (const raw of ['draft', 'Validated', 'Accepted', undefined, 'UNKNOWN']) {
        const once = normalizeStatus(raw);
        expect(normalizeStatus(once)).toBe(once);
      }
    });
  });

  describe('isKnownStatus', () => {
    it('accepts only the canonical spelling of the five documented statuses', () => {
      expect(isKnownStatus('SIGNED')).toBe(true);
      expect(isKnownStatus('Signed')).toBe(false);
      expect(isKnownStatus('Accepted')).toBe(false);
      for (const value of NOT_STRINGS) expect(isKnownStatus(value)).toBe(false);
    });
  });

  describe('isAfterSubmitted and isTerminalStatus', () => {
    it('are true for statuses reached after Submitted, canonical or as the server spells them', () => {
      for (const status of ['Accepted', 'Rejected', 'cleared']) {
        expect(isAfterSubmitted(status)).toBe(true);
        expect(isTerminalStatus(status)).toBe(true);
      }
    });

    it('are false for the documented statuses in either spelling, ERROR included', () => {
      for (const status of [...Object.keys(SERVICE_STATUS_SPELLING), ...Object.values(SERVICE_STATUS_SPELLING)]) {
        expect(isAfterSubmitted(status), status).toBe(false);
        expect(isTerminalStatus(status), status).toBe(false);
      }
    });

    it('are false, and never throw, for unreadable values', () => {
      for (const value of [...NOT_STRINGS, '', UNKNOWN_STATUS]) {
        expect(isAfterSubmitted(value)).toBe(false);
        expect(isTerminalStatus(value)).toBe(false);
      }
    });
  });

  describe('statusRank', () => {
    it('orders the flow draft < validated < signed < submitted = error < after submitted', () => {
      expect(statusRank('draft')).toBe(0);
      expect(statusRank('Validated')).toBe(1);
      expect(statusRank('SIGNED')).toBe(2);
      expect(statusRank('Submitted')).toBe(3);
      expect(statusRank('Error')).toBe(3);
      expect(statusRank('Accepted')).toBe(4);
      expect(statusRank(undefined)).toBe(-1);
    });
  });

  describe('transitions', () => {
    it('allows each transition only from its documented statuses', () => {
      expect(canTransition('draft', 'validate')).toBe(true);
      expect(canTransition('Validated', 'sign')).toBe(true);
      expect(canTransition('Signed', 'submit')).toBe(true);
      expect(canTransition('Error', 'submit')).toBe(true);
      expect(canTransition('draft', 'sign')).toBe(false);
      expect(canTransition('Submitted', 'submit')).toBe(false);
      expect(canTransition('Accepted', 'validate')).toBe(false);
      expect(canTransition(null, 'validate')).toBe(false);
    });

    it('says a transition has passed once the invoice reached its target or beyond', () => {
      expect(hasPassed('Validated', 'validate')).toBe(true);
      expect(hasPassed('Signed', 'validate')).toBe(true);
      expect(hasPassed('Signed', 'submit')).toBe(false);
      expect(hasPassed('Error', 'submit')).toBe(true);
      expect(hasPassed('Accepted', 'sign')).toBe(true);
      expect(hasPassed(undefined, 'validate')).toBe(false);
    });

    it('names the next transition to send, and none once submitted or unreadable', () => {
      expect(nextTransition('draft')).toBe('validate');
      expect(nextTransition('Validated')).toBe('sign');
      expect(nextTransition('signed')).toBe('submit');
      for (const status of ['Submitted', 'Error', 'Accepted', undefined]) expect(nextTransition(status)).toBeUndefined();
    });
  });

  describe('recoveryState', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();

    it('is not applicable outside Error', () => {
      expect(recoveryState({ status: 'Submitted', updatedAt: hoursAgo(1) }, now)).toBe('not-applicable');
    });

    it('is in progress within 24 hours of the last touch and under 3 attempts, read from either spelling', () => {
      expect(recoveryState({ status: 'Error', updatedAt: hoursAgo(23.9), attempts: 2 }, now)).toBe('in-progress');
      expect(recoveryState({ status: 'ERROR', updatedAt: hoursAgo(0), attempts: 0 }, now)).toBe('in-progress');
    });

    it('is over once 3 attempts are used, or 24 hours after the last touch', () => {
      expect(recoveryState({ status: 'Error', updatedAt: hoursAgo(1), attempts: AUTOMATIC_RECOVERY.maxAttempts }, now)).toBe('over');
      expect(recoveryState({ status: 'Error', updatedAt: hoursAgo(24), attempts: 1 }, now)).toBe('over');
    });

    it('reads epoch seconds or milliseconds written as digits, as readInvoice reads them as numbers', () => {
      const seconds = (h: number) => String(Math.floor((now - h * 3_600_000) / 1000));
      const millis = (h: number) => String(now - h * 3_600_000);
      expect(recoveryState({ status: 'Error', updatedAt: seconds(25) }, now)).toBe('over');
      expect(recoveryState({ status: 'Error', updatedAt: ` ${millis(25)} ` }, now)).toBe('over');
      expect(recoveryState({ status: 'Error', updatedAt: seconds(1) }, now)).toBe('in-progress');
      expect(recoveryState({ status: 'Error', updatedAt: millis(1) }, now)).toBe('in-progress');
    });

    it('keeps waiting rather than re-submitting when the record has no readable timestamp', () => {
      expect(recoveryState({ status: 'Error', updatedAt: undefined }, now)).toBe('in-progress');
      expect(recoveryState({ status: 'Error', updatedAt: 'not a date' }, now)).toBe('in-progress');
    });
  });
});
