// The document's endpoints, plus `GET /invoices/:id` (not in its table; polling needs it) and the reference at `/api/docs`.
import type { FilingTransition } from '../model/status.js';
import { canonicalJson } from '../core/safe-json.js';
import { apiDocs } from './api-docs.js';
import { envelope, listing, requireApiKey, requireSession, type RouteContext, type RouteResult } from './context.js';
import { badRequest, conflict, notFound } from './errors.js';
import { compilePattern, matchPattern } from './faults.js';
import type { KeyReplacement, SandboxRoutes } from './options.js';
import { STEPS } from './scenarios.js';
import { apiKeyWire, invoiceWire, KNOWN_SCOPES, listed, newId, revealedKey } from './store.js';
import type { ApiKeyRecord, InvoiceRecord, NewKey } from './store.js';
import { serviceTotals } from './totals.js';
import { CLASSIFICATION_MESSAGE, validateCreateBody } from './validation.js';

type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

const wire = (ctx: RouteContext, invoice: InvoiceRecord): Record<string, unknown> => invoiceWire(invoice, ctx.state.options);

const keyCovers = (ctx: RouteContext, key: ApiKeyRecord, businessId: string): boolean =>
  key.keyableType === 'BUSINESS' ? key.businessId === businessId : ctx.state.store.owns(key.userId, businessId);

function findInvoice(ctx: RouteContext, scope: string): InvoiceRecord {
  const key = requireApiKey(ctx, scope);
  const id = ctx.params.id ?? '';
  const invoice = ctx.state.store.invoices.get(id);
  if (invoice === undefined || !keyCovers(ctx, key, invoice.businessId)) throw notFound(`Invoice ${id} not found`);
  return invoice;
}

function createInvoice(ctx: RouteContext): RouteResult {
  const key = requireApiKey(ctx, 'invoices:write');
  const idempotencyKey = ctx.headers.get('idempotency-key');
  if (idempotencyKey === null || idempotencyKey.trim() === '') throw badRequest('idempotency-key header is required');
  const { store, options } = ctx.state;
  const input = validateCreateBody(ctx.body, options);

  // Authentication rule 5, the known defect: the ownership check looks for a business the key itself owns.
  if (key.keyableType === 'BUSINESS' && options.businessKeyDefect) throw notFound('Business not found');
  if (!store.businesses.has(input.businessId) || !keyCovers(ctx, key, input.businessId)) throw notFound('Business not found');

  // Keys sorted: a replay with the keys in another order is still "the same body".
  const fingerprint = canonicalJson(ctx.body);
  const slot = `${key.userId}\u0000${idempotencyKey}`;
  const previous = store.idempotency.get(slot);
  if (previous !== undefined && previous.fingerprint !== fingerprint) {
    throw conflict(`The idempotency-key ${idempotencyKey} was already used with a different request body; use a new key for a different invoice`);
  }
  const original = previous && store.invoices.get(previous.invoiceId);
  if (original !== undefined) return { ...envelope(ctx, wire(ctx, original), 201), headers: { 'idempotent-replayed': 'true' } };

  const correct = serviceTotals(input.lines, options.totalsRounding);
  const totals = options.totals === undefined ? correct : options.totals(structuredClone(ctx.body) as Record<string, unknown>, correct);
  const { unknownIsicLines, ...created } = input;
  const invoice: InvoiceRecord = {
    id: newId('inv'), userId: key.userId, ...created, status: 'DRAFT', subtotal: totals.subtotal, tax: totals.tax,
    total: totals.total, errorMessage: null, attempts: 0, createdAt: ctx.now, updatedAt: ctx.now, submittedAt: null,
    idempotencyKey, submissions: 0, history: [{ status: 'DRAFT', at: ctx.now }], scenario: undefined, automaticRetries: true,
    next: null, verdict: null, unknownIsicLines,
  };
  store.invoices.set(invoice.id, invoice);
  store.idempotency.set(slot, { fingerprint, invoiceId: invoice.id });
  return { ...envelope(ctx, wire(ctx, invoice), 201), committed: true };
}

