/**
 * The invoice status machine, as the service document describes it. One module that the client,
 * `waitFor`, `createAndFile`, the sandbox and the docs all use, so the rules live in one place.
 *
 * The service does not publish its spelling of statuses (its own document writes both `draft` and
 * `Validated`), and the statuses reached after `Submitted` are not published at all. So:
 * - known statuses are matched without regard to case, spaces, `-` or `_`;
 * - any other non-empty value is kept as the server spelled it and read as "after Submitted"
 *   (the only place an unpublished status can come from), never a crash.
 */
import { epochMs } from './timestamp.js';
import { foldStatus } from './status-key.js';

/**
 * The five statuses the service document names, in canonical spelling.
 *
 * @example
 * ```ts
 * import { InvoiceStatus } from 'invoicing-sdk';
 * if (invoice.status === InvoiceStatus.SIGNED) await client.invoices.submit(invoice.id);
 * ```
 */
export const InvoiceStatus = {
  DRAFT: 'DRAFT',
  VALIDATED: 'VALIDATED',
  SIGNED: 'SIGNED',
  SUBMITTED: 'SUBMITTED',
  ERROR: 'ERROR',
} as const;

/**
 * One of the five documented statuses.
 *
 * @example
 * ```ts
 * import type { KnownInvoiceStatus } from 'invoicing-sdk';
 * const s: KnownInvoiceStatus = 'SIGNED';
 * ```
 */
export type KnownInvoiceStatus = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];

/**
 * A canonical status: one of the documented five, or any later status kept as the server spelled
 * it (for example `Accepted`), or `UNKNOWN` when the record carries no readable status.
 *
 * @example
 * ```ts
 * import type { InvoiceStatusValue } from 'invoicing-sdk';
 * const s: InvoiceStatusValue = 'Accepted'; // a status after Submitted, kept verbatim
 * ```
 */
export type InvoiceStatusValue = KnownInvoiceStatus | 'UNKNOWN' | (string & {});

/**
 * What a record with no readable status normalises to. It is never treated as "after Submitted".
 *
 * @example
 * ```ts
 * import { UNKNOWN_STATUS, normalizeStatus } from 'invoicing-sdk';
 * normalizeStatus(undefined) === UNKNOWN_STATUS; // true
 * ```
 */
export const UNKNOWN_STATUS = 'UNKNOWN' as const;

// Pure annotations on each call, so that a bundle which never normalises a status drops the map.
const KNOWN = /* @__PURE__ */ new Map<string, KnownInvoiceStatus>(
  /* @__PURE__ */ Object.values(InvoiceStatus).map((s) => [s.toLowerCase(), s]),
);

/**
 * Reads a status as the server spelled it and returns the canonical value: `draft`, `Draft` or
 * `DRAFT` give `DRAFT`; a status the document does not name (reached after `Submitted`) is kept as
 * it was sent, trimmed; anything that is not a non-empty string gives `UNKNOWN`. Never throws.
 *
 * @example
 * ```ts
 * import { normalizeStatus } from 'invoicing-sdk';
 * normalizeStatus('draft');      // 'DRAFT'
 * normalizeStatus('Validated');  // 'VALIDATED'
 * normalizeStatus('Accepted');   // 'Accepted' (after Submitted)
 * normalizeStatus(null);         // 'UNKNOWN'
 * ```
 */
export function normalizeStatus(raw: unknown): InvoiceStatusValue {
  if (typeof raw !== 'string') return UNKNOWN_STATUS;
  const trimmed = raw.trim();
  if (trimmed === '') return UNKNOWN_STATUS;
  return KNOWN.get(foldStatus(trimmed)) ?? trimmed;
}

/**
 * True for the five documented statuses.
 *
 * @example
 * ```ts
 * import { isKnownStatus } from 'invoicing-sdk';
 * isKnownStatus('SIGNED'); // true
 * isKnownStatus('Accepted'); // false
 * ```
 */
