import type { FilingTransition } from '../../model/status.js';
import { badRequest, conflict, notFound } from '../errors.js';
import {
  envelope,
  listing,
  pageParams,
  requireApiKey,
  requireScope,
  type RouteContext,
  type RouteResult,
} from '../context.js';
import type { SandboxTotals } from '../options.js';
import { invoiceWire } from '../records.js';
import type { ApiKeyRecord, InvoiceRecord } from '../store.js';
import { canonicalJson } from '../../core/safe-json.js';
import { newId } from '../ids.js';
import { sameStatus } from '../statuses.js';
import { serviceTotals as computeServiceTotals } from '../totals.js';
import { CLASSIFICATION_MESSAGE, validateCreateBody, type CreateInput } from '../validation.js';

function wire(ctx: RouteContext, invoice: InvoiceRecord): Record<string, unknown> {
  const { recordStyle, statusSpelling, attemptCount, totalField } = ctx.state.options;
  return invoiceWire(invoice, recordStyle, statusSpelling, attemptCount, totalField);
}

function keyCovers(ctx: RouteContext, key: ApiKeyRecord, businessId: string): boolean {
  if (key.keyableType === 'BUSINESS') return key.businessId === businessId;
  return ctx.state.store.owns(key.userId, businessId);
}

function findInvoice(ctx: RouteContext, key: ApiKeyRecord): InvoiceRecord {
  const id = ctx.params.id ?? '';
  const invoice = ctx.state.store.invoices.get(id);
  if (invoice === undefined || !keyCovers(ctx, key, invoice.businessId)) throw notFound(`Invoice ${id} not found`);
  return invoice;
}

function serviceTotals(ctx: RouteContext, input: CreateInput, body: unknown): SandboxTotals {
  const correct = computeServiceTotals(input.lines, ctx.state.options.totalsRounding);
  const override = ctx.state.options.totals;
  return override === undefined ? correct : override(structuredClone(body) as Record<string, unknown>, correct);
}

/** POST /api/v1/invoices */
export function createInvoice(ctx: RouteContext): RouteResult {
  const key = requireApiKey(ctx);
  requireScope(ctx, key, 'invoices:write');
  const idempotencyKey = ctx.headers.get('idempotency-key');
  if (idempotencyKey === null || idempotencyKey.trim() === '') {
    throw badRequest('idempotency-key header is required');
  }
  const { store, options } = ctx.state;
  const input = validateCreateBody(ctx.body, options);

  // Authentication rule 5, the known defect: the ownership check looks for a business owned by the
  // key itself, which a BUSINESS key never is.
  if (key.keyableType === 'BUSINESS' && options.businessKeyDefect) throw notFound('Business not found');
  if (!store.businesses.has(input.businessId) || !keyCovers(ctx, key, input.businessId)) {
    throw notFound('Business not found');
  }

  // Keys sorted: a replay with the keys in another order is still "the same body".
  const print = canonicalJson(ctx.body);
  const slot = `${key.userId}\u0000${idempotencyKey}`;
  const previous = store.idempotency.get(slot);
  if (previous !== undefined) {
    if (previous.fingerprint !== print) {
      throw conflict(
        `The idempotency-key ${idempotencyKey} was already used with a different request body; use a new key for a different invoice`,
      );
    }
    const original = store.invoices.get(previous.invoiceId);
    if (original !== undefined) {
      return { ...envelope(ctx, wire(ctx, original), 201), headers: { 'idempotent-replayed': 'true' } };
    }
  }

  const totals = serviceTotals(ctx, input, ctx.body);
  const invoice: InvoiceRecord = {
    id: newId('inv'),
    businessId: input.businessId,
    userId: key.userId,
    buyer: input.buyer,
    dueDate: input.dueDate,
    lines: input.lines,
    status: 'DRAFT',
    subtotal: totals.subtotal,
    tax: totals.tax,
    total: totals.total,
    errorMessage: null,
    attempts: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    submittedAt: null,
    idempotencyKey,
    submissions: 0,
    history: [{ status: 'DRAFT', at: ctx.now }],
    scenario: undefined,
    automaticRetries: true,
    next: null,
    verdict: null,
    unknownIsicLines: input.unknownIsicLines,
  };
  store.invoices.set(invoice.id, invoice);
  store.idempotency.set(slot, { fingerprint: print, invoiceId: invoice.id });
  return { ...envelope(ctx, wire(ctx, invoice), 201), committed: true };
}

/** GET /api/v1/invoices/:id */
export function readInvoice(ctx: RouteContext): RouteResult {
  const key = requireApiKey(ctx);
  requireScope(ctx, key, 'invoices:read');
  return envelope(ctx, wire(ctx, findInvoice(ctx, key)));
}

/** GET /api/v1/invoices?page&limit&status&businessId: oldest first, so pages stay put while invoices are added. */
export function listInvoices(ctx: RouteContext): RouteResult {
  const key = requireApiKey(ctx);
  requireScope(ctx, key, 'invoices:read');
  const { page, limit } = pageParams(ctx, { limit: 10, maxLimit: 100 });
  const status = ctx.url.searchParams.get('status');
  const businessId = ctx.url.searchParams.get('businessId');
  const items: InvoiceRecord[] = [];
  for (const invoice of ctx.state.store.invoices.values()) {
    if (!keyCovers(ctx, key, invoice.businessId)) continue;
    if (businessId !== null && businessId !== '' && invoice.businessId !== businessId) continue;
    if (status !== null && status !== '' && !sameStatus(invoice.status, status)) continue;
    items.push(invoice);
  }
  return listing(ctx, items, page, limit, (invoice) => wire(ctx, invoice));
}

const PAST: Record<FilingTransition, string> = { validate: 'validated', sign: 'signed', submit: 'submitted' };

/** POST /api/v1/invoices/:id/{validate,sign,submit} */
export function transitionInvoice(transition: FilingTransition) {
  return (ctx: RouteContext): RouteResult => {
    const key = requireApiKey(ctx);
    requireScope(ctx, key, 'invoices:write');
    const invoice = findInvoice(ctx, key);
    if (transition === 'validate' && invoice.status === 'DRAFT') {
      // `unknownIsicCode: 'reject-on-validate'`: the class is checked against the 419 here.
      const bad = invoice.unknownIsicLines[0];
      if (bad !== undefined) throw badRequest(`lines[${bad}] ${CLASSIFICATION_MESSAGE}`);
    }
    ctx.state.progress.transition(invoice, transition, ctx.now);
    const message = `Invoice ${PAST[transition]}`;
    switch (ctx.state.options.transitionResponse) {
      case 'null':
        return { ...envelope(ctx, null), committed: true };
      case 'message':
        return { ...envelope(ctx, { message }, 200, { message }), committed: true };
      default:
        return { ...envelope(ctx, wire(ctx, invoice)), committed: true };
    }
  };
}
