// Reading a failure: a final status other than an acceptance, or `Error` (access points offline, a field, or unknown).
import { InvoiceStatus, isFinalStatus, normalizeStatus, recoveryVerdict, spelledStatus, type RecoveryEvidence } from '../model/status.js';

/**
 * What kind of failure an invoice shows: a final answer other than acceptance, or the `ERROR` kind.
 * @example
 * ```ts
 * import type { FilingFailureKind } from 'invoicing-sdk';
 * const kind: FilingFailureKind = 'rejected';
 * ```
 */
export type FilingFailureKind = 'rejected' | 'cancelled' | 'not-accepted' | 'access-points-offline' | 'field-validation' | 'unknown';

/**
 * A failure: a final status other than an acceptance, or `ERROR`, with what to do.
 * @example
 * ```ts
 * const { failure } = await client.invoices.waitFor(id, { timeout: 60_000 });
 * if (failure) console.error(failure.kind, failure.hint);
 * ```
 */
export interface FilingFailure {
  /** The kind of failure. */ kind: FilingFailureKind;
  /** The service's words (`errorMessage` of the record), or a placeholder when it sent none. */ message: string;
  /** The field the tax authority rejected, when the message or record names it. */ field?: string | undefined;
  /** In `ERROR`: whether automatic recovery is still `in-progress` or `over`; `not-applicable` otherwise. */
  recovery: 'in-progress' | 'over' | 'not-applicable';
  /** What the recovery verdict rests on, in `ERROR`. */ recoveryEvidence?: RecoveryEvidence | undefined;
  /** True when automatic recovery is over, so only a deliberate re-submit moves the invoice on. */ resubmitRequired: boolean;
  /** Automatic-recovery attempts used, where the record carries a count. */ attempts: number | undefined;
  /** What the sender should do, in one or two sentences. */ hint: string;
}

const OFFLINE = /access[\s_-]*points?\b[^.]*\b(offline|unavailable|unreachable|down)\b/i;
const VALIDATION = /\bvalidation\b|\binvalid\b|\bis required\b|\bmissing\b|\bmust be\b/i;

/** Structured field names, tried before the message. */
const FIELD_KEYS = ['field', 'errorField', 'failedField', 'invalidField', 'path'] as const;

