/**
 * `client.diagnose()`: a short, read-only list of checks of a setup against the configured service.
 * Only GETs, through the client's public methods: nothing is created, no key is revealed, and no
 * finding quotes a secret. Each check answers pass, warn, fail or skip with a finding and a hint.
 */
import type { APIPromise } from '../core/api-promise.js';
import { isAPIError, isAPIUserAbortError } from '../core/errors.js';
import { isInsecureRemote } from '../core/options.js';
import type { RequestOptions } from '../core/request-options.js';
import { ROUTES } from '../core/routes.js';
import type { APIKey } from '../model/api-key.js';
import { readAlias, type InvoiceField, type ResolvedFieldMap } from '../model/field-map.js';
import { describedInvoiceFields, driftChecks, findDescription } from './drift.js';
import type { DiagnoseOptions, Diagnosis, DiagnosisCheck, DiagnosisStatus } from './types.js';

export type { DiagnoseOptions, Diagnosis, DiagnosisCheck, DiagnosisStatus } from './types.js';

/** What the diagnosis uses of the client (its public methods). */
export interface DiagnoseTarget {
  readonly baseUrl: string;
  readonly hasApiKey: boolean;
  readonly hasSessionToken: boolean;
  get<T = unknown>(path: string, opts?: RequestOptions): APIPromise<T>;
  readonly apiKeys: { list(opts?: RequestOptions): APIPromise<APIKey[]> };
}

/** What only the client knows: its field map, and whether a fragment is part of its key (never the key). */
export interface DiagnoseInternals {
  fieldMap: ResolvedFieldMap;
  /** The client's `allowInsecureHttp`: plain http to a remote host was chosen, so it is a warning. */
  allowInsecureHttp: boolean;
  keyMatches(fragment: string): boolean;
}

/** One GET: the data and raw response, or the error; with the time the answer took. */
type Probe =
  | { ok: true; data: unknown; response: Response; ms: number; sentAt: number; body(): Promise<unknown> }
  | { ok: false; error: unknown; ms: number };

const PAGE_SIZE_ASKED = 100;
const SKEW_WARN_MS = 30_000;
const SKEW_FAIL_MS = 5 * 60_000;
/** The answer frameworks give for a path with no route (Express, NestJS, Fastify). */
const NO_ROUTE = /cannot get|no route|route .*not found/i;
const MONEY: readonly InvoiceField[] = ['subtotal', 'taxTotal', 'total'];
const CANDIDATE: Record<string, RegExp> = { status: /status|state/i, subtotal: /sub|net/i, taxTotal: /tax|vat/i, total: /total|gross|amount|sum/i };

const statusOf = (e: unknown): number | undefined => (isAPIError(e) ? e.status : undefined);
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Runs the checks in order and returns every finding; never throws for what it finds (an abort
 * through `opts.signal` does throw).
 */
