/** The invoice status machine, as the service document describes it. */
import { epochMs } from './timestamp.js';

/**
 * Every canonical invoice status, as values: `InvoiceStatus.SIGNED === 'SIGNED'`.
 * @example
 * ```ts
 * if (invoice.status === InvoiceStatus.SIGNED) await client.invoices.submit(invoice.id);
 * ```
 */
export const InvoiceStatus = {
  DRAFT: 'DRAFT', VALIDATED: 'VALIDATED', SIGNED: 'SIGNED', SUBMITTED: 'SUBMITTED', ERROR: 'ERROR',
  PROCESSING: 'PROCESSING', ACCEPTED: 'ACCEPTED', REJECTED: 'REJECTED', CANCELLED: 'CANCELLED', UNKNOWN: 'UNKNOWN',
} as const;

/**
 * A canonical invoice status: a closed union, so a typo fails to compile and an exhaustive `switch` type-checks.
 * @example
 * ```ts
 * const filed = (status: InvoiceStatus): boolean => status === 'ACCEPTED';
 * ```
 */
export type InvoiceStatus = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];

/**
 * One of the five statuses the service document names (`DRAFT` … `ERROR`).
 * @example
 * ```ts
 * const s: KnownInvoiceStatus = 'SIGNED';
 * ```
 */
export type KnownInvoiceStatus = 'DRAFT' | 'VALIDATED' | 'SIGNED' | 'SUBMITTED' | 'ERROR';

/**
 * @deprecated Use {@link InvoiceStatus}.
 * @example
 * ```ts
 * const s: InvoiceStatus = 'ACCEPTED';
 * ```
 */
export type InvoiceStatusValue = InvoiceStatus;

/**
 * What a record with no readable status, or a status the SDK does not recognise, normalises to.
 * @example
 * ```ts
 * normalizeStatus(undefined) === UNKNOWN_STATUS; // true
 * ```
 */
export const UNKNOWN_STATUS = 'UNKNOWN' as const;

/**
 * The statuses after `SUBMITTED` that end the filing by default.
 * @example
 * ```ts
 * DEFAULT_FINAL_STATUSES.includes('ACCEPTED'); // true
 * ```
 */
export const DEFAULT_FINAL_STATUSES: readonly InvoiceStatus[] = ['ACCEPTED', 'REJECTED', 'CANCELLED'];

// Folded spellings of every canonical status and of the synonyms servers use for the statuses after SUBMITTED.
const SPELLINGS: Readonly<Record<string, InvoiceStatus>> = {
  draft: 'DRAFT', validated: 'VALIDATED', signed: 'SIGNED', submitted: 'SUBMITTED', error: 'ERROR',
  processing: 'PROCESSING', inprogress: 'PROCESSING', pending: 'PROCESSING',
  accepted: 'ACCEPTED', approved: 'ACCEPTED', cleared: 'ACCEPTED', rejected: 'REJECTED', declined: 'REJECTED',
  cancelled: 'CANCELLED', canceled: 'CANCELLED', voided: 'CANCELLED', unknown: 'UNKNOWN',
};

const foldStatus = (value: string): string => value.toLowerCase().replace(/[\s_-]+/g, '');

const seen = /* @__PURE__ */ new Map<string, InvoiceStatus>();

/**
 * The canonical value of a status in any case or spacing; synonyms map to the SDK's names (`cleared` → `ACCEPTED`).
 * @example
 * ```ts
 * normalizeStatus('in_progress'); // 'PROCESSING'; an unknown spelling gives 'UNKNOWN' (rawStatus keeps it)
 * ```
 */
export function normalizeStatus(raw: unknown): InvoiceStatus {
  if (typeof raw !== 'string') return UNKNOWN_STATUS;
  let status = seen.get(raw);
  if (status === undefined) {
    const key = foldStatus(raw);
    status = Object.hasOwn(SPELLINGS, key) ? SPELLINGS[key]! : UNKNOWN_STATUS;
    // A service uses a handful of short spellings; the bounds keep odd ones out of the cache.
    if (seen.size < 64 && raw.length <= 32) seen.set(raw, status);
  }
  return status;
}

/** The status as the server spelled it: the rules read the raw spelling, so an unrecognised status still ranks. */
export const spelledStatus = (invoice: { status: string; rawStatus?: string | undefined }): string => invoice.rawStatus ?? invoice.status;

/**
 * True for a status after `SUBMITTED` in any spelling, and for any non-empty spelling the SDK does not recognise.
 * @example
 * ```ts
 * isAfterSubmitted('Frobnicated'); // true: an unpublished status
 * ```
 */