/** Patterns that pull one field name out of a message, most specific first. */
const FIELD_PATTERNS: readonly RegExp[] = [
  /\bfield\s*[:=]?\s*["'`‘“]([^"'`’”]+)["'`’”]/i,
  /\bfield\s*[:=]?\s*([A-Za-z_][\w.[\]-]*)/i,
  /["'`‘“]([A-Za-z_][\w.[\]-]*)["'`’”]\s+(?:is|was|must|has|should)\b/i,
  /\b(?:for|of|in)\s+["'`‘“]?([A-Za-z_][\w.[\]-]*)["'`’”]?\s*(?:[:,;]|$)/i,
  /^\s*(?:validation\s+(?:error|failed)\s*[:-]\s*)?([A-Za-z_][\w.[\]-]*)\s+(?:is|was|must|has|should)\b/i,
];

const NOT_FIELDS = new Set(['the', 'a', 'an', 'this', 'invoice', 'value', 'request', 'validation', 'error', 'field']);

function fieldFromRecord(raw: Record<string, unknown>): string | undefined {
  const nests = [raw, raw.error, raw.failure, raw.validationError, firstOf(raw.errors), firstOf(raw.validationErrors)];
  for (const nest of nests) {
    if (nest === null || typeof nest !== 'object') continue;
    for (const key of FIELD_KEYS) {
      const value = (nest as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      const path = Array.isArray(value) && value.every((p) => typeof p === 'string' || typeof p === 'number');
      if (path && value.length > 0) return value.join('.');
    }
  }
  return undefined;
}

const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : undefined);

function fieldFromMessage(message: string): string | undefined {
  for (const pattern of FIELD_PATTERNS) {
    // A sentence's full stop is not part of the name.
    const found = pattern.exec(message)?.[1]?.trim().replace(/\.+$/, '');
    if (found && !NOT_FIELDS.has(found.toLowerCase())) return found;
  }
  return undefined;
}

/** Classifies a submission failure message (and the raw record, when given). Never throws. */
export function classifyFailureMessage(text = '', raw: Record<string, unknown> = {}): { kind: FilingFailureKind; field?: string } {
  if (OFFLINE.test(text)) return { kind: 'access-points-offline' };
  const structured = fieldFromRecord(raw);
  if (VALIDATION.test(text) || structured !== undefined) {
    const field = structured ?? fieldFromMessage(text);
    if (field !== undefined) return { kind: 'field-validation', field };
    if (/\bvalidation\b/i.test(text)) return { kind: 'field-validation' };
  }
  return { kind: 'unknown' };
}

export const RECOVERY_EVIDENCE: Readonly<Record<RecoveryEvidence, string>> = {
  attempts: "the record's attempt count",
  window: 'the time since the last touch (the 24-hour window)',
  quiet: 'the time since the last touch (every retry touches the invoice, and the job runs every 10 minutes)',
  elapsed: 'the time since it entered Error (3 retries, 10 minutes apart, are used within 40 minutes)',
  none: 'nothing: the record shows no attempt count and no readable timestamp',
};

function hintFor(kind: FilingFailureKind, field: string | undefined, over: boolean, evidence: RecoveryEvidence | undefined): string {
  const why = evidence === undefined ? '' : ` (judged from ${RECOVERY_EVIDENCE[evidence]})`;
  const next = over
    ? `Automatic recovery is over${why}: a deliberate re-submit is needed (client.invoices.resumeFiling(id)).`
    : `Automatic recovery is still in play${why}: a retry every 10 minutes, up to 3, within 24 hours. Wait, do not submit: another submit does not speed it up.`;
  switch (kind) {
    case 'access-points-offline':
      return `The buyer's access points are offline: the buyer cannot receive the invoice yet. Nothing on your side causes or fixes this; the buyer's provider must recover. ${next}`;
    case 'field-validation':
      return `The tax authority rejected ${field === undefined ? 'one field (the message does not name it)' : `the field ${field}`}. ${
        over ? '' : 'Automatic recovery is still in play, but every retry of this invoice fails the same way: do not submit it again. '
      }It stays in Error: file the corrected document as a new invoice under its next revision, createAndFile(corrected, { externalRef, revision }); the authority stops at the first problem, so the corrected one may reveal the next.`;
    default:
      return `The submission failed for a reason the SDK does not recognise; read the message. ${next}`;
  }
}

function finalHint(kind: 'rejected' | 'cancelled' | 'not-accepted', status: string, field: string | undefined): string {
  const fix = field === undefined ? 'Correct what the reason names' : `Correct the field ${field} (the authority stops at the first problem, so another may follow)`;
  switch (kind) {
    case 'rejected':
      return `The tax authority rejected the invoice: it is not filed, and nothing moves it on. ${fix}, then file the corrected document as a new invoice (a new externalRef or idempotency key).`;
    case 'cancelled':
      return 'The invoice was cancelled: it is not filed, and nothing moves it on. File the document again as a new invoice if it is still due.';
    default:
      return `The invoice ended in ${status}, a final status (finalStatuses) that is not an acceptance, so it does not count as filed. Read the invoice to see what the service decided.`;
  }
}

/**
 * Reads the failure of an invoice; `undefined` for an acceptance or a status still on its way. Recovery is judged against `serverNow` (default: the record's `observedAt`).
 * @example const failure = describeFailure(await client.invoices.retrieve(id));
 */
export function describeFailure(
  invoice: {
    status: string;
    rawStatus?: string | undefined;
    errorMessage?: string | undefined;
    updatedAt?: string | undefined;
    attempts?: number | undefined;
    observedAt?: string | undefined;
    raw?: Record<string, unknown>;
  },
  serverNow: number = serverTime(invoice.observedAt),
  context: { finalStatuses?: readonly string[] | undefined; errorSince?: number | undefined } = {},
): FilingFailure | undefined {
  const spelled = spelledStatus(invoice);
  const { kind: errorKind, field } = classifyFailureMessage(invoice.errorMessage, invoice.raw ?? {});
  const common = { message: invoice.errorMessage ?? '(the service sent no error message)', ...(field === undefined ? {} : { field }) };
  const status = normalizeStatus(invoice.status);
  if (status !== InvoiceStatus.ERROR) {
    if (status === InvoiceStatus.ACCEPTED) return undefined;
    const kind = status === InvoiceStatus.REJECTED ? 'rejected' : status === InvoiceStatus.CANCELLED ? 'cancelled' : 'not-accepted';
    if (kind === 'not-accepted' && !isFinalStatus(spelled, context.finalStatuses)) return undefined;
    const hint = finalHint(kind, spelled, field);
    return { kind, ...common, recovery: 'not-applicable', resubmitRequired: false, attempts: invoice.attempts, hint };
  }
  const verdict = recoveryVerdict(invoice, serverNow, context.errorSince);
  const over = verdict.state === 'over';
  return {
    kind: errorKind,
    ...common,
    recovery: over ? 'over' : 'in-progress',
    recoveryEvidence: verdict.evidence,
    resubmitRequired: over,
    attempts: invoice.attempts,
    hint: hintFor(errorKind, field, over, verdict.evidence),
  };
}

/** The server's clock at a read, else `fallback`. */
export function serverTime(observedAt: string | undefined, fallback: number = Date.now()): number {
  const t = observedAt === undefined ? Number.NaN : Date.parse(observedAt);
  return Number.isNaN(t) ? fallback : t;
}
