/**
 * How stored records are spelled on the wire. The document does not publish the stored invoice's
 * field names, so the sandbox offers two spellings, both among the SDK's default aliases:
 * `standard` (`id`, `status`, `subtotal`, `taxAmount`, `totalAmount`, `updatedAt`, `errorMessage`,
 * `attempts`) and `alternate` (`_id`, `invoiceStatus`, `totals.{subtotal,tax,total}`,
 * `lastModified`, `failureReason`, `retryCount`). Money is a JSON number to two decimals. The
 * attempt count is left out with `attemptCount: false` (the document shows none).
 * `totalField` renames the total (`totalAmount`, or `total` inside `totals`).
 */
import type { RecordStyle, StatusSpelling } from './options.js';
import { spell } from './statuses.js';
import type { ApiKeyRecord, InvoiceRecord } from './store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A decimal string (`"107.50"`) as a JSON number (107.5); exact, since it has two decimals. */
const money = (decimal: string): number => Number(decimal);

/**
 * The invoice as the service returns it, its status spelled as `spelling` says.
 *
 * @example
 * ```ts
 * invoiceWire(record, 'standard').status; // 'draft'
 * invoiceWire(record, 'standard', 'upper').status; // 'DRAFT'
 * ```
 */
export function invoiceWire(
  invoice: InvoiceRecord,
  style: RecordStyle,
  spelling: StatusSpelling = 'document',
  attemptCount = true,
  totalField?: string,
): Record<string, unknown> {
  const attempts = attemptCount ? invoice.attempts : undefined;
  // Shared, not copied: stored buyer and lines never change after create, and the record is
  // serialised at once (copying them showed up in bulk-run profiles).
  const common = {
    businessId: invoice.businessId,
    buyer: invoice.buyer,
    dueDate: invoice.dueDate,
    lines: invoice.lines,
  };
  if (style === 'alternate') {
    return {
      _id: invoice.id,
      invoiceStatus: spell(invoice.status, spelling),
      ...common,
      totals: { subtotal: money(invoice.subtotal), tax: money(invoice.tax), [totalField ?? 'total']: money(invoice.total) },
      failureReason: invoice.errorMessage,
      retryCount: attempts,
      createdAt: iso(invoice.createdAt),
      lastModified: iso(invoice.updatedAt),
      submittedAt: iso(invoice.submittedAt),
    };
  }
  return {
    id: invoice.id,
    status: spell(invoice.status, spelling),
    ...common,
    subtotal: money(invoice.subtotal),
    taxAmount: money(invoice.tax),
    [totalField ?? 'totalAmount']: money(invoice.total),
    errorMessage: invoice.errorMessage,
    attempts,
    createdAt: iso(invoice.createdAt),
    updatedAt: iso(invoice.updatedAt),
    submittedAt: iso(invoice.submittedAt),
  };
}

/**
 * An API key record as list and detail return it: never the secret, only its first characters.
 *
 * @example
 * ```ts
 * apiKeyWire(record).prefix; // 'sk_live_3f9a'
 * ```
 */
export function apiKeyWire(key: ApiKeyRecord): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    type: key.type,
    keyableType: key.keyableType,
    businessId: key.businessId,
    scopes: [...key.scopes],
    status: key.status,
    prefix: key.key.slice(0, 12),
    createdAt: iso(key.createdAt),
    revokedAt: iso(key.revokedAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}