export function isKnownStatus(status: unknown): status is KnownInvoiceStatus {
  return typeof status === 'string' && KNOWN.get(status.toLowerCase()) === status;
}

/**
 * True for a status reached after `Submitted` as the tax authority answers: any status that is not
 * one of the documented five and not `UNKNOWN`. Takes the canonical status or the server's own
 * spelling (`'Validated'` is not after Submitted); never throws, whatever it is given.
 *
 * @example
 * ```ts
 * import { isAfterSubmitted } from 'invoicing-sdk';
 * isAfterSubmitted('Accepted');  // true
 * isAfterSubmitted('SUBMITTED'); // false
 * ```
 */
export function isAfterSubmitted(status: unknown): boolean {
  const canonical = normalizeStatus(status);
  return canonical !== UNKNOWN_STATUS && !isKnownStatus(canonical);
}

/**
 * True when the SDK's part of the filing is over and nothing more happens on its own: a status
 * reached after `Submitted`. `ERROR` is not terminal here, because automatic recovery may still pick
 * the invoice up; use {@link recoveryState} to tell the two cases apart.
 *
 * @example
 * ```ts
 * import { isTerminalStatus } from 'invoicing-sdk';
 * isTerminalStatus('Accepted');  // true
 * isTerminalStatus('SUBMITTED'); // false: the authority has not answered yet
 * isTerminalStatus('ERROR');     // false: see recoveryState()
 * isTerminalStatus('Validated'); // false: the server's spelling is read too
 * ```
 */
export function isTerminalStatus(status: unknown): boolean {
  return isAfterSubmitted(status);
}

/**
 * How far along the filing flow a status is: 0 draft, 1 validated, 2 signed, 3 submitted or error
 * (an Error invoice was submitted once), 4 after submitted; -1 for `UNKNOWN`.
 *
 * @example
 * ```ts
 * import { statusRank } from 'invoicing-sdk';
 * statusRank('SIGNED') > statusRank('DRAFT'); // true
 * ```
 */
export function statusRank(status: unknown): number {
  switch (normalizeStatus(status)) {
    case InvoiceStatus.DRAFT:
      return 0;
    case InvoiceStatus.VALIDATED:
      return 1;
    case InvoiceStatus.SIGNED:
      return 2;
    case InvoiceStatus.SUBMITTED:
    case InvoiceStatus.ERROR:
      return 3;
    case UNKNOWN_STATUS:
      return -1;
    default:
      return 4;
  }
}

/**
 * The three filing transitions the caller sends.
 *
 * @example
 * ```ts
 * import type { FilingTransition } from 'invoicing-sdk';
 * const step: FilingTransition = 'sign';
 * ```
 */
export type FilingTransition = 'validate' | 'sign' | 'submit';

/**
 * Each transition: the statuses it is sent from and the status it leads to. `submit` is also sent
 * from `ERROR`, as the deliberate re-submit once automatic recovery is over.
 *
 * @example
 * ```ts
 * import { TRANSITIONS } from 'invoicing-sdk';
 * TRANSITIONS.sign.from; // ['VALIDATED']
 * ```
 */
export const TRANSITIONS: Readonly<
  Record<FilingTransition, { readonly from: readonly KnownInvoiceStatus[]; readonly to: KnownInvoiceStatus }>
> = {
  // Literals rather than `InvoiceStatus.DRAFT`: a bundler cannot prove a property read harmless, and
  // would keep this table in every bundle of the module that holds it.
  validate: { from: ['DRAFT'], to: 'VALIDATED' },
  sign: { from: ['VALIDATED'], to: 'SIGNED' },
  submit: { from: ['SIGNED', 'ERROR'], to: 'SUBMITTED' },
};

