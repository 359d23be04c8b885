// Records hold a documented status in canonical form (`DRAFT` … `ERROR`) and a later one as the
// authority spells it. The sandbox states the document's statuses itself, never the SDK's.
import type { FilingTransition, KnownInvoiceStatus } from '../model/status.js';

// The five statuses the document names, as its transition table spells them.
const DOCUMENT_SPELLING: Readonly<Record<KnownInvoiceStatus, string>> = {
  DRAFT: 'draft',
  VALIDATED: 'Validated',
  SIGNED: 'Signed',
  SUBMITTED: 'Submitted',
  ERROR: 'Error',
};

export const DOCUMENTED_STATUSES = Object.keys(DOCUMENT_SPELLING) as readonly KnownInvoiceStatus[];

// The document's transitions (draft -validate-> Validated -sign-> Signed -submit-> Submitted); a
// submit from Error is a re-submit.
type Step = { from: readonly KnownInvoiceStatus[]; to: KnownInvoiceStatus };
export const STEPS: Readonly<Record<FilingTransition, Step>> = {
  validate: { from: ['DRAFT'], to: 'VALIDATED' },
  sign: { from: ['VALIDATED'], to: 'SIGNED' },
  submit: { from: ['SIGNED', 'ERROR'], to: 'SUBMITTED' },
};

// Case, spaces, `-` and `_` do not tell two spellings apart.
const fold = (value: string): string => value.trim().toLowerCase().replace(/[\s_-]+/g, '');

const BY_FOLD = new Map<string, KnownInvoiceStatus>(DOCUMENTED_STATUSES.map((s) => [fold(s), s]));

const documentedStatus = (value: string): KnownInvoiceStatus | undefined => BY_FOLD.get(fold(value));

/** A status as a record holds it: a documented one in canonical form, any other trimmed as given. */
export function recordStatus(value: string): string {
  return documentedStatus(value) ?? value.trim();
}

/** True when `value` can be a status after `Submitted`: not empty, not one of the documented five. */
export function isLaterStatus(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && documentedStatus(value) === undefined;
}

export function sameStatus(a: string, b: string): boolean {
  return fold(a) === fold(b);
}

/**
 * How the five documented statuses are spelled on the wire: `document` (`draft`, `Validated`, …, as
 * its transition table writes them), `capitalized`, `upper` or `lower`. Later statuses are sent as given.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ statusSpelling: 'upper' });
 * ```
 */
export type StatusSpelling = 'document' | 'capitalized' | 'upper' | 'lower';

/** The wire spelling of a record status; later statuses as stored. */
export function spell(status: string, spelling: StatusSpelling = 'document'): string {
  if (!(DOCUMENTED_STATUSES as readonly string[]).includes(status)) return status;
  switch (spelling) {
    case 'upper':
      return status;
    case 'lower':
      return status.toLowerCase();
    case 'capitalized':
      return status.charAt(0) + status.slice(1).toLowerCase();
    default:
      return DOCUMENT_SPELLING[status as KnownInvoiceStatus];
  }
}