export async function diagnose(client: DiagnoseTarget, internals: DiagnoseInternals, opts: DiagnoseOptions = {}): Promise<Diagnosis> {
  const strict = opts.strict === true;
  const checks: DiagnosisCheck[] = [];
  const add = (check: DiagnosisCheck): void => void checks.push(check);
  const skip = (id: string, area: DiagnosisCheck['area'], why: string): void => add({ id, area, status: 'skip', finding: why });
  const request: RequestOptions = { maxRetries: 0, timeout: opts.timeout, signal: opts.signal };
  const probe = async (path: string, query?: Record<string, number>): Promise<Probe> => {
    const sentAt = Date.now();
    try {
      const { data, response } = await client.get(path, { ...request, query }).withResponse();
      const ms = Date.now() - sentAt;
      // The whole body (envelope, meta), read once and only when a check needs it.
      let body: Promise<unknown> | undefined;
      return { ok: true, data, response, ms, sentAt, body: () => (body ??= response.json().catch(() => undefined)) };
    } catch (error) {
      if (isAPIUserAbortError(error)) throw error;
      return { ok: false, error, ms: Date.now() - sentAt };
    }
  };

  // Reachability.
  const origin = new URL(client.baseUrl);
  add(
    origin.protocol === 'https:'
      ? { id: 'https', area: 'reachability', status: 'pass', finding: `${client.baseUrl} is https` }
      : isInsecureRemote(client.baseUrl)
        ? {
            id: 'https',
            area: 'reachability',
            status: internals.allowInsecureHttp ? 'warn' : 'fail',
            finding: `${client.baseUrl} is plain http to a host other than loopback: the API key crosses the network in clear text`,
            hint: 'Use the https:// origin of the service.',
          }
        : { id: 'https', area: 'reachability', status: 'pass', finding: `${client.baseUrl} is plain http to a loopback host` },
  );
  const needKey = ['base-url', 'api-prefix', 'api-key', 'scopes', 'key-type', 'clock', 'read-route', 'page-size', 'field-names', 'api-description'];
  if (!client.hasApiKey) {
    add({ id: 'api-key', area: 'credentials', status: 'fail', finding: 'No API key configured', hint: 'Set INVOICING_API_KEY (or pass apiKey) to a USER key.' });
    return finish(client, strict, checks.concat(skipped(needKey.filter((id) => id !== 'api-key'), 'not run: no API key')));
  }
  const root = await probe('/');
  const rootStatus = root.ok ? root.response.status : statusOf(root.error);
  const answered = rootStatus !== undefined;
  add(
    answered
      ? { id: 'base-url', area: 'reachability', status: 'pass', finding: `${client.baseUrl} answered (HTTP ${rootStatus}) in ${root.ms} ms` }
      : {
          id: 'base-url',
          area: 'reachability',
          status: 'fail',
          finding: `${client.baseUrl} did not answer: ${messageOf(root.ok ? undefined : root.error)}`,
          hint: 'Check INVOICING_BASE_URL, DNS, and any proxy or firewall between here and the service.',
        },
  );
  if (!answered) return finish(client, strict, checks.concat(skipped(needKey.filter((id) => id !== 'base-url'), 'not run: the service did not answer')));

  const list = await probe(ROUTES.invoices, { limit: PAGE_SIZE_ASKED });
  const listStatus = list.ok ? list.response.status : statusOf(list.error);
  const listError = list.ok ? undefined : list.error;
  if (listStatus === 404 && NO_ROUTE.test(messageOf(listError))) {
    add({
      id: 'api-prefix',
      area: 'reachability',
      status: 'fail',
      finding: `GET ${ROUTES.invoices} answered 404: no /api/v1 at ${client.baseUrl}`,
      hint: origin.pathname !== '/' ? `The base URL is the service's origin; the SDK adds /api/v1 itself: try ${origin.origin}.` : 'Check INVOICING_BASE_URL: it should be the origin the service is served from.',
    });
  } else {
    add({ id: 'api-prefix', area: 'reachability', status: list.ok || (listStatus !== undefined && listStatus < 500) ? 'pass' : 'warn', finding: `GET ${ROUTES.invoices} answered ${listStatus ?? 'nothing'} in ${list.ms} ms (time to answer, first byte included)` });
  }

  // Credentials: the key works, the scopes it lacks (reads that answer 403), the key's type.
  const codes = await probe(ROUTES.hsCodes, { limit: 1 });
  const codesStatus = codes.ok ? codes.response.status : statusOf(codes.error);
  if (listStatus === 401 || codesStatus === 401) {
    const error = listStatus === 401 ? listError : codes.ok ? undefined : codes.error;
    add({ id: 'api-key', area: 'credentials', status: 'fail', finding: `The API key is refused (401): ${messageOf(error)}`, hint: (error as { hint?: string }).hint ?? 'Use an active key, sent as X-API-Key.' });
  } else if (list.ok || codes.ok || listStatus === 403 || codesStatus === 403) {
    add({ id: 'api-key', area: 'credentials', status: 'pass', finding: 'The API key is accepted' });
  } else {
    add({ id: 'api-key', area: 'credentials', status: 'warn', finding: `Could not tell whether the key works: GET ${ROUTES.invoices} answered ${listStatus ?? messageOf(listError)}` });
  }
  const own = internals.keyMatches;
  let record: APIKey | undefined;
  let keyCount = 0;
  if (client.hasSessionToken) {
    try {
      const keys = await client.apiKeys.list(request);
      keyCount = keys.length;
      record = pickOwnKey(keys, own);
    } catch (error) {
      if (isAPIUserAbortError(error)) throw error;
      add({ id: 'key-type', area: 'credentials', status: 'warn', finding: `Could not list the session's keys: ${messageOf(error)}`, hint: 'Check INVOICING_SESSION_TOKEN; the key type was not checked.' });
    }
  }
  const lacks: string[] = [];
  if (listStatus === 403) lacks.push('invoices:read');
  if (codesStatus === 403) lacks.push('taxauth:read');
  const scopes = record?.scopes;
  if (scopes !== undefined && !scopes.includes('*') && !scopes.includes('invoices:write')) lacks.push('invoices:write');
  if (listStatus === 401) skip('scopes', 'credentials', 'not run: the key is refused');
  else add(
    lacks.length === 0
      ? {
          id: 'scopes',
          area: 'credentials',
          status: 'pass',
          finding:
            scopes !== undefined
              ? `The key holds ${scopes.join(', ')}`
              : 'The key reads invoices and code lists; invoices:write cannot be checked without writing (with INVOICING_SESSION_TOKEN the key record says)',
        }
      : {
          id: 'scopes',
          area: 'credentials',
          status: lacks.some((s) => s !== 'taxauth:read') ? 'fail' : 'warn',
          finding: `The key lacks ${lacks.join(', ')} for filing`,
          hint: 'Filing creates and moves invoices (invoices:write) and reads them back while waiting (invoices:read); code lists need taxauth:read (else the bundled tables decide). Create a key with those scopes from a signed-in session.',
        },
  );
  if (!client.hasSessionToken) skip('key-type', 'credentials', 'not run: set INVOICING_SESSION_TOKEN to read the key’s type (a BUSINESS key cannot create invoices)');
  else if (!checks.some((c) => c.id === 'key-type')) add(keyTypeCheck(record, keyCount));

  // Clock: the envelope's timestamp and the Date header, against this machine's clock.
  const timed = list.ok ? list : codes.ok ? codes : undefined;
  if (timed === undefined) skip('clock', 'clock', 'not run: no read succeeded');
  else add(clockCheck(await timed.body(), timed.response.headers, timed.sentAt, timed.ms));

  // Routes and shapes.
  const records = list.ok && Array.isArray(list.data) ? list.data.filter(isObject) : [];
  const found = await findDescription((path) => client.get(path, request), client.baseUrl);
  add(await readRouteCheck(records, internals.fieldMap, probe));
  if (listStatus === 400) {
    add({ id: 'page-size', area: 'routes', status: 'warn', finding: `The service refuses limit=${PAGE_SIZE_ASKED}: ${messageOf(listError)}`, hint: 'Pass a smaller limit to list() and watch().' });
  } else if (!list.ok) skip('page-size', 'routes', `not run: GET ${ROUTES.invoices} answered ${listStatus ?? messageOf(listError)}`);
  else add(pageSizeCheck(await list.body(), records.length));
  add(fieldNameCheck(records[0], describedInvoiceFields(found), internals.fieldMap));

  for (const check of driftChecks(found, internals.fieldMap)) add(check);
  return finish(client, strict, checks);
}

