// Plain maps changed synchronously, so concurrent requests never interleave a lookup and its write.
import type { Scenario } from './scenarios.js';
import { newId, newKeySecret, newSessionToken } from './ids.js';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  createdAt: number;
}

export interface BusinessRecord {
  id: string;
  name: string;
  ownerUserId: string;
  createdAt: number;
}

/** The scopes the document names. */
export const KNOWN_SCOPES = ['invoices:read', 'invoices:write', 'taxauth:read', '*'] as const;

export interface ApiKeyRecord {
  id: string;
  name: string;
  type: string;
  keyableType: 'USER' | 'BUSINESS';
  businessId: string | null;
  userId: string;
  scopes: string[];
  key: string;
  status: 'active' | 'revoked';
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** `status` is canonical (`DRAFT` …) or a later status as given. */
export interface InvoiceRecord {
  id: string;
  businessId: string;
  userId: string;
  buyer: Record<string, unknown>;
  dueDate: string;
  lines: Record<string, unknown>[];
  status: string;
  subtotal: string;
  tax: string;
  total: string;
  errorMessage: string | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  idempotencyKey: string;
  submissions: number;
  history: { status: string; at: number }[];
  scenario: Scenario | undefined;
  automaticRetries: boolean;
  next: { kind: 'respond' | 'verdict' | 'retry'; at: number } | null;
  /** The authority's final answer, held during the processing status. */
  verdict: { status: string; errorMessage: string | null } | null;
  unknownIsicLines: number[];
}

export interface IdempotencyRecord {
  fingerprint: string;
  invoiceId: string;
}

export class Store {
  readonly users = new Map<string, UserRecord>();
  readonly sessions = new Map<string, string>();
  readonly businesses = new Map<string, BusinessRecord>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly keysBySecret = new Map<string, ApiKeyRecord>();
  readonly invoices = new Map<string, InvoiceRecord>();
  /** Keyed by user id and idempotency key: keys are scoped to the user, not to one API key. */
  readonly idempotency = new Map<string, IdempotencyRecord>();

  addUser(now: number, input: { id?: string; name?: string; email?: string } = {}): UserRecord {
    const id = input.id ?? newId('usr');
    const user: UserRecord = {
      id,
      name: input.name ?? 'Sandbox User',
      email: input.email ?? `${id}@sandbox.invoicing.test`,
      createdAt: now,
    };
    this.users.set(id, user);
    return user;
  }

  addSession(userId: string, token: string = newSessionToken()): string {
    this.requireUser(userId);
    this.sessions.set(token, userId);
    return token;
  }

  addBusiness(now: number, ownerUserId: string, input: { id?: string; name?: string } = {}): BusinessRecord {
    this.requireUser(ownerUserId);
    const business: BusinessRecord = {
      id: input.id ?? newId('biz'),
      name: input.name ?? 'Sandbox Business Ltd',
      ownerUserId,
      createdAt: now,
    };
    this.businesses.set(business.id, business);
    return business;
  }

  addKey(
    now: number,
    input: Omit<ApiKeyRecord, 'id' | 'key' | 'status' | 'createdAt' | 'revokedAt' | 'lastUsedAt'> & { key?: string },
  ): ApiKeyRecord {
    const record: ApiKeyRecord = {
      ...input,
      id: newId('key'),
      key: input.key ?? newKeySecret(input.type),
      status: 'active',
      createdAt: now,
      revokedAt: null,
      lastUsedAt: null,
    };
    this.keys.set(record.id, record);
    this.keysBySecret.set(record.key, record);
    return record;
  }

  revokeKey(record: ApiKeyRecord, now: number): void {
    if (record.status === 'revoked') return;
    record.status = 'revoked';
    record.revokedAt = now;
  }

  owns(userId: string, businessId: string): boolean {
    return this.businesses.get(businessId)?.ownerUserId === userId;
  }

  private requireUser(userId: string): void {
    if (!this.users.has(userId)) throw new RangeError(`No sandbox user ${userId}`);
  }
}
