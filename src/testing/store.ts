// Plain maps changed synchronously, so concurrent requests never interleave a lookup and its write.
import type { RecordStyle, ResolvedOptions } from './options.js';
import { sameStatus, spell, type Scenario } from './scenarios.js';

export const KNOWN_SCOPES = ['invoices:read', 'invoices:write', 'taxauth:read', '*'] as const;

export interface ApiKeyRecord {
  id: string; name: string; type: string; keyableType: 'USER' | 'BUSINESS'; businessId: string | null; userId: string;
  scopes: string[]; key: string; status: 'active' | 'revoked'; createdAt: number; revokedAt: number | null;
  lastUsedAt: number | null;
}

export type NewKey = Omit<ApiKeyRecord, 'id' | 'key' | 'status' | 'createdAt' | 'revokedAt' | 'lastUsedAt'> & { key?: string | undefined };

/** `status` is canonical (`DRAFT` …) or a later status as given. */
export interface InvoiceRecord {
  id: string; businessId: string; userId: string; buyer: Record<string, unknown>; dueDate: string;
  lines: Record<string, unknown>[]; status: string; subtotal: string; tax: string; total: string; errorMessage: string | null;
  attempts: number; createdAt: number; updatedAt: number; submittedAt: number | null; idempotencyKey: string; submissions: number;
  history: { status: string; at: number }[]; scenario: Scenario | undefined; automaticRetries: boolean;
  next: { kind: 'respond' | 'verdict' | 'retry'; at: number } | null;
  /** The authority's final answer, held during the processing status. */ verdict: { status: string; errorMessage: string | null } | null;
  unknownIsicLines: number[];
}

export function newId(prefix: string, bytes = 12): string {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return `${prefix}_${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export class Store {
  readonly users = new Map<string, { id: string; name: string; email: string; createdAt: number }>();
  readonly sessions = new Map<string, string>();
  readonly businesses = new Map<string, { id: string; name: string; ownerUserId: string; createdAt: number }>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly keysBySecret = new Map<string, ApiKeyRecord>();
  readonly invoices = new Map<string, InvoiceRecord>();
  /** Keyed by user id and idempotency key: keys are scoped to the user, not to one API key. */
  readonly idempotency = new Map<string, { fingerprint: string; invoiceId: string }>();

  addUser(now: number, input: { id?: string | undefined; name?: string | undefined; email?: string | undefined } = {}): string {
    const id = input.id ?? newId('usr');
    this.users.set(id, { id, name: input.name ?? 'Sandbox User', email: input.email ?? `${id}@sandbox.invoicing.test`, createdAt: now });
    return id;
  }

  addSession(userId: string, token: string = newId('sess', 24)): string {
    this.requireUser(userId);
    this.sessions.set(token, userId);
    return token;
  }

  addBusiness(now: number, ownerUserId: string, input: { id?: string | undefined; name?: string | undefined } = {}): string {
    this.requireUser(ownerUserId);
    const id = input.id ?? newId('biz');
    this.businesses.set(id, { id, name: input.name ?? 'Sandbox Business Ltd', ownerUserId, createdAt: now });
    return id;
  }

  addKey(now: number, input: NewKey): ApiKeyRecord {
    const key = input.key ?? newId(`sk_${input.type.toLowerCase()}`, 24);
    const record: ApiKeyRecord = { ...input, id: newId('key'), key, status: 'active', createdAt: now, revokedAt: null, lastUsedAt: null };
    this.keys.set(record.id, record);
    this.keysBySecret.set(record.key, record);
    return record;
  }

  revokeKey(record: ApiKeyRecord, now: number): void {
    if (record.status === 'active') Object.assign(record, { status: 'revoked', revokedAt: now });
  }

  owns(userId: string, businessId: string): boolean {
    return this.businesses.get(businessId)?.ownerUserId === userId;
  }

  private requireUser(userId: string): void {
    if (!this.users.has(userId)) throw new RangeError(`No sandbox user ${userId}`);
  }
}

export const listed = (i: InvoiceRecord, filter: { status?: string | undefined; businessId?: string | undefined }): boolean =>
  (filter.businessId ?? i.businessId) === i.businessId && (filter.status === undefined || sameStatus(i.status, filter.status));

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

// The document does not publish the stored invoice's field names: two spellings, money as JSON numbers.
export function invoiceWire(invoice: InvoiceRecord, options: Pick<ResolvedOptions, 'statusSpelling' | 'attemptCount' | 'totalField'> & { recordStyle: RecordStyle }): Record<string, unknown> {
  const attempts = options.attemptCount ? invoice.attempts : undefined;
  const status = spell(invoice.status, options.statusSpelling);
  // Shared, not copied: stored buyer and lines never change after create.
  const { businessId, buyer, dueDate, lines } = invoice;
  const [subtotal, tax, total] = [invoice.subtotal, invoice.tax, invoice.total].map(Number);
  const [createdAt, updatedAt, submittedAt] = [invoice.createdAt, invoice.updatedAt, invoice.submittedAt].map(iso);
  if (options.recordStyle === 'alternate') {
    const totals = { subtotal, tax, [options.totalField ?? 'total']: total };
    return { _id: invoice.id, invoiceStatus: status, businessId, buyer, dueDate, lines, totals, failureReason: invoice.errorMessage, retryCount: attempts, createdAt, lastModified: updatedAt, submittedAt };
  }
  return {
    id: invoice.id, status, businessId, buyer, dueDate, lines, subtotal, taxAmount: tax, [options.totalField ?? 'totalAmount']: total,
    errorMessage: invoice.errorMessage, attempts, createdAt, updatedAt, submittedAt,
  };
}

/** Never the secret, only its first characters. */
export function apiKeyWire(key: ApiKeyRecord): Record<string, unknown> {
  const { id, name, type, keyableType, businessId, scopes, status, createdAt, revokedAt, lastUsedAt } = key;
  return {
    id, name, type, keyableType, businessId, scopes: [...scopes], status, prefix: key.key.slice(0, 12),
    createdAt: iso(createdAt), revokedAt: iso(revokedAt), lastUsedAt: iso(lastUsedAt),
  };
}

export const revealedKey = (key: ApiKeyRecord): Record<string, unknown> => ({ ...apiKeyWire(key), key: key.key });