function skipped(ids: string[], why: string): DiagnosisCheck[] {
  const area = (id: string): DiagnosisCheck['area'] =>
    id === 'base-url' || id === 'api-prefix' ? 'reachability' : id === 'clock' ? 'clock' : id === 'api-description' ? 'drift' : ['api-key', 'scopes', 'key-type'].includes(id) ? 'credentials' : 'routes';
  return ids.map((id) => ({ id, area: area(id), status: 'skip', finding: why }));
}

function finish(client: DiagnoseTarget, strict: boolean, checks: DiagnosisCheck[]): Diagnosis {
  const counts: Record<DiagnosisStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const c of checks) counts[c.status]++;
  const order = ['reachability', 'credentials', 'clock', 'routes', 'drift'];
  checks.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area));
  return { ok: counts.fail === 0 && (!strict || counts.warn === 0), strict, baseUrl: client.baseUrl, checkedAt: new Date().toISOString(), checks, counts };
}

/**
 * The session's key record that is this client's key: a listed prefix or suffix (masks such as `*`
 * and `…` split off) of at least 10 characters that the client's key starts or ends with.
 */
function pickOwnKey(keys: readonly APIKey[], keyMatches: (fragment: string) => boolean): APIKey | undefined {
  let best: APIKey | undefined;
  let bestLength = 0;
  for (const key of keys) {
    for (const value of Object.values(key.raw)) {
      if (typeof value !== 'string') continue;
      for (const part of value.split(/[*•…]+|\.{3,}/)) {
        if (part.length >= 10 && part.length > bestLength && keyMatches(part)) {
          best = key;
          bestLength = part.length;
        }
      }
    }
  }
  return best;
}

