/**
 * Reading a submission failure. The service document names two messages to recognise when an
 * invoice lands in `Error`, and they call for opposite reactions:
 * - the buyer's access points are offline: nothing on the sender's side causes or fixes it, the
 *   buyer's provider must recover, so the only sensible action is a re-submit later;
 * - a validation error naming a single field: the tax authority stops at the first problem, so the
 *   sender fixes that field, and fixing it may reveal the next one.
 * Anything else is `unknown`, with the service's own words kept.
 */
import { InvoiceStatus, normalizeStatus, recoveryState } from '../model/status.js';

/**
 * What kind of submission failure an invoice in `ERROR` shows.
 *
 * @example
 * ```ts
 * import type { FilingFailureKind } from 'invoicing-sdk';
 * const kind: FilingFailureKind = 'access-points-offline';
 * ```
 */
export type FilingFailureKind = 'access-points-offline' | 'field-validation' | 'unknown';

/**
 * A submission failure, read from an invoice in `ERROR`: what went wrong, whether the service's
 * automatic recovery is still in play, and what to do about it.
 *
 * @example
 * ```ts
 * const { invoice, failure } = await client.invoices.waitFor(id, { timeout: 60_000 });
 * if (failure?.kind === 'field-validation') console.error(`fix ${failure.field}: ${failure.message}`);
 * if (failure?.resubmitRequired) await client.invoices.resumeFiling(invoice.id);
 * ```
 */
export interface FilingFailure {
  /**
   * `access-points-offline`: the buyer cannot receive the invoice yet; nothing to fix on the
   * sender's side. `field-validation`: the tax authority rejected one field (see `field`).
   * `unknown`: another message (see `message`).
   */
  kind: FilingFailureKind;
  /** The service's words (`errorMessage` of the record), or a placeholder when it sent none. */
  message: string;
  /** The field the tax authority rejected, for `field-validation`, when the message names it. */
  field?: string | undefined;
  /**
   * `in-progress`: the service's automatic retry (every 10 minutes, up to 3 attempts, within 24
   * hours) will pick the invoice up: wait, do not submit. `over`: it will not; a deliberate
   * re-submit is needed.
   */
  recovery: 'in-progress' | 'over';
  /** True when automatic recovery is over, so only a deliberate re-submit moves the invoice on. */
  resubmitRequired: boolean;
  /** Automatic-recovery attempts used, where the record carries a count. */
  attempts: number | undefined;
  /** What the sender should do, in one or two sentences. */
  hint: string;
}

const OFFLINE = /access[\s_-]*points?\b[^.]*\b(offline|unavailable|unreachable|down)\b/i;
const VALIDATION = /\bvalidation\b|\binvalid\b|\bis required\b|\bmissing\b|\bmust be\b/i;

/** Field names as the record may carry them in a structured form, tried before the message. */
const FIELD_KEYS = ['field', 'errorField', 'failedField', 'invalidField', 'path'] as const;