// Oldest first, so pages stay put while invoices are added.
function listInvoices(ctx: RouteContext): RouteResult {
  const key = requireApiKey(ctx, 'invoices:read');
  const query = ctx.url.searchParams;
  const filter = { status: query.get('status') || undefined, businessId: query.get('businessId') || undefined };
  const items = [...ctx.state.store.invoices.values()].filter((i) => keyCovers(ctx, key, i.businessId) && listed(i, filter));
  return listing(ctx, items, { limit: 10, maxLimit: 100 }, (invoice) => wire(ctx, invoice));
}

function transitionInvoice(transition: FilingTransition): Handler {
  return (ctx) => {
    const invoice = findInvoice(ctx, 'invoices:write');
    // `unknownIsicCode: 'reject-on-validate'`: the class is checked here.
    const bad = transition === 'validate' && invoice.status === 'DRAFT' ? invoice.unknownIsicLines[0] : undefined;
    if (bad !== undefined) throw badRequest(`lines[${bad}] ${CLASSIFICATION_MESSAGE}`);
    ctx.state.progress.transition(invoice, transition, ctx.now);
    const mode = ctx.state.options.transitionResponse;
    const message = { message: `Invoice ${STEPS[transition].done}` };
    const data = mode === 'null' ? null : mode === 'message' ? message : wire(ctx, invoice);
    return { ...envelope(ctx, data, 200, mode === 'message' ? message : {}), committed: true };
  };
}

// API keys: for a signed-in session only. A new key revokes the user's active keys of its kind (rule 6).

const KEY_TYPES = ['LIVE'] as const;
const KEYABLE_TYPES = ['USER', 'BUSINESS'] as const;

function replaces(rule: KeyReplacement, created: ApiKeyRecord, other: ApiKeyRecord): boolean {
  if (other === created || other.userId !== created.userId || other.status !== 'active' || other.type !== created.type) return false;
  if (rule === 'type') return true;
  return other.keyableType === created.keyableType && (rule === 'type+keyableType' || other.businessId === created.businessId);
}

/** Creates a key and revokes the ones it replaces; shared by the route and `sandbox.createApiKey()`. */
export function issueKey(ctx: Pick<RouteContext, 'state' | 'now'>, input: NewKey, rule: KeyReplacement | 'none'): ApiKeyRecord {
  const { store } = ctx.state;
  const record = store.addKey(ctx.now, input);
  if (rule !== 'none') for (const other of store.keys.values()) if (replaces(rule, record, other)) store.revokeKey(other, ctx.now);
  return record;
}

function createApiKey(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  const body = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Record<string, unknown>) : {};
  const oneOf = (values: readonly string[]) => `must be one of the following values: ${values.join(', ')}`;
  const messages: string[] = [];
  if (typeof body.name !== 'string' || body.name.trim() === '') messages.push('name should not be empty', 'name must be a string');
  if (!(KEY_TYPES as readonly unknown[]).includes(body.type)) messages.push(`type ${oneOf(KEY_TYPES)}`);
  if (!(KEYABLE_TYPES as readonly unknown[]).includes(body.keyableType)) messages.push(`keyableType ${oneOf(KEYABLE_TYPES)}`);
  if (body.keyableType === 'BUSINESS' && (typeof body.businessId !== 'string' || body.businessId === '')) {
    messages.push('businessId is required when keyableType is BUSINESS');
  }
  if (body.scopes !== undefined && !Array.isArray(body.scopes)) messages.push('scopes must be an array');
  else if ((body.scopes as unknown[] | undefined)?.some((scope) => !(KNOWN_SCOPES as readonly unknown[]).includes(scope))) {
    messages.push(`each value in scopes ${oneOf(KNOWN_SCOPES)}`);
  }
  if (messages.length > 0) throw badRequest(messages);

  const keyableType = body.keyableType as ApiKeyRecord['keyableType'];
  const businessId = keyableType === 'BUSINESS' ? (body.businessId as string) : null;
  if (businessId !== null && !ctx.state.store.owns(userId, businessId)) throw notFound('Business not found');
  // Authentication rule 7: a key created without scopes holds the wildcard.
  const scopes = body.scopes === undefined ? ['*'] : [...new Set(body.scopes as string[])];
  const input = { userId, name: body.name as string, type: body.type as string, keyableType, businessId, scopes };
  const record = issueKey(ctx, input, ctx.state.options.keyReplacement);
  return { ...envelope(ctx, revealedKey(record), 201), committed: true };
}

