/**
 * Drives every error path of the SDK with a debug logger and collects what came out: each error
 * thrown and every log line. Two services play the other side:
 * - a hostile loopback server that echoes the credentials it receives back into everything it
 *   answers (bodies, HTML titles, headers), cuts bodies part-way through the key, drops sockets and
 *   never answers;
 * - the sandbox (`invoicing-sdk/testing`) for the filing workflow's own stops.
 * The secret scan (secrets.test.ts) searches the result; the canary (secrets-canary.test.ts) runs
 * the same driver with redaction switched off and must find leaks.
 */
import type { ServerResponse } from 'node:http';
import { InvoicingClient } from '../../../src/client.js';
import type { ClientOptions } from '../../../src/core/options.js';
import type { InvoiceCreateParams } from '../../../src/model/invoice-input.js';
import { sampleInput } from './fixtures.js';
import { createSandbox } from '../../../src/testing/index.js';
import { sandboxWaitClock } from './filing.js';
import { recordingLogger, type Secret } from './leaks.js';
import { envelope, sendJson, sendText, startLoopback, type ScriptedRequest, type Script } from './loopback.js';

/** The client's API key: a `sk_live_` type prefix and a random-looking body. */
export const API_KEY = 'sk_live_Rq7Zx9Wv2Lp8Nd5Rt4Yb6Hc3Jm1Kf0Gs';
/** The client's session token. */
export const SESSION_TOKEN = 'sess_Tm2hG6fD4sA1k8Jq3Vx5Cz7Bn9Pw0';
/** What the scan looks for. */
export const SECRETS: readonly Secret[] = [
  { label: 'API key', value: API_KEY },
  { label: 'session token', value: SESSION_TOKEN },
];

/** One error path: its name and what it threw (or `undefined` if it did not throw). */
export interface DrivenPath {
  name: string;
  error: unknown;
}

/** What driving every path produced. */
export interface DriveResult {
  paths: DrivenPath[];
  logLines: string[];
  /** Sandbox request-log entries as JSON (its own redaction is checked too). */
  sandboxLog: string[];
}

/** The credential the hostile server was sent, whichever header carried it. */
function echo(req: ScriptedRequest): string {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string') return key;
  return String(req.headers.authorization ?? '');
}

/** The credential without its scheme and type prefix (`Bearer sess_abc…` → `abc…`), as a server may echo it. */
function bare(credential: string): string {
  return credential.replace(/^Bearer\s+/, '').replace(/^(?:[a-z]{1,8}[_-]){1,3}/, '');
}

/** A NestJS-style error body that quotes the credential back. */
function nest(status: number, message: unknown, error: string): Record<string, unknown> {
  return { statusCode: status, message, error };
}

/** A body cut part-way through the echoed credential, as a proxy with a size limit might. */
function cutInsideSecret(text: string, secret: string): string {
  const at = text.indexOf(secret);
  return at === -1 ? text : text.slice(0, at + Math.floor(secret.length * 0.6));
}

interface HostileCase {
  name: string;
  script: Script;
  call: (client: InvoicingClient) => Promise<unknown>;
  options?: ClientOptions;
}

const html = (title: string): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

