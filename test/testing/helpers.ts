// Shared by the sandbox's tests: sandbox lifecycles, a thin JSON caller and a valid invoice body.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as X-API-Key unless null; default the sandbox's key. */
  apiKey?: string | null;
  /** Sent as Authorization: Bearer. */
  session?: string;
  /** Sent as idempotency-key; default a fresh one on POST /api/v1/invoices. */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

let counter = 0;

/** Calls the sandbox with `fetchImpl` (global fetch by default: the loopback server or msw). */
export function caller(sandbox: Sandbox, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  return async (method: string, path: string, opts: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...opts.headers };
    const apiKey = opts.apiKey === undefined ? sandbox.apiKey : opts.apiKey;
    if (apiKey !== null && opts.session === undefined) headers['x-api-key'] = apiKey;
    if (opts.session !== undefined) headers.authorization = `Bearer ${opts.session}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && path === '/api/v1/invoices' && opts.idempotencyKey !== null) {
      headers['idempotency-key'] = opts.idempotencyKey ?? `test-key-${++counter}-${Date.now()}`;
    }
    const res = await fetchImpl(`${sandbox.baseUrl}${path}`, {
      method,
      headers,
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
  };
}

export type Call = ReturnType<typeof caller>;

/** An invoice the service accepts: a good (HS) and a service (ISIC) line. */
export function invoiceBody(businessId: string, overrides: Record<string, unknown> = {}) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: 'Buyer Ltd' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Laptop', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Setup', quantity: 3, unitPrice: 0.1, taxRate: 7.5, isicCode: '6201' },
    ],
    ...overrides,
  };
}

/** Creates an invoice and moves it through `steps`; returns its id. */
export async function fileInvoice(
  call: Call,
  businessId: string,
  steps: readonly ('validate' | 'sign' | 'submit')[] = ['validate', 'sign', 'submit'],
): Promise<string> {
  const created = await call('POST', '/api/v1/invoices', { body: invoiceBody(businessId) });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
  const id = created.body.data.id as string;
  for (const step of steps) {
    const res = await call('POST', `/api/v1/invoices/${id}/${step}`);
    if (res.status !== 200) throw new Error(`${step} failed: ${res.status} ${res.text}`);
  }
  return id;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/**
 * One sandbox for the enclosing suite (global fetch: loopback, or msw when set up), reset before
 * each test; `ready` receives it and its caller.
 */
export function useSandbox(options: SandboxOptions, ready: (sandbox: Sandbox, call: Call) => void): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await createSandbox(options);
    ready(sandbox, caller(sandbox));
  });
  beforeEach(() => {
    sandbox?.reset();
    if (sandbox !== undefined && options.timeScale !== undefined) sandbox.clock.timeScale = options.timeScale;
  });
  afterAll(() => sandbox?.close());
}

/** Runs `body` against a fresh in-process sandbox (no socket, no msw), closed afterwards. */
export async function withSandbox<T>(options: SandboxOptions, body: (sandbox: Sandbox, call: Call) => Promise<T>): Promise<T> {
  const sandbox = await createSandbox({ listen: false, msw: false, ...options });
  try {
    return await body(sandbox, caller(sandbox, sandbox.fetch));
  } finally {
    await sandbox.close();
  }
}
