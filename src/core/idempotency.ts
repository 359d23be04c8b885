// Every POST carries a key minted once per logical call and reused on every retry, so a retry never files twice.
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { InvoicingError } from './errors.js';

export const mintIdempotencyKey = (): string => uuidv7();

/** The UUID v5 namespace of {@link deriveIdempotencyKey}; fixed forever, or derived keys would change. */
export const IDEMPOTENCY_NAMESPACE = '17a8698a-6c03-4abd-a8bc-e465d01cd285';

/**
 * The same UUID v5 for the same business, document number and revision, anywhere: one version is never filed twice.
 * @example
 * ```ts
 * await client.invoices.create(input, { idempotencyKey: deriveIdempotencyKey('biz_123', 'INV-2026-0042') });
 * ```
 */
export function deriveIdempotencyKey(businessId: string, externalRef: string, revision = 0): string {
  for (const [name, value] of [['businessId', businessId], ['externalRef', externalRef]] as const) {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvoicingError(`deriveIdempotencyKey: ${name} must be a non-empty string.`);
    }
  }
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new InvoicingError(`deriveIdempotencyKey: revision must be a whole number >= 0, got ${String(revision)}.`);
  }
  // JSON of the parts cannot collide; revision 0 keeps the pair alone, so older keys still match.
  return uuidv5(JSON.stringify(revision === 0 ? [businessId, externalRef] : [businessId, externalRef, revision]), IDEMPOTENCY_NAMESPACE);
}
