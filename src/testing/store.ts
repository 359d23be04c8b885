/**
 * The sandbox's state: users, signed-in sessions, businesses, API keys, invoices and the
 * idempotency records of `POST /invoices`. Plain maps, changed synchronously, so two concurrent
 * requests never interleave between a lookup and the write that depends on it.
 */
import type { Scenario } from './scenarios.js';
import { newId, newKeySecret, newSessionToken } from './ids.js';

/** A portal user. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  createdAt: number;
}

/** A business and the user who owns it. */
export interface BusinessRecord {
  id: string;
  name: string;
  ownerUserId: string;
  createdAt: number;
}

/** The scopes the document names. */
export const KNOWN_SCOPES = ['invoices:read', 'invoices:write', 'taxauth:read', '*'] as const;

/** An API key, secret included (the secret never leaves through list or detail). */
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

/** One status an invoice held, and since when. */
export interface StatusChange {
  status: string;
  at: number;
}

/** An invoice as the sandbox holds it. `status` is canonical (`DRAFT` … or a later raw status). */
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
  /** Automatic-recovery attempts used since the last (re-)submit. */
  attempts: number;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  idempotencyKey: string;
  /** Submit calls the service accepted (the first submit and deliberate re-submits). */
  submissions: number;
  history: StatusChange[];
  /** Per-invoice scenario set by `sandbox.setScenario(id, …)`. */
  scenario: Scenario | undefined;
  /** Whether the service's retry job picks this invoice up while in Error. */
  automaticRetries: boolean;
  /** The next scheduled event: the authority's answer, its verdict after processing, or the recovery job's run. */
  next: { kind: 'respond' | 'verdict' | 'retry'; at: number } | null;
  /** The authority's final answer while the invoice is in the processing status. */
  verdict: { status: string; errorMessage: string | null } | null;
  /** Lines whose four-digit code is not one of the 419 classes, for `unknownIsicCode: 'reject-on-validate'`. */
  unknownIsicLines: number[];
}

/** What an idempotency key of `POST /invoices` is bound to. */
export interface IdempotencyRecord {
  fingerprint: string;
  invoiceId: string;
}

/** The whole in-memory state. */
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

  /** True when `userId` owns `businessId`. */
  owns(userId: string, businessId: string): boolean {
    return this.businesses.get(businessId)?.ownerUserId === userId;
  }

  private requireUser(userId: string): void {
    if (!this.users.has(userId)) throw new RangeError(`No sandbox user ${userId}`);
  }
}
