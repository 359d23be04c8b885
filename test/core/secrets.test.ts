/**
 * A scan, not a spot check: every error class, every serialisation of it, and every log line of a
 * run through every route and failure kind, searched for the API key and the session token.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_NAMES, redactError } from '../../src/core/errors.js';
import { REDACTED, Redactor } from '../../src/core/redact.js';
import { InvoicingClient } from '../../src/client.js';
import { resolveOptions } from '../../src/core/options.js';
import { sampleErrors } from './error-samples.js';
import {
  API,
  API_KEY,
  BASE_URL,
  SESSION_TOKEN,
  VALID_INPUT,
  envelope,
  http,
  HttpResponse,
  invoiceRecord,
  recordingLogger,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const SECRETS = [API_KEY, SESSION_TOKEN];

/** `JSON.stringify`, or '' for a value it cannot serialise. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** Every way the cause chain is read: each cause's message, stack, own fields and renderings. */
function causeRenderings(error: unknown): string[] {
  const out: string[] = [];
  for (let cause = (error as Error).cause, depth = 0; cause !== undefined && depth < 8; depth += 1) {
    const c = cause as Error & Record<string, unknown>;
    out.push(String(c.message), String(c.stack), String(c), json(c), json(Object.entries(c)));
    out.push(inspect(c, { depth: Infinity, showHidden: true }));
    cause = typeof c === 'object' && c !== null ? c.cause : undefined;
  }
  return out;
}

/** Every way an error is commonly turned into text. */
function renderings(error: unknown): string[] {
  const err = error as Error & { hint?: string; body?: unknown };
  return [
    ...causeRenderings(error),
    err.message,
    String(err),
    err.stack ?? '',
    err.hint ?? '',
    JSON.stringify(err),
    JSON.stringify(err.body ?? null),
    inspect(err),
    inspect(err, { depth: Infinity, showHidden: true }),
    inspect({ wrapped: err }, { depth: Infinity }),
    `${err.name}: ${err.message}`,
  ];
}

function expectClean(texts: string[], where: string): void {
  for (const text of texts) {
    for (const secret of SECRETS) {
      expect(text.includes(secret), `${where} leaks a secret in: ${text.slice(0, 200)}`).toBe(false);
    }
  }
}

