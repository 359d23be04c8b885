import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_RECOVERY,
  canTransition,
  DEFAULT_FINAL_STATUSES,
  hasPassed,
  InvoiceStatus,
  isFinalStatus,
  isAfterSubmitted,
  isTerminalStatus,
  matchesStatus,
  nextTransition,
  normalizeStatus,
  recoveryState,
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

    it.each([
      ['Processing', 'PROCESSING'],
      ['in_progress', 'PROCESSING'],
      ['In Progress', 'PROCESSING'],
      ['pending', 'PROCESSING'],
      [' Accepted ', 'ACCEPTED'],
      ['approved', 'ACCEPTED'],
      ['Cleared', 'ACCEPTED'],
      ['REJECTED', 'REJECTED'],
      ['declined', 'REJECTED'],
      ['Cancelled', 'CANCELLED'],
      ['canceled', 'CANCELLED'],
      ['voided', 'CANCELLED'],
    ])('reads the status after Submitted %j as %s', (raw, canonical) => {
      expect(normalizeStatus(raw)).toBe(canonical);
    });

    it('gives the catch-all UNKNOWN for a spelling it does not recognise', () => {
      expect(normalizeStatus('CLEARED_BY_AUTHORITY')).toBe(UNKNOWN_STATUS);
      expect(normalizeStatus('Accepted-Pending')).toBe(UNKNOWN_STATUS);
      expect(normalizeStatus('toString')).toBe(UNKNOWN_STATUS);
      expect(normalizeStatus('__proto__')).toBe(UNKNOWN_STATUS);
    });

    it('has a closed union type: a typo fails to compile and a switch over every member is exhaustive', () => {
      // @ts-expect-error: not a member of InvoiceStatus
      const typo: InvoiceStatus = 'ACCEPTD';
      const label = (status: InvoiceStatus): string => {
        switch (status) {
          case 'DRAFT': case 'VALIDATED': case 'SIGNED': case 'SUBMITTED': case 'ERROR': case 'PROCESSING':
            return 'open';
          case 'ACCEPTED': case 'REJECTED': case 'CANCELLED':
            return 'final';
          case 'UNKNOWN':
            return 'unknown';
          default: {
            const never: never = status;
            return never;
          }
        }
      };
      expect(label(normalizeStatus('Cleared'))).toBe('final');
      expect(label(normalizeStatus(typo))).toBe('unknown');
    });

    it('returns only members of the closed InvoiceStatus union', () => {
      const members = new Set(Object.values(InvoiceStatus));
      for (const raw of ['draft', 'Accepted', 'weird', '', undefined, 7]) expect(members.has(normalizeStatus(raw))).toBe(true);
      expect(InvoiceStatus.UNKNOWN).toBe(UNKNOWN_STATUS);
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

  describe('isAfterSubmitted', () => {
    it('is true for statuses reached after Submitted, canonical or as the server spells them, unrecognised ones included', () => {
      for (const status of ['Accepted', 'Rejected', 'cleared', 'PROCESSING', 'CANCELLED', 'CLEARED_BY_AUTHORITY']) {
        expect(isAfterSubmitted(status), status).toBe(true);
      }
    });

    it('is false for the documented statuses in either spelling, ERROR included', () => {
      for (const status of ['DRAFT', 'VALIDATED', 'SIGNED', 'SUBMITTED', 'ERROR', 'draft', 'Validated', 'Signed', 'Submitted', 'Error']) {
        expect(isAfterSubmitted(status), status).toBe(false);
      }
    });

    it('is false, and never throws, for unreadable values and the catch-all', () => {
      for (const value of [...NOT_STRINGS, '', ' ', UNKNOWN_STATUS, 'unknown']) expect(isAfterSubmitted(value)).toBe(false);
    });
  });

  describe('isFinalStatus and isTerminalStatus', () => {
    it('are true for the default final statuses in any spelling', () => {
      expect(DEFAULT_FINAL_STATUSES).toEqual(['ACCEPTED', 'REJECTED', 'CANCELLED']);
      for (const status of ['Accepted', 'ACCEPTED', 'cleared', 'Rejected', 'declined', 'canceled', 'Voided']) {
        expect(isFinalStatus(status), status).toBe(true);
        expect(isTerminalStatus(status), status).toBe(true);
      }
    });

    it('are false for PROCESSING, ERROR, the documented statuses and unrecognised statuses after Submitted', () => {
      for (const status of ['Processing', 'pending', 'ERROR', 'Error', 'draft', 'Submitted', 'CLEARED_BY_AUTHORITY', UNKNOWN_STATUS]) {
        expect(isFinalStatus(status), status).toBe(false);
        expect(isTerminalStatus(status), status).toBe(false);
      }
    });

    it('are false, and never throw, for unreadable values', () => {
      for (const value of [...NOT_STRINGS, '', '  ']) {
        expect(isFinalStatus(value)).toBe(false);
        expect(isTerminalStatus(value)).toBe(false);
      }
    });

    it('take a list of canonical statuses or server spellings, matched folded', () => {
      expect(isFinalStatus('Accepted', ['ACCEPTED'])).toBe(true);
      expect(isFinalStatus('Rejected', ['ACCEPTED'])).toBe(false);
      expect(isFinalStatus('Registered', ['registered'])).toBe(true);
      expect(isFinalStatus('Registered-By-Authority', ['registered by authority'])).toBe(true);
      expect(isFinalStatus('Registered', ['Registered-Pending'])).toBe(false);
      expect(isFinalStatus('Processing', ['in_progress'])).toBe(true);
      expect(isTerminalStatus('Registered', ['REGISTERED'])).toBe(true);
      expect(isFinalStatus('Accepted', [])).toBe(false);
    });
  });

  describe('matchesStatus', () => {
    it('matches a recognised status in any spelling and an unrecognised one by its own folded spelling', () => {
      expect(matchesStatus('Validated', ['VALIDATED'])).toBe(true);
      expect(matchesStatus('approved', ['Cleared'])).toBe(true);
      expect(matchesStatus('Accepted-Pending', ['accepted pending'])).toBe(true);
      expect(matchesStatus('Accepted-Pending', ['ACCEPTED'])).toBe(false);
      expect(matchesStatus('Frobnicated', ['UNKNOWN'])).toBe(false);
      expect(matchesStatus(undefined, ['UNKNOWN'])).toBe(false);
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
      expect(statusRank('Processing')).toBe(4);
      expect(statusRank('CLEARED_BY_AUTHORITY')).toBe(4);
      expect(statusRank(undefined)).toBe(-1);
      expect(statusRank(UNKNOWN_STATUS)).toBe(-1);
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
      expect(recoveryState({ status: 'Error', updatedAt: seconds(0.05) }, now)).toBe('in-progress');
      expect(recoveryState({ status: 'Error', updatedAt: millis(0.05) }, now)).toBe('in-progress');
    });

    it('keeps waiting rather than re-submitting when the record has no readable timestamp', () => {
      expect(recoveryState({ status: 'Error', updatedAt: undefined }, now)).toBe('in-progress');
      expect(recoveryState({ status: 'Error', updatedAt: 'not a date' }, now)).toBe('in-progress');
    });
  });
});