/** Every answer class of the hostile server, each on a different resource method. */
function hostileCases(input: InvoiceCreateParams): HostileCase[] {
  const statusCase = (
    name: string,
    status: number,
    body: (secret: string) => unknown,
    call: HostileCase['call'],
    headers: (secret: string) => Record<string, string> = () => ({}),
  ): HostileCase => ({
    name,
    call,
    script: (req, res) => {
      const made = body(echo(req));
      if (typeof made === 'string') sendText(res, status, made, 'text/plain; charset=utf-8', headers(echo(req)));
      else sendJson(res, status, made, headers(echo(req)));
    },
  });
  const spoiled = (name: string, status: number, text: (secret: string) => string, call: HostileCase['call'], contentType = 'application/json'): HostileCase => ({
    name,
    call,
    script: (req, res) => sendText(res, status, text(echo(req)), contentType),
  });
  return [
    // Every status class, each echoing the credential in another body shape.
    statusCase('400 NestJS message array', 400, (s) => nest(400, ['lines.0.isicCode has an invalid or missing classification code', `key ${s}`], 'Bad Request'), (c) => c.invoices.create(input)),
    statusCase('401 { error }', 401, (s) => ({ error: `Invalid API key ${s}` }), (c) => c.invoices.retrieve('inv_401')),
    statusCase('401 on a session route', 401, (s) => nest(401, `Session ${s} expired`, 'Unauthorized'), (c) => c.apiKeys.list()),
    statusCase('403 { errors: [...] }', 403, (s) => ({ errors: [{ field: 'x-api-key', message: `scope missing for ${s}` }] }), (c) => c.invoices.validate('inv_403')),
    statusCase('404 Business not found', 404, (s) => nest(404, `Business not found for key ${s}`, 'Not Found'), (c) => c.invoices.create(input)),
    statusCase('404 plain text', 404, (s) => `no such invoice for ${s}`, (c) => c.invoices.retrieve('inv_404')),
    statusCase('408, retried until the budget is spent', 408, (s) => nest(408, `timeout for ${s}`, 'Request Timeout'), (c) => c.invoices.retrieve('inv_408', { maxRetries: 1 })),
    statusCase('409 conflict', 409, (s) => nest(409, `Invoice inv_409 cannot be changed by ${s} now`, 'Conflict'), (c) => c.invoices.list({ status: 'x' }).then((p) => p.data)),
    statusCase('409 idempotency conflict', 409, (s) => nest(409, `The idempotency-key was already used by ${s} with a different request body`, 'Conflict'), (c) => c.invoices.create(input)),
    statusCase('422', 422, (s) => ({ message: `cannot sign for ${s}`, code: 'WRONG_STATE' }), (c) => c.invoices.sign('inv_422')),
    statusCase('429 with Retry-After', 429, (s) => nest(429, `ThrottlerException for ${s}`, 'Too Many Requests'), (c) => c.invoices.list().then((p) => p.data), () => ({ 'retry-after': '0' })),
    statusCase('500 plain text', 500, (s) => `upstream said X-API-Key: ${s}`, (c) => c.invoices.submit('inv_500')),
    statusCase('501', 501, (s) => nest(501, `not implemented for ${s}`, 'Not Implemented'), (c) => c.codes.hsCodes()),
    spoiled('502 HTML page with the key in its title', 502, (s) => html(`502 Bad Gateway ${s}`), (c) => c.codes.serviceCodes(), 'text/html'),
    statusCase('503 with Retry-After', 503, (s) => nest(503, `maintenance; key ${s}`, 'Service Unavailable'), (c) => c.apiKeys.retrieve('key_503', { maxRetries: 1 }), () => ({ 'retry-after': '0' })),
    spoiled('504 empty body', 504, () => '', (c) => c.apiKeys.revoke('key_504', { maxRetries: 0 })),
    statusCase('x-request-id echoing the key', 500, () => nest(500, 'boom', 'Internal Server Error'), (c) => c.invoices.retrieve('inv_rid', { maxRetries: 0 }), (s) => ({ 'x-request-id': `req-${s}` })),
    statusCase('a message long enough to be shortened across the key', 500, (s) => `${'x'.repeat(490)} ${s} trailing words`, (c) => c.invoices.retrieve('inv_long', { maxRetries: 0 })),
    spoiled('500 body cut inside the key', 500, (s) => cutInsideSecret(JSON.stringify(nest(401, `Invalid API key ${s}`, 'Unauthorized')), s), (c) => c.invoices.retrieve('inv_cut', { maxRetries: 0 })),
    // Echoes of the credential without its prefix, or of a part of it.
    statusCase('401 echoing the key without its prefix', 401, (s) => ({ error: `Invalid API key ${bare(s)}` }), (c) => c.invoices.retrieve('inv_bare')),
    statusCase('400 echoing 24 of the 32 secret characters', 400, (s) => nest(400, `key …${bare(s).slice(4, 28)}… is malformed`, 'Bad Request'), (c) => c.invoices.create(input)),
    statusCase('500 echoing the last 12 characters', 500, (s) => `upstream refused key ending ${bare(s).slice(-12)}`, (c) => c.invoices.retrieve('inv_tail', { maxRetries: 0 })),
    statusCase('401 on a session route echoing the token without its prefix', 401, (s) => nest(401, `Session ${bare(s)} expired`, 'Unauthorized'), (c) => c.apiKeys.list()),
    // Malformed success answers.
    spoiled('200 HTML page', 200, (s) => html(`Welcome ${s}`), (c) => c.invoices.retrieve('inv_html'), 'text/html'),
    spoiled('200 truncated JSON cut inside the key', 200, (s) => cutInsideSecret(JSON.stringify(envelope({ id: 'inv_t', note: s })), s), (c) => c.invoices.retrieve('inv_trunc')),
    spoiled('200 empty body', 200, () => '', (c) => c.invoices.create(input)),
    statusCase('200 success: false', 200, (s) => ({ success: false, message: `denied for ${s}` }), (c) => c.invoices.list().then((p) => p.data)),
    statusCase('200 without data', 200, (s) => ({ success: true, message: `no data for ${s}` }), (c) => c.apiKeys.reveal('key_nodata')),
    statusCase('200 wrong envelope', 200, (s) => ({ invoice: { id: 'inv_w', owner: s } }), (c) => c.invoices.retrieve('inv_wrong')),
    statusCase('200 huge body quoting the key', 200, (s) => ({ success: false, message: `denied for ${s}`, padding: 'x'.repeat(5 * 1024 * 1024) }), (c) => c.invoices.retrieve('inv_huge')),
    statusCase('200 record without an id', 200, (s) => envelope({ status: 'draft', owner: s }), (c) => c.invoices.create(input)),
    statusCase('200 key listing that is not a list', 200, (s) => envelope({ owner: s }), (c) => c.apiKeys.list()),
    // The network.
    {
      name: 'socket destroyed before any answer',
      script: (_req, res) => {
        res.socket?.destroy();
      },
      call: (c) => c.invoices.retrieve('inv_drop', { maxRetries: 1 }),
    },
    {
      name: 'socket destroyed part-way through a body quoting the key',
      script: (req, res: ServerResponse) => {
        const text = JSON.stringify(envelope({ id: 'inv_reset', owner: echo(req) }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
        res.write(cutInsideSecret(text, echo(req)));
        setTimeout(() => res.socket?.destroy(), 5);
      },
      call: (c) => c.invoices.retrieve('inv_reset', { maxRetries: 0 }),
    },
    {
      name: 'no answer within the timeout',
      script: () => undefined,
      call: (c) => c.invoices.retrieve('inv_silent', { timeout: 150, maxRetries: 1 }),
    },
    {
      name: 'body stalled after the first half, quoting the key',
      script: (req, res: ServerResponse) => {
        const text = JSON.stringify(envelope({ id: 'inv_stall', owner: echo(req) }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
        res.write(cutInsideSecret(text, echo(req)));
      },
      call: (c) => c.invoices.retrieve('inv_stall', { timeout: 150, maxRetries: 0 }),
    },
    {
      name: 'aborted while the request is in flight',
      script: () => undefined,
      call: (c) => c.invoices.retrieve('inv_abort', { signal: AbortSignal.timeout(40) }),
    },
    {
      name: 'aborted while waiting to retry',
      script: (req, res) => sendJson(res, 503, nest(503, `down for ${echo(req)}`, 'Service Unavailable'), { 'retry-after': '5' }),
      call: (c) => c.invoices.retrieve('inv_backoff', { signal: AbortSignal.timeout(60), maxRetries: 2 }),
    },
  ];
}

/** Runs `call`, returning what it threw (or `undefined`). */
async function thrownBy(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Drives every error path once, in order, and returns what each produced. */
export async function driveEveryErrorPath(): Promise<DriveResult> {
  const logger = recordingLogger();
  const paths: DrivenPath[] = [];
  const base: ClientOptions = { apiKey: API_KEY, sessionToken: SESSION_TOKEN, logger, logLevel: 'debug', maxRetries: 1, timeout: 2_000 };

  // 1. The hostile loopback server.
  const server = await startLoopback(() => undefined);
  try {
    const client = new InvoicingClient({ ...base, baseUrl: server.origin });
    for (const c of hostileCases(sampleInput('biz_1'))) {
      server.setScript(c.script);
      paths.push({ name: c.name, error: await thrownBy(() => c.call(c.options ? client.withOptions(c.options) : client)) });
    }
  } finally {
    await server.close();
  }
  // Nothing listens on a closed port: the connection is refused.
  const refused = new InvoicingClient({ ...base, baseUrl: server.origin, maxRetries: 1 });
  paths.push({ name: 'connection refused', error: await thrownBy(() => refused.invoices.retrieve('inv_refused')) });

  // 2. Refusals before anything is sent.
  const local = new InvoicingClient({ ...base, baseUrl: 'http://127.0.0.1:9' });
  paths.push({
    name: 'InvoiceCheckError (the key pasted into a field)',
    error: await thrownBy(() => local.invoices.create({ ...sampleInput('biz_1'), buyer: { type: 'B2B', tin: API_KEY }, lines: [] })),
  });
  paths.push({
    name: 'missing session token',
    error: await thrownBy(() => new InvoicingClient({ ...base, sessionToken: undefined, baseUrl: 'http://127.0.0.1:9' }).apiKeys.list()),
  });
  paths.push({
    name: 'missing API key',
    error: await thrownBy(() => new InvoicingClient({ ...base, apiKey: undefined, baseUrl: 'http://127.0.0.1:9' }).invoices.retrieve('inv_1')),
  });
  paths.push({ name: 'apiKeys.create without scopes', error: await thrownBy(() => local.apiKeys.create({ name: 'x', type: 'LIVE', keyableType: 'USER', scopes: [] })) });
  paths.push({ name: 'an empty invoice id', error: await thrownBy(() => local.invoices.retrieve('')) });
  paths.push({ name: 'an invalid per-call timeout', error: await thrownBy(() => local.invoices.retrieve('inv_1', { timeout: -1 })) });
  paths.push({ name: 'the API key given as baseUrl', error: await thrownBy(() => new InvoicingClient({ ...base, baseUrl: API_KEY })) });
  paths.push({ name: 'the session token given as baseUrl', error: await thrownBy(() => new InvoicingClient({ ...base, baseUrl: `https://${SESSION_TOKEN}` + ':99999' })) });

  // 3. The filing workflow's stops, against the sandbox.
  const sandbox = await createSandbox({ apiKey: API_KEY, sessionToken: SESSION_TOKEN, timeScale: 0 });
  try {
    const clock = sandboxWaitClock(sandbox);
    const client = sandbox.client({ logger, logLevel: 'debug', maxRetries: 1, timeout: 300 });
    const filing = client.invoices;
    const input = sampleInput(sandbox.businessId);
    const fault = sandbox.faults;

    fault.inject({ method: 'POST', path: '/invoices', kind: 'drop-before', times: Infinity });
    paths.push({ name: 'FilingError at create (connection dropped every time)', error: await thrownBy(() => filing.createAndFile(input, { externalRef: 'scan-1', clock })) });
    fault.clear();

    fault.inject({ method: 'POST', path: '/invoices/:id/validate', kind: 'status', status: 503, retryAfter: 1, times: Infinity });
    paths.push({ name: 'FilingError at validate (503 every time)', error: await thrownBy(() => filing.createAndFile(input, { externalRef: 'scan-2', clock })) });
    fault.clear();

    fault.inject({ method: 'POST', path: '/invoices/:id/submit', kind: 'drop-before', times: Infinity });
    paths.push({ name: 'FilingError at submit (connection dropped every time)', error: await thrownBy(() => filing.createAndFile(input, { externalRef: 'scan-3', clock })) });
    fault.clear();

    fault.inject({ method: 'GET', path: '/invoices/:id', kind: 'malformed', variant: 'html', status: 502, times: Infinity });
    fault.inject({ method: 'POST', path: '/invoices/:id/sign', kind: 'drop-after', times: Infinity });
    paths.push({ name: 'FilingError at sign (answer lost, read-back unreadable)', error: await thrownBy(() => filing.createAndFile(input, { externalRef: 'scan-4', clock })) });
    fault.clear();

    const draft = await client.invoices.create(input);
    paths.push({ name: 'InvalidTransitionError (sign a draft)', error: await thrownBy(() => client.invoices.sign(draft.id)) });
    // A draft that `until` waits to see validated (another process's call) keeps polling to the timeout.
    paths.push({ name: 'WaitTimeoutError', error: await thrownBy(() => filing.waitFor(draft.id, { timeout: 1_000, until: ['VALIDATED'], clock })) });
    paths.push({ name: 'NotSubmittedError', error: await thrownBy(() => filing.waitFor(draft.id, { timeout: 1_000, clock })) });
    await thrownBy(() => client.invoices.create(input, { idempotencyKey: 'scan-fixed-key' }));
    paths.push({
      name: 'IdempotencyConflictError (explicit key reused)',
      error: await thrownBy(() => client.invoices.create({ ...input, dueDate: '2027-02-28T00:00:00Z' }, { idempotencyKey: 'scan-fixed-key' })),
    });
    const business = sandbox.createApiKey({ keyableType: 'BUSINESS', businessId: sandbox.businessId });
    paths.push({
      name: 'BusinessNotFoundError (BUSINESS key defect)',
      error: await thrownBy(() => sandbox.client({ apiKey: business.key, logger, logLevel: 'debug' }).invoices.create(input)),
    });
    const revoked = sandbox.createApiKey();
    sandbox.revokeApiKey(revoked.id);
    paths.push({
      name: 'AuthenticationError (revoked key)',
      error: await thrownBy(() => sandbox.client({ apiKey: revoked.key, logger, logLevel: 'debug' }).invoices.list().then((p) => p.data)),
    });

    const mismatched = await createSandbox({
      apiKey: API_KEY,
      sessionToken: SESSION_TOKEN,
      totals: (_body, correct) => ({ ...correct, total: (Number(correct.total) + 1).toFixed(2) }),
    });
    try {
      const mclient = mismatched.client({ logger, logLevel: 'debug' });
      // A FilingError at reconcile whose cause is the TotalsMismatchError: both are scanned.
      const stop = await thrownBy(() => mclient.invoices.createAndFile(sampleInput(mismatched.businessId), { externalRef: 'scan-5' }));
      paths.push({ name: 'FilingError at reconcile', error: stop }, { name: 'TotalsMismatchError', error: (stop as Error).cause });
    } finally {
      await mismatched.close();
    }

    fault.inject({ method: 'POST', path: '/invoices/:id/validate', kind: 'status', status: 500, times: Infinity });
    const results = await filing.fileMany([input, { ...input, dueDate: '2027-03-31T00:00:00Z' }], { concurrency: 2, clock });
    results.forEach((r, i) => paths.push({ name: `fileMany result ${i}`, error: r.ok || r.notStarted ? undefined : r.error }));
    fault.clear();
    return { paths, logLines: logger.lines, sandboxLog: sandbox.requests.map((r) => JSON.stringify(r)) };
  } finally {
    await sandbox.close();
  }
}
