/**
 * A scan, not a spot check: every error class, every serialisation of it, and every log line of a
 * run through every route and failure kind, searched for the API key and the session token.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_NAMES } from '../../src/core/errors/names.js';
import { sampleErrors } from './errors/samples.js';
import {
  API,
  API_KEY,
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

/** Every way an error is commonly turned into text. */
function renderings(error: unknown): string[] {
  const err = error as Error & { hint?: string; body?: unknown };
  return [
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
    testClient(); // registers both secrets
    const echoing = {
      message: `Invalid API key ${API_KEY}`,
      headers: { 'x-api-key': API_KEY, authorization: `Bearer ${SESSION_TOKEN}` },
      nested: [{ token: SESSION_TOKEN }],
    };
    const cause = new Error(`socket closed while sending X-API-Key: ${API_KEY}`);
    const samples = sampleErrors(echoing, cause);
    expect(new Set(samples.map((e) => e.name))).toEqual(new Set(ERROR_NAMES));
    for (const error of samples) expectClean(renderings(error), error.name);
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

  it('the client never shows its credentials', () => {
    const client = testClient();
    expectClean([JSON.stringify(client), inspect(client, { depth: Infinity, showHidden: true }), String(client)], 'client');
    expectClean([inspect(client.invoices, { depth: Infinity, showHidden: true })], 'client.invoices');
    expectClean([inspect(client.apiKeys, { depth: Infinity, showHidden: true })], 'client.apiKeys');
  });
});
