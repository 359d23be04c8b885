// Read-only: only GETs through the client's public methods; no finding quotes a secret.
import type { APIPromise } from '../core/api-promise.js';
import { isAPIError, isAPIUserAbortError } from '../core/errors.js';
import { isInsecureRemote } from '../core/options.js';
import type { RequestOptions } from '../core/request-options.js';
import { ROUTES } from '../core/routes.js';
import type { APIKey } from '../model/api-key.js';
import { readAlias, type InvoiceField, type ResolvedFieldMap } from '../model/field-map.js';
import { describedInvoiceFields, driftChecks, findDescription, isObject } from './drift.js';
import { result, type DiagnoseOptions, type Diagnosis, type DiagnosisCheck, type DiagnosisStatus } from './types.js';

export interface DiagnoseTarget {
  readonly baseUrl: string;
  readonly hasApiKey: boolean;
  readonly hasSessionToken: boolean;
  get<T = unknown>(path: string, opts?: RequestOptions): APIPromise<T>;
  readonly apiKeys: { list(opts?: RequestOptions): APIPromise<APIKey[]> };
}

/** What only the client knows: its field map, `allowInsecureHttp`, and whether a fragment is part of its key (never the key). */
export interface DiagnoseInternals {
  fieldMap: ResolvedFieldMap;
  allowInsecureHttp: boolean;
  keyMatches(fragment: string): boolean;
}

/** One GET: the data, the response and its whole body (read once, when a check needs it), or the error. */
type Probe =
  | { ok: true; status: number; data: unknown; headers: Headers; ms: number; sentAt: number; body(): Promise<unknown> }
  | { ok: false; status: number | undefined; error: unknown; ms: number };

const PAGE_SIZE_ASKED = 100;
const SKEW_WARN_MS = 30_000;
const SKEW_FAIL_MS = 5 * 60_000;
/** The answer frameworks give for a path with no route (Express, NestJS, Fastify). */
const NO_ROUTE = /cannot get|no route|route .*not found/i;
const CANDIDATE: Partial<Record<InvoiceField, RegExp>> = { status: /status|state/i, subtotal: /sub|net/i, taxTotal: /tax|vat/i, total: /total|gross|amount|sum/i };
const KEYED = ['base-url', 'api-prefix', 'api-key', 'scopes', 'key-type', 'clock', 'read-route', 'page-size', 'field-names', 'api-description'];

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const answer = (p: Probe): string => (p.ok ? String(p.status) : (p.status?.toString() ?? messageOf(p.error)));

