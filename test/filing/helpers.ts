/**
 * Shared set-up of the filing tests: an in-process sandbox with a frozen clock, a client wired to
 * it, and a WaitClock whose pauses advance the sandbox instead of waiting, so 10-minute retries and
 * 24-hour windows take no real time and every run sees the same timeline.
 */
import { InvoicingClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/options.js';
import type { WaitClock } from '../../src/filing/clock.js';
import type { InvoiceCreateParams } from '../../src/model/invoice-input.js';
import type { FilingInvoicesApi } from '../../src/filing/api.js';
import type { WatchInvoicesApi } from '../../src/filing/watch.js';
import type { Invoice } from '../../src/model/invoice.js';
import { normalizeStatus } from '../../src/model/status.js';
import { createSandbox } from '../../src/testing/index.js';
import type { Sandbox, SandboxOptions } from '../../src/testing/index.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A sandbox answering in-process (no socket), its clock frozen unless `timeScale` is given. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ listen: false, msw: false, timeScale: 0, now: '2026-03-02T09:00:00Z', ...options });
}

/** A client of `sandbox`; the transport's own retries are off unless asked, so counts are exact. */
export function clientOf(sandbox: Sandbox, options: ClientOptions = {}): InvoicingClient {
  return new InvoicingClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    fetch: sandbox.fetch,
    logLevel: 'error',
    ...options,
  });
}

/** Pauses advance the sandbox clock by their length and return at once; `now` is sandbox time. */
export function sandboxClock(sandbox: Sandbox): WaitClock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => sandbox.clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      sandbox.clock.advance(Math.max(0, ms));
    },
  };
}

/** A valid invoice for the sandbox's business. */
export function sampleInput(sandbox: Pick<Sandbox, 'businessId'>, n = 1): InvoiceCreateParams {
  return {
    businessId: sandbox.businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: `Buyer ${n}` },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: `Setup and configuration #${n}`, quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
    ],
  };
}

/** Requests of one kind in the sandbox's log: `sends(sandbox, 'sign')`, `sends(sandbox, 'GET')`. */
export function sends(sandbox: Sandbox, what: 'create' | 'validate' | 'sign' | 'submit' | 'GET', id?: string) {
  return sandbox.requests.filter((r) => {
    if (what === 'GET') return r.method === 'GET' && /\/invoices\/[^/]+$/.test(r.path) && (id === undefined || r.path.endsWith(`/${id}`));
    if (what === 'create') return r.method === 'POST' && r.path === '/api/v1/invoices';
    return r.method === 'POST' && r.path.endsWith(`/${what}`) && (id === undefined || r.path.includes(`/${id}/`));
  });
}

/** Creates a draft and moves it to `upTo` with plain transitions. */
export async function draftThrough(
  client: InvoicingClient,
  sandbox: Sandbox,
  upTo: 'draft' | 'validated' | 'signed' | 'submitted',
  n = 1,
) {
  let invoice = await client.invoices.create(sampleInput(sandbox, n));
  if (upTo === 'draft') return invoice;
  invoice = await client.invoices.validate(invoice.id);
  if (upTo === 'validated') return invoice;
  invoice = await client.invoices.sign(invoice.id);
  if (upTo === 'signed') return invoice;
  return client.invoices.submit(invoice.id);
}


/**
 * A service whose one invoice follows `script`: its raw status and fields at the time `at()` gives
 * for each read (kept in `reads`), observed at `serverTime` of it. Only `retrieve` works.
 */
export function scriptedService(
  at: () => number,
  script: (t: number) => Partial<Invoice> & { rawStatus: string },
  serverTime: (t: number) => number = (t) => t,
) {
  const reads: number[] = [];
  const api: FilingInvoicesApi & WatchInvoicesApi = {
    create: () => Promise.reject(new Error('not used')),
    _transition: () => Promise.reject(new Error('not used')),
    list: () => Promise.reject(new Error('not used')),
    retrieve: async (id) => {
      const t = at();
      reads.push(t);
      const fields = script(t);
      return {
        id,
        status: normalizeStatus(fields.rawStatus),
        subtotal: undefined,
        taxTotal: undefined,
        total: undefined,
        updatedAt: undefined,
        errorMessage: undefined,
        attempts: undefined,
        raw: {},
        ...fields,
        observedAt: new Date(serverTime(t)).toISOString(),
      } as Invoice;
    },
  };
  return { api, reads };
}