export function isAfterSubmitted(status: unknown): boolean {
  const canonical = normalizeStatus(status);
  if (canonical !== UNKNOWN_STATUS) return RANKS[canonical] === 4;
  return typeof status === 'string' && foldStatus(status) !== '' && foldStatus(status) !== 'unknown';
}

/**
 * True when `status` is final: the tax authority's answer is in and nothing more happens on its own.
 * @example
 * ```ts
 * isFinalStatus('Registered', ['Registered']); // true: your own list, in the server's spelling
 * ```
 */
export function isFinalStatus(status: unknown, finalStatuses: readonly string[] = DEFAULT_FINAL_STATUSES): boolean {
  if (typeof status !== 'string') return false;
  const folded = foldStatus(status);
  if (folded === '') return false;
  const canonical = normalizeStatus(status);
  for (const wanted of finalStatuses) {
    if (typeof wanted !== 'string') continue;
    if (canonical !== UNKNOWN_STATUS ? normalizeStatus(wanted) === canonical : foldStatus(wanted) === folded) return true;
  }
  return false;
}

export const matchesStatus: (status: unknown, statuses: readonly string[]) => boolean = isFinalStatus;

/**
 * @deprecated Use {@link isFinalStatus}, which this calls.
 * @example
 * ```ts
 * isFinalStatus('Accepted'); // true
 * ```
 */
export function isTerminalStatus(status: unknown, finalStatuses?: readonly string[]): boolean {
  return isFinalStatus(status, finalStatuses);
}

/**
 * How far along the filing flow a status is: 0 draft … 3 submitted or error, 4 after submitted; -1 when missing.
 * @example
 * ```ts
 * statusRank('SIGNED') > statusRank('DRAFT'); // true
 * ```
 */
export function statusRank(status: unknown): number {
  const canonical = normalizeStatus(status);
  return canonical === UNKNOWN_STATUS ? (isAfterSubmitted(status) ? 4 : -1) : RANKS[canonical];
}

const RANKS: Readonly<Record<Exclude<InvoiceStatus, 'UNKNOWN'>, number>> = {
  DRAFT: 0, VALIDATED: 1, SIGNED: 2, SUBMITTED: 3, ERROR: 3, PROCESSING: 4, ACCEPTED: 4, REJECTED: 4, CANCELLED: 4,
};

/**
 * The three filing transitions the caller sends.
 * @example
 * ```ts
 * const step: FilingTransition = 'sign';
 * ```
 */
export type FilingTransition = 'validate' | 'sign' | 'submit';

/**
 * Each transition: the statuses it is sent from and the status it leads to.
 * @example
 * ```ts
 * TRANSITIONS.sign.from; // ['VALIDATED']
 * ```
 */
export const TRANSITIONS: Readonly<
  Record<FilingTransition, { readonly from: readonly KnownInvoiceStatus[]; readonly to: KnownInvoiceStatus }>
> = {
  // Literals, so a bundler can drop the table when unused.
  validate: { from: ['DRAFT'], to: 'VALIDATED' },
  sign: { from: ['VALIDATED'], to: 'SIGNED' },
  submit: { from: ['SIGNED', 'ERROR'], to: 'SUBMITTED' },
};

/**
 * True when an invoice in `status` may be sent `transition`.
 * @example
 * ```ts
 * canTransition('DRAFT', 'submit'); // false
 * ```
 */
export function canTransition(status: unknown, transition: FilingTransition): boolean {
  return (TRANSITIONS[transition].from as readonly string[]).includes(normalizeStatus(status));
}

/**
 * True when an invoice in `status` has already passed `transition`, so sending it again would be a duplicate.
 * @example
 * ```ts
 * hasPassed('SIGNED', 'validate'); // true
 * ```
 */
export function hasPassed(status: unknown, transition: FilingTransition): boolean {
  return statusRank(status) >= statusRank(TRANSITIONS[transition].to);
}

/**
 * The next transition to send for an invoice in `status`, or `undefined` when none is due (submitted or later, unknown).
 * @example
 * ```ts
 * nextTransition('SIGNED'); // 'submit'
 * ```
 */
export function nextTransition(status: unknown): FilingTransition | undefined {
  return (NEXT as Partial<Record<InvoiceStatus, FilingTransition>>)[normalizeStatus(status)];
}

const NEXT = { DRAFT: 'validate', VALIDATED: 'sign', SIGNED: 'submit' } as const;