/**
 * True when an invoice in `status` may be sent `transition`.
 *
 * @example
 * ```ts
 * import { canTransition } from 'invoicing-sdk';
 * canTransition('VALIDATED', 'sign'); // true
 * canTransition('DRAFT', 'submit');   // false
 * ```
 */
export function canTransition(status: unknown, transition: FilingTransition): boolean {
  return (TRANSITIONS[transition].from as readonly string[]).includes(normalizeStatus(status));
}

/**
 * True when an invoice in `status` has already passed `transition`, so sending it again would be a
 * duplicate. An invoice in `ERROR` has passed `submit` once (it failed after being submitted).
 *
 * @example
 * ```ts
 * import { hasPassed } from 'invoicing-sdk';
 * hasPassed('SIGNED', 'validate'); // true
 * hasPassed('SIGNED', 'submit');   // false
 * ```
 */
export function hasPassed(status: unknown, transition: FilingTransition): boolean {
  return statusRank(status) >= statusRank(TRANSITIONS[transition].to);
}

/**
 * The next transition to send for an invoice in `status`, or `undefined` when none is due
 * (submitted, after submitted, unknown). `ERROR` gives `undefined` too: whether to re-submit depends
 * on automatic recovery (see {@link recoveryState}).
 *
 * @example
 * ```ts
 * import { nextTransition } from 'invoicing-sdk';
 * nextTransition('DRAFT');  // 'validate'
 * nextTransition('SIGNED'); // 'submit'
 * ```
 */
export function nextTransition(status: unknown): FilingTransition | undefined {
  switch (normalizeStatus(status)) {
    case InvoiceStatus.DRAFT:
      return 'validate';
    case InvoiceStatus.VALIDATED:
      return 'sign';
    case InvoiceStatus.SIGNED:
      return 'submit';
    default:
      return undefined;
  }
}

/**
 * The service's automatic recovery of invoices in `Error`, from the document's Limits: a retry every
 * 10 minutes, up to 3 attempts, only for invoices touched in the last 24 hours.
 *
 * @example
 * ```ts
 * import { AUTOMATIC_RECOVERY } from 'invoicing-sdk';
 * AUTOMATIC_RECOVERY.intervalMs; // 600000
 * ```
 */
export const AUTOMATIC_RECOVERY = {
  // Literals rather than products (10 * 60 * 1000), which a bundler keeps as possible side effects.
  /** Ten minutes. */
  intervalMs: 600_000,
  maxAttempts: 3,
  /** 24 hours. */
  windowMs: 86_400_000,
} as const;

/**
 * Whether the service's automatic recovery will still pick up an invoice in `ERROR`:
 * - `in-progress`: touched within 24 hours and fewer than 3 attempts used (or the count unknown):
 *   wait and poll, never submit (another submit does not speed it up);
 * - `over`: three attempts used or untouched for 24 hours: a deliberate re-submit is required;
 * - `not-applicable`: the invoice is not in `ERROR`.
 *
 * @example
 * ```ts
 * import { recoveryState } from 'invoicing-sdk';
 * recoveryState({ status: 'ERROR', updatedAt: new Date().toISOString() }); // 'in-progress'
 * ```
 */
export function recoveryState(
  invoice: { status: unknown; updatedAt?: string | Date | undefined; attempts?: number | undefined },
  now: number = Date.now(),
): 'in-progress' | 'over' | 'not-applicable' {
  if (normalizeStatus(invoice.status) !== InvoiceStatus.ERROR) return 'not-applicable';
  if (typeof invoice.attempts === 'number' && invoice.attempts >= AUTOMATIC_RECOVERY.maxAttempts) {
    return 'over';
  }
  const touched = invoice.updatedAt === undefined ? Number.NaN : timeOf(invoice.updatedAt);
  // With no readable timestamp we cannot prove the window has closed; keep waiting (the wait's own
  // timeout bounds it) rather than re-submit and risk a second filing.
  if (Number.isNaN(touched)) return 'in-progress';
  return now - touched < AUTOMATIC_RECOVERY.windowMs ? 'in-progress' : 'over';
}

