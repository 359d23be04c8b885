/**
 * What the filing workflow throws, or reports in a `fileMany` result, is scrubbed with the client's
 * redactor (`api._redactor`), like every error leaving the transport: the errors it builds itself
 * quote their cause and carry the last record read, and either may hold what the service echoed.
 * Each case also runs without a redactor, to show the secret was there to be scrubbed.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, ConflictError, InvoicingError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redact.js';
import type { FilingInvoicesApi } from '../../src/filing/api.js';
import type { WaitClock } from '../../src/filing/clock.js';
import { createAndFile, resumeFiling } from '../../src/filing/file.js';
import { fileMany } from '../../src/filing/file-many.js';
import { performTransition } from '../../src/filing/transition.js';
import { waitFor } from '../../src/filing/wait.js';
import { watchInvoices, type WatchInvoicesApi } from '../../src/filing/watch.js';
import type { InvoiceCreateParams } from '../../src/model/invoice-input.js';
import type { Invoice } from '../../src/model/invoice.js';
import { normalizeStatus } from '../../src/model/status.js';

const KEY = 'sk_live_FilingEchoKey9Rq7Zx9Wv2Lp8';
const BODY = KEY.slice('sk_live_'.length);
const T0 = Date.parse('2026-03-01T12:00:00Z');

function clock(): WaitClock {
  const c = { t: T0, now: () => c.t, sleep: async (ms: number) => void (c.t += Math.max(0, ms)) };
  return c;
}

/** A record the service answered, echoing the key in a field and in what the SDK keeps raw. */
function record(id: string, rawStatus: string, extra: Partial<Invoice> = {}): Invoice {
  return {
    id,
    status: normalizeStatus(rawStatus),
    rawStatus,
    subtotal: undefined,
    taxTotal: undefined,
    total: undefined,
    updatedAt: undefined,
    errorMessage: `rejected for key ${KEY}`,
    attempts: undefined,
    raw: { id, status: rawStatus, owner: KEY },
    observedAt: new Date(T0).toISOString(),
    ...extra,
  } as Invoice;
}

const refused = (status: 401 | 409) =>
  status === 401
    ? new AuthenticationError({ message: `Invalid API key ${KEY}`, status, body: { key: KEY }, method: 'POST', path: '/api/v1/invoices' })
    : new ConflictError({ message: `Invoice cannot change for ${KEY}`, status, body: { key: KEY }, method: 'POST', path: '/api/v1/invoices/inv_1/sign' });

function fakeApi(parts: Partial<FilingInvoicesApi>, redacted: boolean): FilingInvoicesApi {
  return {
    create: () => Promise.reject(new Error('not used')),
    retrieve: () => Promise.reject(new Error('not used')),
    _transition: () => Promise.reject(new Error('not used')),
    ...parts,
    ...(redacted ? { _redactor: new Redactor([KEY]) } : {}),
  };
}

const input = { businessId: 'biz_1', lines: [] } as unknown as InvoiceCreateParams;

/** Every common rendering of an error and its own fields (the last record read), its cause chain included. */
function renderings(error: unknown): string[] {
  const out: string[] = [];
  for (let e = error as (Error & Record<string, unknown>) | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth += 1) {
    out.push(String(e.message), String(e.stack), String(e), JSON.stringify(e) ?? '', inspect(e, { depth: Infinity, showHidden: true }));
    out.push(JSON.stringify(Object.getOwnPropertyNames(e).map((k) => (k === 'cause' ? undefined : e[k]))) ?? '');
    if (typeof e.hint === 'string') out.push(e.hint);
  }
  return out;
}

const leaks = (error: unknown): boolean => renderings(error).some((t) => t.includes(BODY));

async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  return fn().then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

const cases: [string, string, (redacted: boolean) => Promise<unknown>][] = [
  [
    'createAndFile: a refused create',
    'FilingError',
    (r) => thrown(() => createAndFile(fakeApi({ create: () => Promise.reject(refused(401)) }, r), input, { skipChecks: true, clock: clock() })),
  ],
  [
    'resumeFiling: an unreadable invoice',
    'FilingError',
    (r) =>
      thrown(() =>
        resumeFiling(fakeApi({ retrieve: () => Promise.reject(new InvoicingError(`cannot read for ${KEY}`)) }, r), 'inv_1', { maxRetries: 0, clock: clock() }),
      ),
  ],
  [
    'waitFor: the deadline passes',
    'WaitTimeoutError',
    (r) => thrown(() => waitFor(fakeApi({ retrieve: async (id) => record(id, 'Submitted') }, r), 'inv_1', { timeout: 1_000, clock: clock() })),
  ],
  [
    'performTransition: the invoice is in the wrong state',
    'InvalidTransitionError',
    (r) =>
      thrown(() =>
        performTransition(
          fakeApi({ _transition: () => Promise.reject(refused(409)), retrieve: async (id) => record(id, 'Draft') }, r),
          'inv_1',
          'sign',
          { clock: clock() },
        ),
      ),
  ],
  [
    'performTransition: a submit during automatic recovery',
    'RecoveryInProgressError',
    (r) =>
      thrown(() =>
        performTransition(
          fakeApi({ retrieve: async (id) => record(id, 'Error', { attempts: 0, updatedAt: new Date(T0 - 60_000).toISOString() }) }, r),
          'inv_1',
          'submit',
          { clock: clock() },
        ),
      ),
  ],
  [
    'fileMany: a failure reported in the results',
    'FilingError',
    async (r) => {
      const [result] = await fileMany(fakeApi({ create: () => Promise.reject(refused(401)) }, r), [input], { skipChecks: true, clock: clock() });
      expect(result?.ok).toBe(false);
      return result?.ok === false && !result.notStarted ? result.error : undefined;
    },
  ],
  [
    'watch: a read that cannot pass',
    'AuthenticationError',
    (r) => {
      const api: WatchInvoicesApi = {
        retrieve: () => Promise.reject(refused(401)),
        list: () => Promise.reject(refused(401)),
        ...(r ? { _redactor: new Redactor([KEY]) } : {}),
      };
      return thrown(() => watchInvoices(api, ['inv_1'], { clock: clock(), maxRetries: 0 }).finished());
    },
  ],
];

describe('filing (redaction of what it throws)', () => {
  it.each(cases)('scrubs the secret from %s', async (_name, errorName, run) => {
    const bare = await run(false);
    expect((bare as Error).name).toBe(errorName);
    expect(leaks(bare), 'without a redactor the echoed key is there').toBe(true);

    const scrubbed = await run(true);
    expect((scrubbed as Error).name).toBe(errorName);
    expect(renderings(scrubbed).filter((t) => t.includes(BODY))).toEqual([]);
    expect(renderings(scrubbed).join('\n')).toContain('[REDACTED]');
  });
});