/** Runs the checks in order and returns every finding; never throws for what it finds (an abort does). */
export async function diagnose(client: DiagnoseTarget, internals: DiagnoseInternals, opts: DiagnoseOptions = {}): Promise<Diagnosis> {
  const checks: DiagnosisCheck[] = [];
  const add = (...args: Parameters<typeof result>): void => void checks.push(result(...args));
  const done = (skipWhy?: string): Diagnosis => {
    if (skipWhy !== undefined) for (const id of KEYED) if (!checks.some((c) => c.id === id)) add(id, 'skip', skipWhy);
    const counts: Record<DiagnosisStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
    for (const c of checks) counts[c.status]++;
    const order = ['reachability', 'credentials', 'clock', 'routes', 'drift'];
    checks.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area));
    const strict = opts.strict === true;
    const checkedAt = new Date().toISOString();
    return { ok: counts.fail === 0 && (!strict || counts.warn === 0), strict, baseUrl: client.baseUrl, checkedAt, checks, counts };
  };
  const request: RequestOptions = { maxRetries: 0, timeout: opts.timeout, signal: opts.signal };
  const probe = async (path: string, query?: Record<string, number>): Promise<Probe> => {
    const sentAt = Date.now();
    try {
      const { data, response } = await client.get(path, { ...request, query }).withResponse();
      let body: Promise<unknown> | undefined;
      const read = () => (body ??= response.json().catch(() => undefined));
      return { ok: true, status: response.status, data, headers: response.headers, ms: Date.now() - sentAt, sentAt, body: read };
    } catch (error) {
      if (isAPIUserAbortError(error)) throw error;
      return { ok: false, status: isAPIError(error) ? error.status : undefined, error, ms: Date.now() - sentAt };
    }
  };

  const base = client.baseUrl;
  if (new URL(base).protocol === 'https:') add('https', 'pass', `${base} is https`);
  else if (!isInsecureRemote(base)) add('https', 'pass', `${base} is plain http to a loopback host`);
  else add('https', internals.allowInsecureHttp ? 'warn' : 'fail', `${base} is plain http to a remote host: the API key crosses the network in clear text`, 'Use the https:// origin of the service.');
  if (!client.hasApiKey) {
    add('api-key', 'fail', 'No API key configured', 'Set INVOICING_API_KEY (or pass apiKey) to a USER key.');
    return done('not run: no API key');
  }
  const root = await probe('/');
  if (root.status === undefined) {
    add('base-url', 'fail', `${base} did not answer: ${answer(root)}`, 'Check INVOICING_BASE_URL, DNS, and any proxy or firewall between here and the service.');
    return done('not run: the service did not answer');
  }
  add('base-url', 'pass', `${base} answered (HTTP ${root.status}) in ${root.ms} ms`);
  const list = await probe(ROUTES.invoices, { limit: PAGE_SIZE_ASKED });
  if (list.status === 404 && !list.ok && NO_ROUTE.test(messageOf(list.error))) {
    const path = new URL(base).pathname;
    add('api-prefix', 'fail', `GET ${ROUTES.invoices} answered 404: no /api/v1 at ${base}`, path !== '/' ? `The base URL is the service's origin; the SDK adds /api/v1 itself: try ${new URL(base).origin}.` : 'Check INVOICING_BASE_URL.');
  } else {
    const fine = list.status !== undefined && list.status < 500;
    add('api-prefix', fine ? 'pass' : 'warn', `GET ${ROUTES.invoices} answered ${answer(list)} in ${list.ms} ms (time to answer, first byte included)`);
  }

  // Credentials: the key works, the scopes it lacks (reads that answer 403), the key's type.
  const codes = await probe(ROUTES.hsCodes, { limit: 1 });
  const refused = [list, codes].find((p) => p.status === 401);
  if (refused !== undefined && !refused.ok) {
    add('api-key', 'fail', `The API key is refused (401): ${messageOf(refused.error)}`, (refused.error as { hint?: string }).hint ?? 'Use an active key, sent as X-API-Key.');
    return done('not run: the key is refused');
  }
  if ([list, codes].some((p) => p.ok || p.status === 403)) add('api-key', 'pass', 'The API key is accepted');
  else add('api-key', 'warn', `Could not tell whether the key works: GET ${ROUTES.invoices} answered ${answer(list)}`);
  let keys: APIKey[] | undefined;
  if (client.hasSessionToken) {
    try {
      keys = await client.apiKeys.list(request);
    } catch (error) {
      if (isAPIUserAbortError(error)) throw error;
      add('key-type', 'warn', `Could not list the session's keys: ${messageOf(error)}`, 'Check INVOICING_SESSION_TOKEN; the key type was not checked.');
    }
  }
  const record = keys === undefined ? undefined : pickOwnKey(keys, internals.keyMatches);
  const lacks = [list.status === 403 && 'invoices:read', codes.status === 403 && 'taxauth:read'].filter((s) => s !== false);
  const scopes = record?.scopes;
  if (scopes !== undefined && !scopes.includes('*') && !scopes.includes('invoices:write')) lacks.push('invoices:write');
  if (lacks.length > 0) {
    add('scopes', lacks.some((s) => s !== 'taxauth:read') ? 'fail' : 'warn', `The key lacks ${lacks.join(', ')} for filing`,
      'Filing creates and moves invoices (invoices:write) and reads them back while waiting (invoices:read); code lists need taxauth:read (else the bundled tables decide). Create a key with those scopes from a signed-in session.');
  } else if (scopes !== undefined) add('scopes', 'pass', `The key holds ${scopes.join(', ')}`);
  else add('scopes', 'pass', 'The key reads invoices and code lists; invoices:write is not checked without writing (with INVOICING_SESSION_TOKEN the key record tells)');
  if (!client.hasSessionToken) add('key-type', 'skip', 'not run: set INVOICING_SESSION_TOKEN to read the key’s type (a BUSINESS key cannot create invoices)');
  else if (keys !== undefined) checks.push(keyTypeCheck(record, keys.length));

  // Clock: the envelope's timestamp and the Date header, against this machine's clock.
  const timed = list.ok ? list : codes.ok ? codes : undefined;
  if (timed === undefined) add('clock', 'skip', 'not run: no read succeeded');
  else checks.push(clockCheck(await timed.body(), timed.headers, timed.sentAt + timed.ms / 2, timed.ms));

  const records = list.ok && Array.isArray(list.data) ? list.data.filter(isObject) : [];
  const found = await findDescription((path) => client.get(path, request), base);
  checks.push(await readRouteCheck(records, internals.fieldMap, probe));
  if (list.status === 400 && !list.ok) add('page-size', 'warn', `The service refuses limit=${PAGE_SIZE_ASKED}: ${messageOf(list.error)}`, 'Pass a smaller limit to list() and watch().');
  else if (!list.ok) add('page-size', 'skip', `not run: GET ${ROUTES.invoices} answered ${answer(list)}`);
  else checks.push(pageSizeCheck(await list.body(), records.length));
  checks.push(fieldNameCheck(records[0], describedInvoiceFields(found), internals.fieldMap));
  checks.push(...driftChecks(found, internals.fieldMap));
  return done();
}