describe('secrets', () => {
  it('no error class shows a secret echoed into its body, message, hint or cause', () => {
    // Redaction is per client: every error leaving a client is scrubbed with its redactor (the
    // transport, the options and the filing workflow all end in redactError).
    const redactor = new Redactor([API_KEY, SESSION_TOKEN]);
    const echoing = {
      message: `Invalid API key ${API_KEY}`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${SESSION_TOKEN}` },
      nested: [{ token: SESSION_TOKEN }],
    };
    const cause = new Error(`socket closed while sending X-API-Key: ${API_KEY}`);
    const samples = sampleErrors(echoing, cause).map((error) => redactError(error, redactor));
    expect(new Set(samples.map((e) => e.name))).toEqual(new Set(ERROR_NAMES));
    for (const error of samples) expectClean(renderings(error), error.name);
  });

  it('no client keeps a secret of another: nothing is registered globally', async () => {
    testClient();
    const other = new InvoicingClient({ apiKey: 'sk_live_zyxwvutsrqponmlkjihgfedcba', baseUrl: 'https://invoicing.example.com' });
    const error = await other.get(`no-slash-${API_KEY}`).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain(API_KEY);
  });

  it('no error or log line of a full run through every route and failure shows a secret', async () => {
    let invoiceCalls = 0;
    server.use(
      http.post(`${API}/invoices`, () =>
        HttpResponse.json({ statusCode: 401, message: `API key ${API_KEY} was revoked`, error: 'Unauthorized' }, { status: 401 }),
      ),
      http.get(`${API}/invoices/:id`, ({ params }) => {
        invoiceCalls += 1;
        if (params.id === 'gone') return HttpResponse.json({ message: `no invoice for key ${API_KEY}` }, { status: 404 });
        if (params.id === 'html') return new HttpResponse(`<html><title>${API_KEY}</title></html>`, { status: 200 });
        if (params.id === 'drop') return HttpResponse.error();
        return HttpResponse.json(envelope(invoiceRecord({ id: params.id })));
      }),
      http.post(`${API}/invoices/:id/:step`, () =>
        HttpResponse.json({ errors: [{ field: 'x-api-key', message: API_KEY }] }, { status: 403 }),
      ),
      http.get(`${API}/invoices`, () => new HttpResponse(`upstream said Bearer ${SESSION_TOKEN}`, { status: 503 })),
      http.post(`${API}/api-key`, () => HttpResponse.json(envelope({ id: 'key_2', key: 'sk_live_NEWKEY_created_999999' }))),
      http.get(`${API}/api-key/:id/reveal`, () => HttpResponse.json(envelope({ key: 'sk_live_NEWKEY_created_999999' }))),
      http.get(`${API}/api-key`, () =>
        HttpResponse.json({ message: `session ${SESSION_TOKEN} expired` }, { status: 401 }),
      ),
      http.get(`${API}/taxauth/hs-codes`, () => HttpResponse.json({ message: `bad key ${API_KEY}` }, { status: 400 })),
    );
    const logger = recordingLogger();
    const client = testClient({ logger, logLevel: 'debug', maxRetries: 1, timeout: 5_000 });
    const failures: unknown[] = [];
    const attempt = async (fn: () => Promise<unknown>): Promise<void> => {
      await fn().then(
        () => undefined,
        (e: unknown) => failures.push(e),
      );
    };
    await attempt(() => client.invoices.create(VALID_INPUT));
    await attempt(() => client.invoices.retrieve('gone'));
    await attempt(() => client.invoices.retrieve('html'));
    await attempt(() => client.invoices.retrieve('drop'));
    await attempt(() => client.invoices.validate('inv_1'));
    await attempt(() => client.invoices.list().then((p) => p.data));
    await attempt(() => client.apiKeys.list());
    await attempt(() => client.codes.hsCodes());
    await attempt(() => client.apiKeys.create({ name: 'x', type: 'LIVE', keyableType: 'USER', scopes: ['*'] }));
    await attempt(() => client.apiKeys.reveal('key_2'));
    await attempt(() => client.invoices.retrieve('inv_1', { signal: AbortSignal.abort(new Error(API_KEY)) }));
    const noToken = testClient({ sessionToken: '', logger });
    await attempt(() => noToken.apiKeys.list());

    expect(failures.length).toBeGreaterThanOrEqual(9);
    expect(invoiceCalls).toBeGreaterThan(0);
    for (const failure of failures) expectClean(renderings(failure), (failure as Error).name);
    expect(logger.lines.length).toBeGreaterThan(10);
    expectClean(logger.lines, 'log');
    // A key the SDK received over the session is scrubbed from then on, too.
    const leaked = logger.lines.concat(failures.flatMap(renderings)).filter((t) => t.includes('sk_live_NEWKEY_created_999999'));
    expect(leaked).toEqual([]);
  });

  it.each([
    ['an Error quoting the key', (init: RequestInit) => new Error(`failed with ${(init.headers as Record<string, string>)['x-api-key']}`)],
    ['an Error carrying config.headers', (init: RequestInit) => Object.assign(new Error('fail'), { config: { headers: init.headers } })],
    ['an Error carrying the Request', (init: RequestInit) => Object.assign(new TypeError('fail'), { request: new Request(`${API}/x`, init) })],
    ['an Error with a nested cause quoting the key', (init: RequestInit) =>
      new Error('outer', { cause: Object.assign(new Error(`inner ${JSON.stringify(init.headers)}`), { code: 'ECONNRESET' }) })],
    ['a string quoting the key', (init: RequestInit) => `failed with ${JSON.stringify(init.headers)}`],
    ['a plain object with the headers', (init: RequestInit) => ({ message: 'x', headers: init.headers })],
  ])('scrubs the cause when a custom fetch throws %s', async (_name, thrown) => {
    const client = testClient({
      maxRetries: 0,
      fetch: async (_input, init) => {
        throw thrown(init ?? {});
      },
    });
    const error = await client.invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect((error as Error).name).toBe('APIConnectionError');
    expect((error as Error).cause).toBeDefined();
    expectClean(renderings(error), 'custom fetch error');
  });

  it('keeps what makes a cause useful: name, message, code and its own cause', async () => {
    const client = testClient({
      maxRetries: 0,
      fetch: async () => {
        const socket = Object.assign(new Error(`socket hang up (key ${API_KEY})`), { code: 'ECONNRESET', errno: -104 });
        throw Object.assign(new TypeError(`fetch failed for ${API_KEY}`, { cause: socket }), { config: { apiKey: API_KEY } });
      },
    });
    const error = (await client.invoices.retrieve('inv_1').catch((e: unknown) => e)) as Error;
    const cause = error.cause as Error & Record<string, unknown>;
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('TypeError');
    expect(cause.message).toBe('fetch failed for [REDACTED]');
    expect(cause.stack).toContain('fetch failed for [REDACTED]');
    expect(cause.config).toBeUndefined();
    expect(cause.cause).toMatchObject({ message: 'socket hang up (key [REDACTED])', code: 'ECONNRESET', errno: -104 });
  });

  it('scrubs an abort reason that quotes a secret', async () => {
    server.use(http.get(`${API}/invoices/:id`, () => HttpResponse.json(envelope(invoiceRecord()))));
    const reason = Object.assign(new Error(`stopped, token ${SESSION_TOKEN}`), { detail: { key: API_KEY } });
    const error = (await testClient()
      .invoices.retrieve('inv_1', { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('APIUserAbortError');
    expect(error.cause).toMatchObject({ message: 'stopped, token [REDACTED]' });
    expectClean(renderings(error), 'abort');
  });

  it('scrubs a secret pasted as an id out of the error path', async () => {
    server.use(http.get(`${API}/invoices/:id`, () => HttpResponse.json({ success: false, message: 'Invoice not found' }, { status: 404 })));
    const error = (await testClient().invoices.retrieve(API_KEY).catch((e: unknown) => e)) as Error & { path?: string };
    expect(error.name).toBe('NotFoundError');
    expect(error.path).toBe('/api/v1/invoices/[REDACTED]');
    expectClean([error.path ?? '', ...renderings(error)], 'path');
  });

  it('the client never shows its credentials', () => {
    const client = testClient();
    expectClean([JSON.stringify(client), inspect(client, { depth: Infinity, showHidden: true }), String(client)], 'client');
    expectClean([inspect(client.invoices, { depth: Infinity, showHidden: true })], 'client.invoices');
    expectClean([inspect(client.apiKeys, { depth: Infinity, showHidden: true })], 'client.apiKeys');
  });

  /** Renderings of what `fn` threw, checked for each secret whole and without its type prefix. */
  async function expectScrubbedThrow(what: string, fn: () => unknown, secrets: readonly string[] = SECRETS, quotes = true): Promise<Error> {
    let thrown: unknown;
    try {
      await fn();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, `${what} throws`).toBeInstanceOf(Error);
    const texts = renderings(thrown);
    // Where the message quotes the value, the secret in it is replaced (not dropped with the rest).
    if (quotes) expect(texts.join('\n'), what).toContain(REDACTED);
    for (const secret of secrets) {
      for (const needle of [secret, secret.replace(/^(?:[a-z]{1,8}[_-]){1,3}/, '')]) {
        for (const text of texts) expect(text.includes(needle), `${what} leaks ${needle} in: ${text.slice(0, 200)}`).toBe(false);
      }
    }
    return thrown as Error;
  }

  it('scrubs every refusal made before anything is sent: option values, headers, query, per-call options', async () => {
    const quiet = recordingLogger();
    const base = { apiKey: API_KEY, sessionToken: SESSION_TOKEN, baseUrl: BASE_URL, logger: quiet };
    await expectScrubbedThrow('the key given as baseUrl', () => new InvoicingClient({ ...base, baseUrl: API_KEY }));
    await expectScrubbedThrow('the token in a baseUrl', () => new InvoicingClient({ ...base, baseUrl: `https://${SESSION_TOKEN}:99999` }));
    await expectScrubbedThrow('the key given as timeout', () => new InvoicingClient({ ...base, timeout: API_KEY as unknown as number }));
    await expectScrubbedThrow('the key in finalStatuses', () => new InvoicingClient({ ...base, finalStatuses: [API_KEY, ''] }));
    await expectScrubbedThrow('the key given as logLevel', () => new InvoicingClient({ ...base, logLevel: API_KEY as never }));
    await expectScrubbedThrow('the key sent as a default query parameter', () => new InvoicingClient({ ...base, defaultQuery: { api_key: API_KEY } }), SECRETS, false);
    const client = new InvoicingClient(base);
    await expectScrubbedThrow('a path quoting the key', () => client.get(`api/v1/${API_KEY}`));
    await expectScrubbedThrow('a per-call timeout quoting the key', () => client.get('/api/v1/invoices', { timeout: API_KEY as unknown as number }));
    await expectScrubbedThrow('an idempotency key quoting the token', () => client.post('/api/v1/x', { idempotencyKey: `bad\n${SESSION_TOKEN}` }));
  });

  it('withOptions() shares the redactor while the credentials stay, and builds a new one for new credentials', async () => {
    const parent = resolveOptions({ apiKey: API_KEY, sessionToken: SESSION_TOKEN, baseUrl: BASE_URL, logger: recordingLogger() });
    const inherit = { redactor: parent.redactor, apiKey: parent.apiKey, sessionToken: parent.sessionToken };
    parent.redactor.add('sk_live_CreatedByTheParent_4242');
    const same = resolveOptions({ apiKey: API_KEY, sessionToken: SESSION_TOKEN, baseUrl: BASE_URL, timeout: 5, logger: recordingLogger() }, inherit);
    expect(same.redactor).toBe(parent.redactor);
    expect(same.redactor.redact('k sk_live_CreatedByTheParent_4242')).toBe(`k ${REDACTED}`);
    const other = resolveOptions({ apiKey: 'sk_live_AnotherKey_777777777', sessionToken: SESSION_TOKEN, baseUrl: BASE_URL, logger: recordingLogger() }, inherit);
    expect(other.redactor).not.toBe(parent.redactor);
    expect(other.redactor.redact('k sk_live_AnotherKey_777777777')).toBe(`k ${REDACTED}`);

    // Through the client: a derived client scrubs its own key, new or inherited.
    const client = testClient();
    const derived = client.withOptions({ timeout: 5_000 });
    await expectScrubbedThrow('a derived client', () => derived.get(`nope-${API_KEY}`));
    const NEW_KEY = 'sk_live_DerivedClientKey_31415926';
    const rekeyed = client.withOptions({ apiKey: NEW_KEY });
    await expectScrubbedThrow('a client derived with a new key', () => rekeyed.get(`nope-${NEW_KEY}`), [NEW_KEY]);
    await expectScrubbedThrow('a client derived with a new key, given as baseUrl', () => client.withOptions({ apiKey: NEW_KEY, baseUrl: NEW_KEY }), [NEW_KEY]);
  });
});