function keyTypeCheck(record: APIKey | undefined, count: number): DiagnosisCheck {
  if (record === undefined) {
    return {
      id: 'key-type',
      area: 'credentials',
      status: 'warn',
      finding: `None of the session's ${count} key record(s) shows a prefix of this client's key`,
      hint: 'The session may belong to another user; the key type was not checked.',
    };
  }
  const label = record.name === undefined ? 'The key' : `The key "${record.name}"`;
  if (record.keyableType === 'BUSINESS') {
    return {
      id: 'key-type',
      area: 'credentials',
      status: 'fail',
      finding: `${label} is a BUSINESS key`,
      hint: 'Known defect of the service: with a BUSINESS key, POST /api/v1/invoices answers 404 "Business not found" (the ownership check looks for a business owned by the key). Use a USER key.',
    };
  }
  return record.keyableType === 'USER'
    ? { id: 'key-type', area: 'credentials', status: 'pass', finding: `${label} is a USER key` }
    : { id: 'key-type', area: 'credentials', status: 'warn', finding: `${label} has keyableType ${JSON.stringify(record.keyableType ?? null)}`, hint: 'A USER key is the working path for creating invoices.' };
}

function clockCheck(body: unknown, headers: Headers, sentAt: number, ms: number): DiagnosisCheck {
  // This machine's time halfway through the request, against the service's time for the answer.
  const local = sentAt + ms / 2;
  const stamp = isObject(body) && typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : NaN;
  const date = Date.parse(headers.get('date') ?? '');
  const source = Number.isFinite(stamp) ? 'envelope timestamp' : Number.isFinite(date) ? 'Date header' : undefined;
  if (source === undefined) return { id: 'clock', area: 'clock', status: 'warn', finding: 'The answer carries neither an envelope timestamp nor a Date header' };
  const skew = (Number.isFinite(stamp) ? stamp : date) - local;
  const both = Number.isFinite(stamp) && Number.isFinite(date) ? `; Date header: ${Math.round((date - local) / 1000)} s` : '';
  const finding = `The service's clock is ${Math.abs(Math.round(skew / 1000))} s ${skew >= 0 ? 'ahead of' : 'behind'} this machine's (${source}, ±${Math.ceil(ms / 2)} ms${both})`;
  const size = Math.abs(skew);
  if (size < SKEW_WARN_MS) return { id: 'clock', area: 'clock', status: 'pass', finding };
  return {
    id: 'clock',
    area: 'clock',
    status: size < SKEW_FAIL_MS ? 'warn' : 'fail',
    finding,
    hint: "Automatic recovery (every 10 minutes, 24 hours) is judged on the service's clock; the SDK reads it from each answer, but logs and deadlines here use this machine's. Sync this machine's clock (NTP).",
  };
}

async function readRouteCheck(records: Record<string, unknown>[], fieldMap: ResolvedFieldMap, probe: (path: string) => Promise<Probe>): Promise<DiagnosisCheck> {
  const known = records.map((r) => readAlias(r, fieldMap.id)).find((id) => typeof id === 'string' || typeof id === 'number');
  const id = known === undefined ? 'doctor-no-such-invoice' : String(known);
  const answer = await probe(ROUTES.invoice(id));
  const status = answer.ok ? answer.response.status : statusOf(answer.error);
  const missing = status === 404 && (known !== undefined || NO_ROUTE.test(messageOf(answer.ok ? undefined : answer.error)));
  if (missing) {
    return {
      id: 'read-route',
      area: 'routes',
      status: 'warn',
      finding: `GET /api/v1/invoices/{id} answered 404 for ${known === undefined ? 'any id (no such route)' : 'an invoice the list route returns'}: the service has no single-invoice read route`,
      hint: 'retrieve and waitFor read invoices through the list route instead (more requests per read).',
    };
  }
  if (status === 404 || answer.ok) {
    return { id: 'read-route', area: 'routes', status: 'pass', finding: `GET /api/v1/invoices/{id} exists (answered ${status}${known === undefined ? ' for an unknown id' : ''})` };
  }
  return { id: 'read-route', area: 'routes', status: 'warn', finding: `GET /api/v1/invoices/{id} answered ${status ?? messageOf(answer.ok ? undefined : answer.error)}` };
}

