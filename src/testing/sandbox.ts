// The main entry, not ../client.js, so the sandbox's client is the user's InvoicingClient class.
import { InvoicingClient } from '../index.js';
import type { ClientOptions } from '../core/options.js';
import { createClock, toEpochMs, type SandboxClock } from './clock.js';
import type { SandboxState } from './context.js';
import { FaultRegistry, type SandboxFaults } from './faults.js';
import { SandboxHandler, type RequestLogEntry } from './handler.js';
import { loadMswHandlers, type LoadedMswHandlers, type SandboxMswHandler } from './msw.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { Progress, recoveryOf } from './progress.js';
import { issueKey } from './routes.js';
import { recordStatus, resolveScenario, spell, type Scenario, type ScenarioRule, type ScenarioSubject } from './scenarios.js';
import type { LoopbackServer } from './server.js';
import { invoiceWire, KNOWN_SCOPES, listed, Store, type InvoiceRecord } from './store.js';

/** A stored invoice as tests see it: money as decimal strings, times as ISO strings. @example expect(sandbox.invoices.get(invoice.id)?.status).toBe('Accepted'); */
export interface SandboxInvoice {
  /** Invoice id. */ id: string;
  /** Its business. */ businessId: string;
  /** Status in the service's spelling (`draft`, `Validated`, …, `Accepted`; see the `statusSpelling` option). */ status: string;
  /** The buyer as created. */ buyer: ScenarioSubject['buyer'];
  /** The due date as created. */ dueDate: string;
  /** The lines as created. */ lines: Record<string, unknown>[];
  /** Computed by the service, two decimals. */ subtotal: string;
  /** Computed by the service, two decimals. */ tax: string;
  /** Computed by the service, two decimals. */ total: string;
  /** The submission failure, or null. */ errorMessage: string | null;
  /** Automatic-recovery attempts used since the last submit. */ attempts: number;
  /** Sandbox time of creation, ISO 8601. */ createdAt: string;
  /** Sandbox time it was last touched (status change or automatic retry). */ updatedAt: string;
  /** Sandbox time of the last accepted submit, or null. */ submittedAt: string | null;
  /** The idempotency key it was created with. */ idempotencyKey: string;
  /** Submits the service accepted: the first one and deliberate re-submits. */ submissions: number;
  /** Every status the invoice held, in the service's spelling, with the sandbox time it began. */
  history: {
    /** Status, in the service's spelling. */ status: string;
    /** Sandbox time it began, ISO 8601. */ at: string;
  }[];
  /** Automatic recovery as the service sees it (`not-applicable` outside Error). */ recovery: 'in-progress' | 'over' | 'not-applicable';
  /** When the next automatic change (the authority's answer or a recovery run) is due, or null. */ nextChangeAt: string | null;
  /** The record exactly as `GET /api/v1/invoices/:id` returns it (in the sandbox's `recordStyle`). */ wire: Record<string, unknown>;
}

/** A raw edit of a stored invoice, for states slow or impossible to reach through the API. @example sandbox.invoices.update(id, { status: 'Error', errorMessage: 'Access points are offline', updatedAt: sandbox.clock.now() - 25 * 3600_000, attempts: 1 }); */
export interface SandboxInvoicePatch {
  /** Any spelling (`Error`, `ERROR`); a status after Submitted is kept as given. */ status?: string | undefined;
  /** Automatic-recovery attempts used. */ attempts?: number | undefined;
  /** The submission failure, or null. */ errorMessage?: string | null | undefined;
  /** When it was last touched (drives the 24-hour window and the next retry). */ updatedAt?: Date | number | string | undefined;
  /** Whether the service's retry job picks the invoice up while in Error. */ automaticRetries?: boolean | undefined;
}

/** The stored invoices, for assertions and set-up. @example expect(sandbox.invoices.list({ status: 'Accepted' })).toHaveLength(500); */
export interface SandboxInvoices {
  /** Every stored invoice, oldest first, optionally filtered (status in any spelling). */
  list(filter?: { status?: string | undefined; businessId?: string | undefined }): SandboxInvoice[];
  /** One invoice, or `undefined`. */ get(id: string): SandboxInvoice | undefined;
  /** How many invoices are stored. */ readonly count: number;
  /** Edits a stored invoice directly (see {@link SandboxInvoicePatch}). */ update(id: string, patch: SandboxInvoicePatch): SandboxInvoice;
}

/** Another portal user, with a session and a business of their own. @example const other = sandbox.createUser(); await sandbox.client({ apiKey: other.apiKey }).invoices.create({ ...input, businessId: other.businessId }); */
export interface SandboxUser {
  /** The new user. */ userId: string;
  /** A signed-in session of theirs. */ sessionToken: string;
  /** A business they own. */ businessId: string;
  /** A USER LIVE key with every scope. */ apiKey: string;
}

