// The document does not publish the stored invoice's field names: two spellings, money as JSON numbers.
import type { RecordStyle, StatusSpelling } from './options.js';
import { spell } from './statuses.js';
import type { ApiKeyRecord, InvoiceRecord } from './store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const money = Number;

export function invoiceWire(
  invoice: InvoiceRecord,
  style: RecordStyle,
  spelling: StatusSpelling = 'document',
  attemptCount = true,
  totalField?: string,
): Record<string, unknown> {
  const attempts = attemptCount ? invoice.attempts : undefined;
  // Shared, not copied: stored buyer and lines never change after create.
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

/** Never the secret, only its first characters. */
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