function pageSizeCheck(body: unknown, count: number): DiagnosisCheck {
  const meta = isObject(body) && isObject(body.meta) ? body.meta : undefined;
  if (meta === undefined) {
    return { id: 'page-size', area: 'routes', status: 'warn', finding: `The listing has no meta: ${count} invoice(s) on the page, no page count`, hint: 'list() reads only the first page without meta.totalPages.' };
  }
  const used = typeof meta.limit === 'number' ? meta.limit : count;
  return {
    id: 'page-size',
    area: 'routes',
    status: used > PAGE_SIZE_ASKED ? 'warn' : 'pass',
    finding: `Asked for ${PAGE_SIZE_ASKED} per page, the service uses ${used} (meta.limit ${meta.limit ?? 'absent'}, total ${meta.total ?? '?'}, totalPages ${meta.totalPages ?? '?'})${used < PAGE_SIZE_ASKED ? '; list() follows meta.totalPages, so iteration still reads every invoice' : ''}`,
  };
}

/**
 * Which field names the service uses for id, status and the totals, from a stored record (else the
 * description's), and whether the client's field map reads them.
 */
function fieldNameCheck(record: Record<string, unknown> | undefined, described: Record<string, any> | undefined, fieldMap: ResolvedFieldMap): DiagnosisCheck {
  // Names as dotted paths one level deep, each with the kind of value it holds.
  const names = new Map<string, 'text' | 'number' | 'other'>();
  const source = record ?? (isObject(described?.properties) ? described.properties : undefined);
  if (source === undefined) {
    return { id: 'field-names', area: 'routes', status: 'skip', finding: 'No stored invoice to read and no described invoice schema: field names not seen', hint: 'Run again once the account holds an invoice (doctor creates none).' };
  }
  const kind = (v: any): 'text' | 'number' | 'other' => {
    const type = record === undefined ? v?.type : typeof v;
    return type === 'number' || type === 'integer' ? 'number' : type === 'string' ? 'text' : 'other';
  };
  for (const [key, value] of Object.entries(source)) {
    const inner = record === undefined ? value?.properties : value;
    if (isObject(inner)) for (const [k, v] of Object.entries(inner)) names.set(`${key}.${k}`, kind(v));
    if (record === undefined || value !== null) names.set(key, kind(value));
  }
  const from = record === undefined ? 'the described invoice schema' : 'a stored invoice';
  const used = new Set<string>();
  const lines: string[] = [];
  const unmapped: { field: InvoiceField; candidate: string | undefined }[] = [];
  const fields: InvoiceField[] = ['id', 'status', ...MONEY];
  for (const field of fields) {
    const alias = fieldMap[field].find((a) => names.has(a));
    if (alias !== undefined) {
      used.add(alias);
      lines.push(`${field} ← ${alias}`);
    } else unmapped.push({ field, candidate: undefined });
  }
  for (const u of unmapped) {
    const pattern = CANDIDATE[u.field];
    u.candidate = [...names.keys()].find((n) => !used.has(n) && pattern !== undefined && pattern.test(n.split('.').pop() ?? '') && names.get(n) !== 'other' && !/date|time|At$/.test(n) && !(u.field === 'total' && /sub|tax|vat|net/i.test(n)));
    if (u.candidate !== undefined) used.add(u.candidate);
    lines.push(`${u.field} ← not read (none of ${fieldMap[u.field].join(', ')})${u.candidate === undefined ? '' : `; ${from} has ${u.candidate}`}`);
  }
  if (unmapped.length === 0) return { id: 'field-names', area: 'routes', status: 'pass', finding: `The field map reads every field of ${from}: ${lines.join(', ')}`, details: lines };
  const map = unmapped.map((u) => `${u.field}: '${u.candidate ?? `<the ${u.field} field>`}'`).join(', ');
  return {
    id: 'field-names',
    area: 'routes',
    status: 'fail',
    finding: `The field map does not read ${unmapped.map((u) => u.field).join(', ')} of ${from}`,
    hint: `Set the client's fieldMap: { ${map} } (unread totals cannot be compared with the lines before filing; an unread status never reaches a final one).`,
    details: lines,
  };
}
