/**
 * Idempotency keys. Every POST carries one, minted once per logical call and sent unchanged on every
 * retry of it, so that a retry after a dropped connection returns the invoice the first attempt
 * created instead of filing a second one.
 */
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { InvoicingError } from './errors.js';

/**
 * A fresh key for one logical call: a UUID v7 (time-ordered, so keys sort by creation in logs). The
 * transport mints one per POST that has none, once, before the first attempt.
 *
 * @example
 * ```ts
 * import { mintIdempotencyKey } from 'invoicing-sdk';
 * const idempotencyKey = mintIdempotencyKey(); // '019…-7…'
 * await client.invoices.create(input, { idempotencyKey });
 * ```
 */
export function mintIdempotencyKey(): string {
  return uuidv7();
}

/**
 * The UUID v5 namespace of {@link deriveIdempotencyKey}. Fixed forever: changing it would change
 * every derived key and let a document be filed twice across an upgrade.
 * @example console.log(IDEMPOTENCY_NAMESPACE); // '17a8698a-6c03-4abd-a8bc-e465d01cd285'
 */
export const IDEMPOTENCY_NAMESPACE = '17a8698a-6c03-4abd-a8bc-e465d01cd285';

/**
 * A stable idempotency key for one version of one document of one business: the same `businessId`,
 * `externalRef` (your own document number) and `revision` always give the same UUID v5, in any
 * process, on any machine, so one version is never filed twice. `revision` (default 0, the key of
 * earlier releases) numbers the corrected versions of a document whose earlier version failed: each
 * gets a key of its own, so the corrected body meets no idempotency conflict (docs/filing.md).
 *
 * @example
 * ```ts
 * import { deriveIdempotencyKey } from 'invoicing-sdk';
 * const idempotencyKey = deriveIdempotencyKey('biz_123', 'INV-2026-0042');
 * const corrected = deriveIdempotencyKey('biz_123', 'INV-2026-0042', 1);
 * await client.invoices.create(input, { idempotencyKey });
 * ```
 */
export function deriveIdempotencyKey(businessId: string, externalRef: string, revision = 0): string {
  if (typeof businessId !== 'string' || businessId.trim() === '') {
    throw new InvoicingError('deriveIdempotencyKey: businessId must be a non-empty string.');
  }
  if (typeof externalRef !== 'string' || externalRef.trim() === '') {
    throw new InvoicingError('deriveIdempotencyKey: externalRef must be a non-empty string.');
  }
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new InvoicingError(`deriveIdempotencyKey: revision must be a whole number >= 0, got ${String(revision)}.`);
  }
  // JSON of the parts cannot collide: ('a:b', 'c') and ('a', 'b:c') give different names. Revision 0
  // keeps the pair alone, so keys derived before revisions existed still find their invoices.
  return uuidv5(JSON.stringify(revision === 0 ? [businessId, externalRef] : [businessId, externalRef, revision]), IDEMPOTENCY_NAMESPACE);
}