/** A key made by {@link Sandbox.createApiKey}. @example const { key } = sandbox.createApiKey({ scopes: ['invoices:read'] }); */
export interface SandboxApiKey {
  /** Key id (for `revokeApiKey` and the `/api/v1/api-key/:id` routes). */ id: string;
  /** The secret, for `X-API-Key`. */ key: string;
}

/** What {@link Sandbox.createApiKey} takes; unlike the HTTP route it revokes nothing unless `replaceExisting`. @example sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId, scopes: ['invoices:write'] }); */
export interface SandboxApiKeyInput {
  /** Owner (default: the sandbox's user). */ userId?: string | undefined;
  /** Label (default `Sandbox key`). */ name?: string | undefined;
  /** Default `LIVE`. */ type?: string | undefined;
  /** Default `USER`. */ keyableType?: 'USER' | 'BUSINESS' | undefined;
  /** For a BUSINESS key (default: the sandbox's business); must be owned by the user. */ businessId?: string | undefined;
  /** Default `['*']`. */ scopes?: string[] | undefined;
  /** Revoke the keys this one replaces, as the HTTP route does (default false). */ replaceExisting?: boolean | undefined;
}

/** A running sandbox. See `createSandbox()`. @example await using sandbox = await createSandbox(); const client = sandbox.client(); */
export interface Sandbox {
  /** `http://127.0.0.1:PORT`, or the `baseUrl` option when not listening; the SDK adds `/api/v1`. */ readonly baseUrl: string;
  /** A LIVE key of the default user, every scope (`*`): USER unless the `apiKeyType` option says BUSINESS. */ readonly apiKey: string;
  /** A signed-in session of the default user, for the `/api/v1/api-key` routes. */ readonly sessionToken: string;
  /** The default business, owned by the default user. */ readonly businessId: string;
  /** The default user. */ readonly userId: string;
  /** msw request handlers answering like the loopback server; throws when msw is not installed. */ readonly handlers: SandboxMswHandler[];
  /** The sandbox's clock. */ readonly clock: SandboxClock;
  /** Fault injection per route. */ readonly faults: SandboxFaults;
  /** Every request received so far, oldest first, secrets redacted. */ readonly requests: RequestLogEntry[];
  /** The stored invoices. */ readonly invoices: SandboxInvoices;
  /** An `InvoicingClient` wired to the sandbox; `options` override its own. */ client(options?: ClientOptions): InvoicingClient;
  /** The behaviour itself: answers one fetch `Request` (no socket, no msw). */ handle(request: Request): Promise<Response>;
  /** A `fetch` that talks to the sandbox in-process, failing as the global fetch does. */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Sets the scenario (or a per-invoice rule) from the next submit attempt on. */ setScenario(scenario: Scenario | ScenarioRule): void;
  /** Sets one invoice's scenario (`undefined`: the sandbox's). */ setScenario(invoiceId: string, scenario: Scenario | undefined): void;
  /** Adds a user with a session, a business and a USER key of their own. */
  createUser(input?: { name?: string | undefined; email?: string | undefined }): SandboxUser;
  /** Adds a business owned by `ownerUserId` (default: the sandbox's user); returns its id. */
  createBusiness(input?: { ownerUserId?: string | undefined; name?: string | undefined }): string;
  /** Signs `userId` in (default: the sandbox's user); returns the session token. */ createSession(userId?: string): string;
  /** Signs a session out: requests with it then get 401. */ endSession(token: string): void;
  /** Adds an API key without a request (see {@link SandboxApiKeyInput}). */ createApiKey(input?: SandboxApiKeyInput): SandboxApiKey;
  /** Revokes a key by id or secret. */ revokeApiKey(idOrKey: string): void;
  /** Empties the request log. */ clearRequests(): void;
  /** Back to a fresh state with the same identities, and the clock back at its start. */ reset(): void;
  /** Stops the loopback server, ends stalled bodies and pending delays. Safe to call twice. */ close(): Promise<void>;
  /** Same as `close()`, for `await using sandbox = await createSandbox()`. */ [Symbol.asyncDispose](): Promise<void>;
}

class SandboxImpl implements Sandbox {
  readonly clock: SandboxClock;
  readonly faults = new FaultRegistry();
  readonly invoices: SandboxInvoices = this.invoiceView();
  readonly handle = (request: Request): Promise<Response> => this.handler.handle(request);
  readonly createSession = (userId: string = this.userId): string => this.state.store.addSession(userId);
  readonly endSession = (token: string): void => void this.state.store.sessions.delete(token);
  readonly clearRequests = (): void => void this.handler.log.splice(0);
  readonly [Symbol.asyncDispose] = (): Promise<void> => this.close();
  baseUrl: string; readonly apiKey: string; readonly sessionToken: string; readonly businessId: string; readonly userId: string;

