/**
 * The secret scan: every error path of the SDK (each status class, network failures, timeouts,
 * aborts, malformed bodies, local refusals, the filing workflow's stops) is driven with a debug
 * logger against a server that echoes the credentials back into everything it answers. Every
 * rendering of every error and every log line is searched for the API key, the session token, and
 * distinctive pieces of each. The canary (secrets-canary.test.ts) proves the same scan finds leaks
 * when redaction is switched off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import { isInvoicingError } from '../../src/core/errors.js';
import { REDACTED, Redactor } from '../../src/core/redact.js';
import { exposeGc, formatBytes, retainedHeap } from './support/memory.js';
import { findLeaks, needlesFor, PREFIX_LENGTH, renderings } from './support/leaks.js';
import { report } from './support/scale.js';
import { API_KEY, driveEveryErrorPath, SECRETS, SESSION_TOKEN, type DriveResult } from './support/secret-paths.js';

// Besides the whole secret, its 12-character prefix and middle: the secret without its type prefix,
// and its last 12 characters (a server may echo either).
const needles = [
  ...needlesFor(SECRETS),
  ...SECRETS.flatMap(({ label, value }) => {
    const body = value.replace(/^(?:[a-z]{1,8}[_-]){1,3}/, '');
    return [
      { secret: label, what: 'without prefix', text: body },
      { secret: label, what: 'last 12', text: value.slice(-12) },
    ];
  }),
];
let run: DriveResult;

beforeAll(async () => {
  run = await driveEveryErrorPath();
}, 60_000);

describe('secret scan', () => {
  it('drives every error path to a typed SDK error', () => {
    const untyped = run.paths.filter((p) => !isInvoicingError(p.error)).map((p) => `${p.name}: ${String(p.error)}`);
    expect(untyped).toEqual([]);
    expect(run.paths.length).toBeGreaterThanOrEqual(50);
    // Each class the error table names is reached at least once.
    const names = new Set(run.paths.map((p) => (p.error as Error).name));
    for (const name of [
      'BadRequestError',
      'AuthenticationError',
      'PermissionDeniedError',
      'NotFoundError',
      'BusinessNotFoundError',
      'ConflictError',
      'IdempotencyConflictError',
      'RateLimitError',
      'InternalServerError',
      'InvalidResponseError',
      'APIConnectionError',
      'APIConnectionTimeoutError',
      'APIUserAbortError',
      'InvoiceCheckError',
      'InvalidTransitionError',
      'TotalsMismatchError',
      'FilingError',
      'WaitTimeoutError',
      'InvoicingError',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('finds no secret, whole or in part, in any rendering of any error', () => {
    const rendered = run.paths.map((p) => ({ name: p.name, texts: renderings(p.error) }));
    const leaks = rendered.flatMap((p) => findLeaks(p.texts, needles).map((l) => ({ path: p.name, ...l })));
    report('secret scan', {
      'error paths driven': run.paths.length,
      'error classes reached': new Set(run.paths.map((p) => (p.error as Error).name)).size,
      'renderings searched': rendered.reduce((n, p) => n + p.texts.length, 0),
      'debug log lines searched': run.logLines.length,
      'sandbox request-log entries searched': run.sandboxLog.length,
      'needles (whole, without prefix, 12-char prefix, middle and end of each secret)': needles.length,
      'occurrences found': leaks.length,
    });
    expect(leaks).toEqual([]);
  });

  it('finds no secret in any debug log line', () => {
    expect(run.logLines.length).toBeGreaterThan(100);
    expect(run.logLines.some((l) => l.startsWith('debug'))).toBe(true);
    expect(findLeaks(run.logLines.map((text, i) => ({ where: `log line ${i}`, text })), needles)).toEqual([]);
  });

  it("finds no secret in the sandbox's request log", () => {
    expect(run.sandboxLog.length).toBeGreaterThan(10);
    expect(findLeaks(run.sandboxLog.map((text, i) => ({ where: `sandbox request ${i}`, text })), needles)).toEqual([]);
  });

  it('the scanner sees a secret in a hidden property, a nested cause, headers and a prefix', () => {
    const hidden = new Error('hidden');
    Object.defineProperty(hidden, 'config', { value: { headers: new Headers({ 'x-api-key': API_KEY }) }, enumerable: false });
    const nested = new Error('outer', { cause: new Error('middle', { cause: { token: SESSION_TOKEN } }) });
    const cut = new Error(`key ${API_KEY.slice(0, PREFIX_LENGTH)}`);
    const found = (e: unknown) => findLeaks(renderings(e), needles).map((l) => l.needle);
    expect(found(hidden)).toContain('API key (whole)');
    expect(found(nested)).toContain('session token (whole)');
    // Found in the message, toString, stack, JSON and inspect renderings; only ever as a prefix.
    expect(found(cut).length).toBeGreaterThan(3);
    expect(new Set(found(cut))).toEqual(new Set(['API key (prefix)']));
  });

  it('redacts a secret cut off part-way, however it was cut', () => {
    const redactor = new Redactor([API_KEY, SESSION_TOKEN]);
    for (const redact of [(t: string) => redactor.redact(t)]) {
      for (let cut = PREFIX_LENGTH; cut <= API_KEY.length; cut += 1) {
        const text = `Invalid key ${API_KEY.slice(0, cut)}`;
        expect(redact(text)).toBe('Invalid key [REDACTED]');
        expect(redact(`${text}…" and more`)).toBe('Invalid key [REDACTED]…" and more');
        // Cut from the front, too: the end of the key.
        expect(redact(`…${API_KEY.slice(API_KEY.length - cut)} end`)).toBe('…[REDACTED] end');
      }
      // A run shorter than the prefix is not identifying and stays (it is the type prefix `sk_live_`).
      expect(redact('keys look like sk_live_…')).toBe('keys look like sk_live_…');
    }
    expect(redactor.redact(`${SESSION_TOKEN.slice(0, PREFIX_LENGTH)}${SESSION_TOKEN}`)).not.toContain(SESSION_TOKEN.slice(0, PREFIX_LENGTH));
  });

  it('one client redacts its own secrets only: a Redactor per client, nothing global', () => {
    const mine = new Redactor([API_KEY]);
    const theirs = new Redactor(['sk_live_AnotherClientsKey0123456789']);
    expect(mine.redact(`a ${API_KEY} b`)).toBe('a [REDACTED] b');
    expect(theirs.redact(`a ${API_KEY} b`)).toBe(`a ${API_KEY} b`);
  });

  it('keeps memory flat under client churn: 100,000 clients made, used and dropped', async () => {
    const gc = exposeGc();
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const keyOf = (i: number): string => `sk_live_${i.toString(36).padStart(6, '0')}Zx9Wv2Lp8Nd5Rt4Y`;
    const churn = async (from: number, to: number): Promise<number> => {
      let scrubbed = 0;
      for (let i = from; i < to; i += 1) {
        const client = new InvoicingClient({ apiKey: keyOf(i), baseUrl: 'https://invoicing.example.com', logger: quiet });
        if (i % 1_000 === 0) {
          // Each one's errors are scrubbed of its own key (a refused path quoting it, nothing sent),
          // and so are a derived client's.
          for (const c of [client, client.withOptions({ timeout: 1_000 })]) {
            const error = await c.get(`no-slash-${keyOf(i)}`).then(() => undefined, (e: unknown) => e as Error);
            expect(error?.message).toContain(REDACTED);
            expect(error?.message).not.toContain(keyOf(i).slice(8));
            scrubbed += 1;
          }
        }
      }
      return scrubbed;
    };
    // Warm-up: code compiled, caches filled, before the baseline is taken.
    await churn(0, 2_000);
    const before = await retainedHeap(gc);
    const scrubbed = await churn(2_000, 102_000);
    const after = await retainedHeap(gc);
    report('client churn', {
      'clients made and dropped': 100_000,
      'errors checked for their own key': scrubbed,
      'retained heap before': formatBytes(before),
      'retained heap after': formatBytes(after),
    });
    expect(scrubbed).toBe(200);
    // The old global registry kept ~9 MB for as many clients; a per-client redactor goes with its client.
    expect(after - before).toBeLessThan(2 * 1024 * 1024);
  }, 120_000);
});