/** Patterns that pull one field name out of a message, most specific first. */
const FIELD_PATTERNS: readonly RegExp[] = [
  /\bfield\s*[:=]?\s*["'`‘“]([^"'`’”]+)["'`’”]/i,
  /\bfield\s*[:=]?\s*([A-Za-z_][\w.[\]-]*)/i,
  /["'`‘“]([A-Za-z_][\w.[\]-]*)["'`’”]\s+(?:is|was|must|has|should)\b/i,
  /\b(?:for|of|in)\s+["'`‘“]?([A-Za-z_][\w.[\]-]*)["'`’”]?\s*(?:[:,;]|$)/i,
  /^\s*(?:validation\s+(?:error|failed)\s*[:-]\s*)?([A-Za-z_][\w.[\]-]*)\s+(?:is|was|must|has|should)\b/i,
];

/** Words the loose patterns above may catch that are never a field name. */
const NOT_FIELDS = new Set(['the', 'a', 'an', 'this', 'invoice', 'value', 'request', 'validation', 'error', 'field']);

function fieldFromRecord(raw: Record<string, unknown>): string | undefined {
  const nests = [raw, raw.error, raw.failure, raw.validationError, firstOf(raw.errors), firstOf(raw.validationErrors)];
  for (const nest of nests) {
    if (nest === null || typeof nest !== 'object') continue;
    for (const key of FIELD_KEYS) {
      const value = (nest as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      if (Array.isArray(value) && value.every((p) => typeof p === 'string' || typeof p === 'number')) {
        if (value.length > 0) return value.join('.');
      }
    }
  }
  return undefined;
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

function fieldFromMessage(message: string): string | undefined {
  for (const pattern of FIELD_PATTERNS) {
    // A sentence's full stop is not part of the name: `… for buyer.name.` names `buyer.name`.
    const found = pattern.exec(message)?.[1]?.trim().replace(/\.+$/, '');
    if (found && !NOT_FIELDS.has(found.toLowerCase())) return found;
  }
  return undefined;
}

/**
 * What {@link classifyFailureMessage} reads from a message.
 *
 * @example
 * ```ts
 * import type { FailureClassification } from 'invoicing-sdk';
 * const c: FailureClassification = { kind: 'field-validation', field: 'buyer.tin' };
 * ```
 */
export interface FailureClassification {
  /** The kind of failure (see {@link FilingFailure}). */
  kind: FilingFailureKind;
  /** The rejected field, for `field-validation`, when the message or record names it. */
  field?: string;
}

/**
 * Classifies a submission failure message (and, when given, the raw record, which may carry the
 * field in a structured form). Pure; never throws.
 *
 * @example
 * ```ts
 * import { classifyFailureMessage } from 'invoicing-sdk';
 * classifyFailureMessage('Access points are offline');
 * // { kind: 'access-points-offline' }
 * classifyFailureMessage("Validation error: field 'buyer.tin' is invalid");
 * // { kind: 'field-validation', field: 'buyer.tin' }
 * ```
 */
export function classifyFailureMessage(
  message: string | undefined,
  raw: Record<string, unknown> = {},
): FailureClassification {
  const text = message ?? '';
  if (OFFLINE.test(text)) return { kind: 'access-points-offline' };
  const structured = fieldFromRecord(raw);
  if (VALIDATION.test(text) || structured !== undefined) {
    const field = structured ?? fieldFromMessage(text);
    if (field !== undefined) return { kind: 'field-validation', field };
    if (/\bvalidation\b/i.test(text)) return { kind: 'field-validation' };
  }
  return { kind: 'unknown' };
}

function hintFor(kind: FilingFailureKind, field: string | undefined, over: boolean): string {
  const next = over
    ? 'Automatic recovery is over: a deliberate re-submit is needed (client.invoices.resumeFiling(id)).'
    : 'Automatic recovery is still in play (a retry every 10 minutes, up to 3, within 24 hours): wait, do not submit; another submit does not speed it up.';
  switch (kind) {
    case 'access-points-offline':
      return `The buyer's access points are offline: the buyer cannot receive the invoice yet. Nothing on your side causes or fixes this; the buyer's provider must recover. ${next}`;
    case 'field-validation':
      // While recovery runs the invoice is the service's: a submit then does not speed it up, so the
      // re-submit advice waits for recovery to be over.
      return `The tax authority rejected ${field === undefined ? 'one field (the message does not name it)' : `the field ${field}`}. ${
        over ? '' : 'Automatic recovery is still in play, but every retry of this invoice fails the same way: do not submit it again. '
      }It stays in Error: file the corrected document as a new invoice under its next revision, createAndFile(corrected, { externalRef, revision }); the authority stops at the first problem, so the corrected one may reveal the next.`;
    default:
      return `The submission failed for a reason the SDK does not recognise; read the message. ${next}`;
  }
}

/**
 * Reads the submission failure of an invoice in `ERROR`; `undefined` for any other status.
 * `serverNow` is the service's clock (the record's `observedAt`) against which the 24-hour recovery
 * window is judged; it defaults to that, then to the local clock.
 *
 * @example
 * ```ts
 * import { describeFailure } from 'invoicing-sdk';
 * const invoice = await client.invoices.retrieve(id);
 * const failure = describeFailure(invoice);
 * if (failure) console.log(failure.kind, failure.recovery, failure.hint);
 * ```
 */
export function describeFailure(
  invoice: {
    status: string;
    errorMessage?: string | undefined;
    updatedAt?: string | undefined;
    attempts?: number | undefined;
    observedAt?: string | undefined;
    raw?: Record<string, unknown>;
  },
  serverNow: number = serverTime(invoice.observedAt),
): FilingFailure | undefined {
  // Read as the other helpers read it: a record spelled as the service spells it (`Error`) counts.
  if (normalizeStatus(invoice.status) !== InvoiceStatus.ERROR) return undefined;
  const over = recoveryState(invoice, serverNow) === 'over';
  const { kind, field } = classifyFailureMessage(invoice.errorMessage, invoice.raw ?? {});
  return {
    kind,
    message: invoice.errorMessage ?? '(the service sent no error message)',
    ...(field === undefined ? {} : { field }),
    recovery: over ? 'over' : 'in-progress',
    resubmitRequired: over,
    attempts: invoice.attempts,
    hint: hintFor(kind, field, over),
  };
}

/** The server's clock at a read, falling back to the local clock when the record has none. */
export function serverTime(observedAt: string | undefined, fallback: number = Date.now()): number {
  const t = observedAt === undefined ? Number.NaN : Date.parse(observedAt);
  return Number.isNaN(t) ? fallback : t;
}