// This client's key: a listed prefix or suffix (masks split off) of 10+ characters it starts or ends with.
function pickOwnKey(keys: readonly APIKey[], keyMatches: (fragment: string) => boolean): APIKey | undefined {
  let best: APIKey | undefined;
  let bestLength = 0;
  for (const key of keys) {
    for (const value of Object.values(key.raw)) {
      if (typeof value !== 'string') continue;
      for (const part of value.split(/[*•…]+|\.{3,}/)) {
        if (part.length >= 10 && part.length > bestLength && keyMatches(part)) [best, bestLength] = [key, part.length];
      }
    }
  }
  return best;
}

function keyTypeCheck(record: APIKey | undefined, count: number): DiagnosisCheck {
  if (record === undefined) {
    return result('key-type', 'warn', `None of the session's ${count} key record(s) shows a prefix of this client's key`, 'The session may belong to another user; the key type was not checked.');
  }
  const label = record.name === undefined ? 'The key' : `The key "${record.name}"`;
  if (record.keyableType === 'USER') return result('key-type', 'pass', `${label} is a USER key`);
  if (record.keyableType !== 'BUSINESS') return result('key-type', 'warn', `${label} has keyableType ${JSON.stringify(record.keyableType ?? null)}`, 'A USER key is the working path for creating invoices.');
  return result('key-type', 'fail', `${label} is a BUSINESS key`,
    'Known defect of the service: with a BUSINESS key, POST /api/v1/invoices answers 404 "Business not found" (the ownership check looks for a business owned by the key). Use a USER key.');
}

/** `local` is this machine's time halfway through the request; the service stamped its answer then. */
function clockCheck(body: unknown, headers: Headers, local: number, ms: number): DiagnosisCheck {
  const stamp = isObject(body) && typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : NaN;
  const date = Date.parse(headers.get('date') ?? '');
  if (!Number.isFinite(stamp) && !Number.isFinite(date)) return result('clock', 'warn', 'The answer carries neither an envelope timestamp nor a Date header');
  const skew = (Number.isFinite(stamp) ? stamp : date) - local;
  const both = Number.isFinite(stamp) && Number.isFinite(date) ? `; Date header: ${Math.round((date - local) / 1000)} s` : '';
  const finding = `The service's clock is ${Math.abs(Math.round(skew / 1000))} s ${skew >= 0 ? 'ahead of' : 'behind'} this machine's (${Number.isFinite(stamp) ? 'envelope timestamp' : 'Date header'}, ±${Math.ceil(ms / 2)} ms${both})`;
  if (Math.abs(skew) < SKEW_WARN_MS) return result('clock', 'pass', finding);
  return result('clock', Math.abs(skew) < SKEW_FAIL_MS ? 'warn' : 'fail', finding,
    "Automatic recovery (every 10 minutes, 24 hours) is judged on the service's clock; the SDK reads it from each answer, but logs and deadlines here use this machine's. Sync this machine's clock (NTP).");
}