/** Milliseconds since the epoch of `updatedAt`: a date-time string, a `Date`, or epoch digits. */
function timeOf(value: string | Date): number {
  const ms = epochMs(value);
  return Number.isNaN(ms) ? new Date(value).getTime() : ms;
}

/**
 * The spelling the service document uses for each documented status (`draft`, `Validated`, …). The
 * sandbox answers with these; the SDK never relies on them.
 *
 * @example
 * ```ts
 * import { SERVICE_STATUS_SPELLING } from 'invoicing-sdk';
 * SERVICE_STATUS_SPELLING.DRAFT; // 'draft'
 * ```
 */
export const SERVICE_STATUS_SPELLING: Readonly<Record<KnownInvoiceStatus, string>> = {
  DRAFT: 'draft',
  VALIDATED: 'Validated',
  SIGNED: 'Signed',
  SUBMITTED: 'Submitted',
  ERROR: 'Error',
};

/**
 * The statuses after `SUBMITTED` that end a wait by default: the tax authority's final answers.
 *
 * @example
 * ```ts
 * import { DEFAULT_FINAL_STATUSES } from 'invoicing-sdk';
 * DEFAULT_FINAL_STATUSES.includes('ACCEPTED'); // true
 * ```
 */
export const DEFAULT_FINAL_STATUSES: readonly string[] = ['ACCEPTED', 'REJECTED', 'CANCELLED'];

/**
 * True when `status` (canonical or as the service spells it) is one of `finalStatuses`, matched
 * without regard to case, spaces, `-` or `_`. An unknown status after `SUBMITTED` is not final.
 *
 * @example
 * ```ts
 * import { isFinalStatus } from 'invoicing-sdk';
 * isFinalStatus('Accepted');    // true
 * isFinalStatus('in_progress'); // false
 * ```
 */
export function isFinalStatus(status: unknown, finalStatuses: readonly string[] = DEFAULT_FINAL_STATUSES): boolean {
  if (typeof status !== 'string') return false;
  const wanted = new Set(finalStatuses.map((s) => foldStatus(s)));
  return wanted.has(foldStatus(status)) || wanted.has(foldStatus(String(normalizeStatus(status))));
}

/**
 * When the service's recovery job will next try an invoice in `ERROR`, at the latest, and how many
 * automatic attempts are left. The job runs every 10 minutes on its own schedule, so the next run
 * comes within 10 minutes of the last touch (or of `now`, once that has passed without a change).
 * `undefined` fields where the record does not tell.
 *
 * @example
 * ```ts
 * import { nextAutomaticAttempt } from 'invoicing-sdk';
 * nextAutomaticAttempt({ updatedAt: '2026-01-01T00:00:00Z', attempts: 1 }, Date.parse('2026-01-01T00:04:00Z'));
 * // { nextAttemptAt: '2026-01-01T00:10:00.000Z', attemptsLeft: 2 }
 * ```
 */
export function nextAutomaticAttempt(
  invoice: { updatedAt?: string | Date | undefined; attempts?: number | undefined },
  now: number = Date.now(),
): { nextAttemptAt: string | undefined; attemptsLeft: number | undefined } {
  const touched = invoice.updatedAt === undefined ? Number.NaN : timeOf(invoice.updatedAt);
  let next: number | undefined;
  if (!Number.isNaN(touched)) {
    next = touched + AUTOMATIC_RECOVERY.intervalMs;
    if (next <= now) next = now + AUTOMATIC_RECOVERY.intervalMs;
  }
  const attemptsLeft =
    typeof invoice.attempts === 'number' ? Math.max(0, AUTOMATIC_RECOVERY.maxAttempts - invoice.attempts) : undefined;
  return { nextAttemptAt: next === undefined ? undefined : new Date(next).toISOString(), attemptsLeft };
}