  private readonly state: SandboxState;
  private readonly handler: SandboxHandler;
  private server: LoopbackServer | undefined;
  private msw: LoadedMswHandlers | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ResolvedOptions) {
    this.clock = createClock(options.now, options.timeScale, this.catchUp);
    this.state = { options, clock: this.clock, ...emptyState(options) };
    this.handler = new SandboxHandler(this.state, this.faults);
    this.baseUrl = options.baseUrl;
    ({ apiKey: this.apiKey, sessionToken: this.sessionToken, businessId: this.businessId, userId: this.userId } = this.seed(options));
  }

  async start(): Promise<this> {
    if (this.options.listen) {
      // node:http only when listening, so browsers and workers never need it.
      const { listen } = await import('./server.js');
      this.server = await listen(this.handler, this.options.port);
      this.baseUrl = this.server.origin;
    }
    if (this.options.msw) this.msw = await loadMswHandlers(this.baseUrl, this.handle, false);
    return this;
  }

  get handlers(): SandboxMswHandler[] {
    this.msw ??= loadMswHandlers(this.baseUrl, this.handle, true);
    if (!this.msw.ok) throw new Error(this.msw.problem);
    return [...this.msw.handlers];
  }

  get requests(): RequestLogEntry[] { return [...this.handler.log]; }

  client(options: ClientOptions = {}): InvoicingClient {
    // A plain spread would let `{ apiKey: undefined }` drop the sandbox's key.
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return new InvoicingClient({
      baseUrl: this.baseUrl,
      apiKey: this.apiKey,
      sessionToken: this.sessionToken,
      // In-process: the made-up http:// host never carries a key over a network.
      ...(this.server === undefined ? { fetch: this.fetch, allowInsecureHttp: true } : {}),
      ...(given as ClientOptions),
    });
  }

  setScenario(...args: [Scenario | ScenarioRule] | [string, Scenario | undefined]): void {
    const scenario = args.length === 1 ? args[0] : args[1];
    if (scenario !== undefined && typeof scenario !== 'function') resolveScenario(scenario, this.options);
    if (args.length === 1) this.state.progress.scenario = args[0];
    else this.find(args[0]).scenario = args[1];
  }

  createUser(input: { name?: string | undefined; email?: string | undefined } = {}): SandboxUser {
    return this.seed({ name: input.name, email: input.email }, 'Sandbox key', 'USER');
  }

  createBusiness(input: { ownerUserId?: string | undefined; name?: string | undefined } = {}): string {
    return this.state.store.addBusiness(this.clock.now(), input.ownerUserId ?? this.userId, { name: input.name });
  }

  createApiKey(input: SandboxApiKeyInput = {}): SandboxApiKey {
    const { store } = this.state;
    const userId = input.userId ?? this.userId;
    const keyableType = input.keyableType ?? 'USER';
    const businessId = keyableType === 'BUSINESS' ? (input.businessId ?? this.businessId) : null;
    if (!store.users.has(userId)) throw new RangeError(`No sandbox user ${userId}`);
    if (businessId !== null && !store.owns(userId, businessId)) throw new RangeError(`User ${userId} does not own business ${businessId}`);
    const scopes = input.scopes ?? ['*'];
    const unknown = scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw new RangeError(`Unknown scopes ${unknown.join(', ')}; use ${KNOWN_SCOPES.join(', ')}`);
    const created = { userId, name: input.name ?? 'Sandbox key', type: input.type ?? 'LIVE', keyableType, businessId, scopes: [...scopes] };
    const rule = input.replaceExisting === true ? this.options.keyReplacement : 'none';
    const { id, key } = issueKey({ state: this.state, now: this.clock.now() }, created, rule);
    return { id, key };
  }

  revokeApiKey(idOrKey: string): void {
    const { store } = this.state;
    const record = store.keys.get(idOrKey) ?? store.keysBySecret.get(idOrKey);
    if (record === undefined) throw new RangeError('No such sandbox API key');
    store.revokeKey(record, this.clock.now());
  }

  reset(): void {
    Object.assign(this.state, emptyState(this.options));
    this.faults.clear();
    this.clearRequests();
    this.clock.reset();
    if (this.options.now !== undefined) this.clock.set(this.options.now);
    this.clock.timeScale = this.options.timeScale;
    this.seed(this);
  }

  close(): Promise<void> {
    this.handler.shutdown();
    return (this.closing ??= this.server?.close() ?? Promise.resolve());
  }

  private readonly catchUp = (): void => this.state.progress.runDue(this.clock.now());

  private find(id: string): InvoiceRecord {
    const invoice = this.state.store.invoices.get(id);
    if (invoice === undefined) throw new RangeError(`No sandbox invoice ${id}`);
    return invoice;
  }

  // A user with a session, a business and a LIVE key with every scope; fixed parts are kept (the default identity).
  private seed(
    fixed: Partial<SandboxUser> & { name?: string | undefined; email?: string | undefined },
    keyName = 'Sandbox default key',
    keyableType = this.options.apiKeyType,
  ): SandboxUser {
    const { store } = this.state;
    const now = this.clock.now();
    const userId = store.addUser(now, { id: fixed.userId, name: fixed.name, email: fixed.email });
    const sessionToken = store.addSession(userId, fixed.sessionToken);
    const businessId = store.addBusiness(now, userId, { id: fixed.businessId });
    const business = keyableType === 'BUSINESS' ? businessId : null;
    const key = store.addKey(now, { userId, name: keyName, type: 'LIVE', keyableType, businessId: business, scopes: ['*'], key: fixed.apiKey });
    return { apiKey: key.key, sessionToken, businessId, userId };
  }

  private view(invoice: InvoiceRecord): SandboxInvoice {
    const iso = (ms: number): string => new Date(ms).toISOString();
    const { statusSpelling } = this.options;
    const { id, businessId, dueDate, subtotal, tax, total, errorMessage, attempts, idempotencyKey, submissions, submittedAt, next } = invoice;
    return {
      id, businessId, status: spell(invoice.status, statusSpelling),
      buyer: structuredClone(invoice.buyer) as ScenarioSubject['buyer'], dueDate, lines: structuredClone(invoice.lines), subtotal,
      tax, total, errorMessage, attempts, createdAt: iso(invoice.createdAt), updatedAt: iso(invoice.updatedAt),
      submittedAt: submittedAt === null ? null : iso(submittedAt), idempotencyKey, submissions,
      history: invoice.history.map((h) => ({ status: spell(h.status, statusSpelling), at: iso(h.at) })),
      recovery: recoveryOf(invoice, this.clock.now()),
      nextChangeAt: next === null ? null : iso(next.at),
      wire: structuredClone(invoiceWire(invoice, this.options)),
    };
  }

  private invoiceView(): SandboxInvoices {
    const sandbox = this;
    return {
      list(filter = {}) {
        sandbox.catchUp();
        return [...sandbox.state.store.invoices.values()].filter((i) => listed(i, filter)).map((i) => sandbox.view(i));
      },
      get(id) {
        sandbox.catchUp();
        const invoice = sandbox.state.store.invoices.get(id);
        return invoice === undefined ? undefined : sandbox.view(invoice);
      },
      get count() { return sandbox.state.store.invoices.size; },
      update(id, patch) {
        sandbox.catchUp();
        const invoice = sandbox.find(id);
        const now = sandbox.clock.now();
        const { progress } = sandbox.state;
        if (patch.attempts !== undefined) invoice.attempts = patch.attempts;
        if (patch.errorMessage !== undefined) invoice.errorMessage = patch.errorMessage;
        if (patch.automaticRetries !== undefined) invoice.automaticRetries = patch.automaticRetries;
        if (patch.status !== undefined) progress.setStatus(invoice, recordStatus(patch.status), now);
        if (patch.updatedAt !== undefined) invoice.updatedAt = toEpochMs(patch.updatedAt);
        Object.assign(invoice, { next: null, verdict: null });
        if (invoice.status === 'ERROR') progress.bookRecovery(invoice, now);
        else if (invoice.status === 'SUBMITTED') progress.schedule(invoice, 'respond', now + sandbox.options.responseDelayMs);
        return sandbox.view(invoice);
      },
    };
  }

  readonly fetch: Sandbox['fetch'] = async (input, init) => {
    const request = new Request(input, init);
    const signal = request.signal;
    signal.throwIfAborted();
    const response = await new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.handle(request).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
    if (response.type === 'error') throw new TypeError('fetch failed', { cause: new Error('sandbox: the connection was dropped (injected fault)') });
    return response;
  };
}

function emptyState(options: ResolvedOptions): Pick<SandboxState, 'store' | 'progress'> {
  const store = new Store();
  return { store, progress: new Progress(store, options) };
}

/** Starts an in-memory emulation of the service, on a random loopback port unless `{ listen: false }`. @example const sandbox = await createSandbox(); */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return new SandboxImpl(resolveOptions(options)).start();
}