/**
 * The service's automatic recovery of invoices in `Error`, from the document's Limits: every 10 minutes, 3 attempts, 24 hours.
 * @example
 * ```ts
 * AUTOMATIC_RECOVERY.intervalMs; // 600000
 * ```
 */
export const AUTOMATIC_RECOVERY = {
  intervalMs: 600_000,
  maxAttempts: 3,
  windowMs: 86_400_000,
  latestEndMs: 2_400_000,
} as const;

/**
 * What a recovery verdict rests on: the `attempts` count, the 24-hour `window`, a `quiet` interval, time `elapsed`, or `none`.
 * @example
 * ```ts
 * const evidence: RecoveryEvidence = 'quiet';
 * ```
 */
export type RecoveryEvidence = 'attempts' | 'window' | 'quiet' | 'elapsed' | 'none';

/**
 * A verdict of {@link recoveryVerdict}.
 * @example
 * ```ts
 * const v: RecoveryVerdict = { state: 'over', evidence: 'attempts' };
 * ```
 */
export interface RecoveryVerdict {
  /** As {@link recoveryState}. */ state: 'in-progress' | 'over' | 'not-applicable';
  /** What the verdict rests on; `undefined` outside `ERROR`. */ evidence: RecoveryEvidence | undefined;
}

/**
 * Whether the service's automatic recovery will still pick up an invoice in `ERROR`, and on what evidence.
 * @example
 * ```ts
 * recoveryVerdict({ status: 'Error', updatedAt: '2026-01-01T00:00:00Z' }, Date.parse('2026-01-01T00:11:00Z')).evidence; // 'quiet'
 * ```
 */
export function recoveryVerdict(
  invoice: { status: unknown; updatedAt?: string | Date | undefined; attempts?: number | undefined },
  now: number = Date.now(),
  errorSince?: number,
): RecoveryVerdict {
  if (normalizeStatus(invoice.status) !== InvoiceStatus.ERROR) return { state: 'not-applicable', evidence: undefined };
  const touched = timeOf(invoice.updatedAt);
  const idle = now - touched;
  if (idle >= AUTOMATIC_RECOVERY.windowMs) return { state: 'over', evidence: 'window' };
  if (typeof invoice.attempts === 'number') {
    return { state: invoice.attempts >= AUTOMATIC_RECOVERY.maxAttempts ? 'over' : 'in-progress', evidence: 'attempts' };
  }
  if (idle > AUTOMATIC_RECOVERY.intervalMs) return { state: 'over', evidence: 'quiet' };
  if (errorSince !== undefined && now - errorSince >= AUTOMATIC_RECOVERY.latestEndMs) return { state: 'over', evidence: 'elapsed' };
  // No readable timestamp and no count: nothing proves recovery over; the wait's timeout bounds it.
  return { state: 'in-progress', evidence: Number.isNaN(touched) ? 'none' : 'quiet' };
}

/**
 * The state of {@link recoveryVerdict}: `in-progress` (wait, never submit), `over` (re-submit), or `not-applicable`.
 * @example
 * ```ts
 * recoveryState({ status: 'ERROR', updatedAt: new Date().toISOString() }); // 'in-progress'
 * ```
 */
export function recoveryState(
  invoice: { status: unknown; updatedAt?: string | Date | undefined; attempts?: number | undefined },
  now: number = Date.now(),
  errorSince?: number,
): RecoveryVerdict['state'] {
  return recoveryVerdict(invoice, now, errorSince).state;
}

// A string `epochMs` cannot read is a date-time.
function timeOf(value: string | Date | undefined): number {
  const ms = epochMs(value);
  return Number.isNaN(ms) && value !== undefined ? new Date(value).getTime() : ms;
}

/** When recovery will next try an invoice in `ERROR`, at the latest (ISO 8601), and the attempts left, where the record tells. */
export function nextAutomaticAttempt(
  invoice: { updatedAt?: string | Date | undefined; attempts?: number | undefined },
  now: number = Date.now(),
): { nextAttemptAt: string | undefined; attemptsLeft: number | undefined } {
  const touched = timeOf(invoice.updatedAt);
  // A retry overdue by the record is due a full interval from now.
  const from = touched + AUTOMATIC_RECOVERY.intervalMs > now ? touched : now;
  return {
    nextAttemptAt: Number.isNaN(touched) ? undefined : new Date(from + AUTOMATIC_RECOVERY.intervalMs).toISOString(),
    attemptsLeft: typeof invoice.attempts === 'number' ? Math.max(0, AUTOMATIC_RECOVERY.maxAttempts - invoice.attempts) : undefined,
  };
}