function findKey(ctx: RouteContext): ApiKeyRecord {
  const userId = requireSession(ctx);
  const id = ctx.params.id ?? '';
  const key = ctx.state.store.keys.get(id);
  if (key === undefined || key.userId !== userId) throw notFound(`API key ${id} not found`);
  return key;
}

function listApiKeys(ctx: RouteContext): RouteResult {
  const userId = requireSession(ctx);
  return listing(ctx, [...ctx.state.store.keys.values()].filter((k) => k.userId === userId), { limit: 10, maxLimit: 100 }, apiKeyWire);
}

// Revoking is immediate and permanent; revoking a revoked key answers the same.
function revokeApiKey(ctx: RouteContext): RouteResult {
  const key = findKey(ctx);
  const committed = key.status === 'active';
  ctx.state.store.revokeKey(key, ctx.now);
  return { ...envelope(ctx, apiKeyWire(key)), committed };
}

// Tax-authority codes, not shown in the document: `{ code, description }` rows, `?q=` a code prefix or words.

type CodeEntry = { code: string; description: string };
const tables: Partial<Record<'hs' | 'isic', Promise<CodeEntry[]>>> = {};

function codeLookup(table: 'hs' | 'isic'): Handler {
  return async (ctx) => {
    requireApiKey(ctx, 'taxauth:read');
    // Loaded on the first lookup, through the public codes entry so the package ships the tables once.
    const entries = await (tables[table] ??= import('../codes/index.js').then((m) =>
      table === 'hs'
        ? m.hsSubheadings.map(({ code, description }) => ({ code, description }))
        : m.isicClasses.map(({ code, title }) => ({ code, description: title })),
    ));
    const query = (ctx.url.searchParams.get('q') ?? '').trim().toLowerCase();
    const words = query.split(/\s+/);
    // Digits and dots are a code prefix: descriptions quote other codes a code search must not return.
    const found = /^[\d.]+$/.test(query)
      ? entries.filter((e) => e.code.startsWith(query))
      : entries.filter((e) => words.every((w) => e.description.toLowerCase().includes(w)));
    return listing(ctx, found, { limit: 100, maxLimit: 1000 }, (e) => ({ ...e }));
  };
}

// A route switched off is not there at all: its path falls through to the unknown-route 404.
const ROUTES = (
  [
    ['POST', '/api/v1/invoices', createInvoice],
    ['GET', '/api/v1/invoices', listInvoices],
    ['GET', '/api/v1/invoices/:id', (ctx) => envelope(ctx, wire(ctx, findInvoice(ctx, 'invoices:read'))), 'retrieve'],
    ...(['validate', 'sign', 'submit'] as const).map((step) => ['POST', `/api/v1/invoices/:id/${step}`, transitionInvoice(step)]),
    ['POST', '/api/v1/api-key', createApiKey],
    ['GET', '/api/v1/api-key', listApiKeys],
    ['GET', '/api/v1/api-key/:id', (ctx) => envelope(ctx, apiKeyWire(findKey(ctx)))],
    // The secret is recoverable (Authentication, rule 8).
    ['GET', '/api/v1/api-key/:id/reveal', (ctx) => envelope(ctx, revealedKey(findKey(ctx)))],
    ['DELETE', '/api/v1/api-key/:id', revokeApiKey],
    ['GET', '/api/v1/taxauth/hs-codes', codeLookup('hs')],
    ['GET', '/api/v1/taxauth/service-codes', codeLookup('isic')],
    ['GET', '/api/docs', apiDocs],
    ['GET', '/api/docs/:file', apiDocs],
    ['GET', '/api/docs-json', apiDocs],
  ] as [string, string, Handler, (keyof SandboxRoutes)?][]
).map(([method, path, handler, optional]) => ({ method, pattern: compilePattern(path), handler, optional }));

export function findRoute(method: string, path: string, served: Record<keyof SandboxRoutes, boolean>) {
  for (const r of ROUTES) {
    if (r.method !== method || (r.optional !== undefined && !served[r.optional])) continue;
    const params = matchPattern(r.pattern, path);
    if (params !== undefined) return { handler: r.handler, params };
  }
  return undefined;
}
