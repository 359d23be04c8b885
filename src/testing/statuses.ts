/**
 * The sandbox's reading of status values. Records hold one of the five documented statuses in
 * canonical form (`DRAFT` … `ERROR`) or, after `Submitted`, the status as the tax authority's
 * answer spells it (`Accepted`, `Processing`, a custom `acceptedStatus`…). The five are listed here
 * one by one rather than taken from every value of the SDK's `InvoiceStatus`, so that the SDK naming
 * more statuses never turns the sandbox's own later statuses into "documented" ones.
 */
import { InvoiceStatus, SERVICE_STATUS_SPELLING, type KnownInvoiceStatus } from '../model/status.js';

/**
 * The statuses the document names, in filing order.
 *
 * @example
 * ```ts
 * DOCUMENTED_STATUSES.includes('SIGNED'); // true
 * ```
 */
export const DOCUMENTED_STATUSES: readonly KnownInvoiceStatus[] = [
  InvoiceStatus.DRAFT,
  InvoiceStatus.VALIDATED,
  InvoiceStatus.SIGNED,
  InvoiceStatus.SUBMITTED,
  InvoiceStatus.ERROR,
];

/**
 * Case, spaces, `-` and `_` do not tell two spellings apart.
 *
 * @example
 * ```ts
 * foldStatusText(' In_Progress '); // 'inprogress'
 * ```
 */
export function foldStatusText(value: string): string {
  return value.trim().toLowerCase().replace(/[\s_-]+/g, '');
}

const BY_FOLD = new Map<string, KnownInvoiceStatus>(DOCUMENTED_STATUSES.map((s) => [foldStatusText(s), s]));

/**
 * The documented status `value` spells (`Error`, `error`, `ERROR`), or `undefined`.
 *
 * @example
 * ```ts
 * documentedStatus('error'); // 'ERROR'
 * documentedStatus('Accepted'); // undefined
 * ```
 */
export function documentedStatus(value: string): KnownInvoiceStatus | undefined {
  return BY_FOLD.get(foldStatusText(value));
}

/**
 * True for a record status that is one of the five documented ones (canonical form).
 *
 * @example
 * ```ts
 * isDocumented('SIGNED'); // true
 * isDocumented('Signed'); // false: records hold the canonical form
 * ```
 */
export function isDocumented(status: string): status is KnownInvoiceStatus {
  return (DOCUMENTED_STATUSES as readonly string[]).includes(status);
}

/**
 * A status as a record holds it: a documented one in canonical form, any other trimmed as given.
 *
 * @example
 * ```ts
 * recordStatus('Error'); // 'ERROR'
 * recordStatus(' Accepted '); // 'Accepted'
 * ```
 */
export function recordStatus(value: string): string {
  return documentedStatus(value) ?? value.trim();
}

/**
 * True when `value` can be a status after `Submitted`: not empty, not one of the documented five.
 *
 * @example
 * ```ts
 * isLaterStatus('Processing'); // true
 * isLaterStatus('submitted'); // false
 * ```
 */
export function isLaterStatus(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && documentedStatus(value) === undefined;
}

/**
 * True when two statuses are the same status, whatever their spelling.
 *
 * @example
 * ```ts
 * sameStatus('VALIDATED', 'validated'); // true
 * ```
 */
export function sameStatus(a: string, b: string): boolean {
  return foldStatusText(a) === foldStatusText(b);
}

/**
 * How the five documented statuses are spelled on the wire (the document does not show the exact
 * spelling, and itself writes both `Draft` and `draft`): `document` (`draft`, `Validated`,
 * `Signed`, `Submitted`, `Error`, as its transition table writes them), `capitalized` (`Draft`,
 * `Validated`, …), `upper` (`DRAFT`, `VALIDATED`, …) or `lower` (`draft`, `validated`, …). A status
 * after `Submitted` (`acceptedStatus`, a scenario's `status`) is sent as given.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ statusSpelling: 'upper' });
 * ```
 */
export type StatusSpelling = 'document' | 'capitalized' | 'upper' | 'lower';

/**
 * The wire spelling of a record status under `spelling` (`DRAFT` gives `draft` by default); later
 * statuses as stored.
 *
 * @example
 * ```ts
 * spell('VALIDATED'); // 'Validated'
 * spell('VALIDATED', 'upper'); // 'VALIDATED'
 * spell('Accepted', 'lower'); // 'Accepted'
 * ```
 */
export function spell(status: string, spelling: StatusSpelling = 'document'): string {
  if (!isDocumented(status)) return status;
  switch (spelling) {
    case 'upper':
      return status;
    case 'lower':
      return status.toLowerCase();
    case 'capitalized':
      return status.charAt(0) + status.slice(1).toLowerCase();
    default:
      return SERVICE_STATUS_SPELLING[status];
  }
}