async function readRouteCheck(records: Record<string, unknown>[], fieldMap: ResolvedFieldMap, probe: (path: string) => Promise<Probe>): Promise<DiagnosisCheck> {
  const known = records.map((r) => readAlias(r, fieldMap.id)).find((id) => typeof id === 'string' || typeof id === 'number');
  const got = await probe(ROUTES.invoice(known === undefined ? 'doctor-no-such-invoice' : String(known)));
  if (got.status === 404 && (known !== undefined || (!got.ok && NO_ROUTE.test(messageOf(got.error))))) {
    return result('read-route', 'warn', `GET /api/v1/invoices/{id} answered 404 for ${known === undefined ? 'any id (no such route)' : 'an invoice the list route returns'}: the service has no single-invoice read route`,
      'retrieve and waitFor read invoices through the list route instead (more requests per read).');
  }
  if (got.ok || got.status === 404) return result('read-route', 'pass', `GET /api/v1/invoices/{id} exists (answered ${got.status}${known === undefined ? ' for an unknown id' : ''})`);
  return result('read-route', 'warn', `GET /api/v1/invoices/{id} answered ${answer(got)}`);
}

function pageSizeCheck(body: unknown, count: number): DiagnosisCheck {
  const meta = isObject(body) && isObject(body.meta) ? body.meta : undefined;
  if (meta === undefined) return result('page-size', 'warn', `The listing has no meta: ${count} invoice(s) on the page, no page count`, 'list() reads only the first page without meta.totalPages.');
  const used = typeof meta.limit === 'number' ? meta.limit : count;
  const more = used < PAGE_SIZE_ASKED ? '; list() follows meta.totalPages, so iteration still reads every invoice' : '';
  return result('page-size', used > PAGE_SIZE_ASKED ? 'warn' : 'pass',
    `Asked for ${PAGE_SIZE_ASKED} per page, the service uses ${used} (meta.limit ${meta.limit ?? 'absent'}, total ${meta.total ?? '?'}, totalPages ${meta.totalPages ?? '?'})${more}`);
}

// The service's field names for id, status and totals (from a record, else the description) against the field map.
function fieldNameCheck(record: Record<string, unknown> | undefined, described: Record<string, any> | undefined, fieldMap: ResolvedFieldMap): DiagnosisCheck {
  const source = record ?? (isObject(described?.properties) ? described.properties : undefined);
  if (source === undefined) {
    return result('field-names', 'skip', 'No stored invoice to read and no described invoice schema: field names not seen', 'Run again once the account holds an invoice (doctor creates none).');
  }
  // Names as dotted paths one level deep, each with the kind of value it holds.
  const kind = (v: any): 'text' | 'number' | 'other' => {
    const type = record === undefined ? v?.type : typeof v;
    return type === 'number' || type === 'integer' ? 'number' : type === 'string' ? 'text' : 'other';
  };
  const names = new Map<string, 'text' | 'number' | 'other'>();
  for (const [key, value] of Object.entries(source)) {
    const inner = record === undefined ? value?.properties : value;
    if (isObject(inner)) for (const [k, v] of Object.entries(inner)) names.set(`${key}.${k}`, kind(v));
    if (record === undefined || value !== null) names.set(key, kind(value));
  }
  const from = record === undefined ? 'the described invoice schema' : 'a stored invoice';
  const fields: InvoiceField[] = ['id', 'status', 'subtotal', 'taxTotal', 'total'];
  const used = new Set(fields.map((f) => fieldMap[f].find((a) => names.has(a))).filter((a) => a !== undefined));
  const lines: string[] = [];
  const unmapped: string[] = [];
  for (const field of fields) {
    const alias = fieldMap[field].find((a) => names.has(a));
    if (alias !== undefined) {
      lines.push(`${field} ← ${alias}`);
      continue;
    }
    const pattern = CANDIDATE[field];
    const candidate = [...names.keys()].find(
      (n) => !used.has(n) && pattern?.test(n.split('.').pop() ?? '') === true && names.get(n) !== 'other' && !/date|time|At$/.test(n) && !(field === 'total' && /sub|tax|vat|net/i.test(n)),
    );
    if (candidate !== undefined) used.add(candidate);
    lines.push(`${field} ← not read (none of ${fieldMap[field].join(', ')})${candidate === undefined ? '' : `; ${from} has ${candidate}`}`);
    unmapped.push(`${field}: '${candidate ?? `<the ${field} field>`}'`);
  }
  if (unmapped.length === 0) return result('field-names', 'pass', `The field map reads every field of ${from}: ${lines.join(', ')}`, undefined, lines);
  return result('field-names', 'fail', `The field map does not read ${unmapped.map((u) => u.split(':')[0]).join(', ')} of ${from}`,
    `Set the client's fieldMap: { ${unmapped.join(', ')} } (unread totals cannot be compared with the lines before filing; an unread status never reaches a final one).`, lines);
}
