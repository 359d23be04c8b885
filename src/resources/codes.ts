import { APIPromise, type ResponseRecorder } from '../core/api-promise.js';
import { APIUserAbortError } from '../core/errors.js';
import { summarizeBody } from '../core/error-hints.js';
import type { RequestOptions } from '../core/request-options.js';
import { earlyStop, repeatsPage } from '../core/pagination.js';
import { invalidResponse } from '../core/envelope.js';
import { APIResource } from '../core/resource.js';
import { ROUTES } from '../core/routes.js';
import type { Query, QueryValue } from '../core/query.js';
import { HsCodeSchema, ServiceCodeSchema, type ClassificationCode } from '../model/codes.js';

/** Parameters of the code lookups. @example const fresh = await client.codes.hsCodes({ refresh: true }); */
export interface CodeLookupParams {
  /** Fetch again even when a cached answer is still fresh (and replace it). */ refresh?: boolean | undefined;
  /** Any query parameter the service accepts, passed through. */ [param: string]: QueryValue;
}

interface CacheEntry {
  at: number;
  value: Promise<ClassificationCode[]>;
  /** Stops the shared fetch, once every caller waiting on it has aborted. */ controller: AbortController;
  /** Callers that may still want the answer; one without a signal never gives up. */ waiting: number;
  /** The last response of the fetch, for `withResponse()` of every caller served by this entry. */
  response?: { raw: Response; requestId: string | undefined } | undefined;
}

/**
 * `client.codes`: the service's valid HS and ISIC codes, cached in memory for `codesCacheTtl` (one hour by default).
 * @example
 * ```ts
 * const services = await client.codes.serviceCodes();
 * const known = new Set(services.map((c) => c.code));
 * console.log(known.has('6202'));
 * ```
 */
export class Codes extends APIResource {
  readonly #cache = new Map<string, CacheEntry>();

  /** Valid HS codes for goods (`hsnCode`, `NNNN.NN`), from `GET /api/v1/taxauth/hs-codes`. */
  hsCodes(params: CodeLookupParams = {}, opts: RequestOptions = {}): APIPromise<ClassificationCode[]> {
    return new APIPromise((record) => this.#lookup(ROUTES.hsCodes, params, opts, HsCodeSchema, record));
  }

  /** Valid ISIC service codes (`isicCode`, four digits), from `GET /api/v1/taxauth/service-codes`. */
  serviceCodes(params: CodeLookupParams = {}, opts: RequestOptions = {}): APIPromise<ClassificationCode[]> {
    return new APIPromise((record) => this.#lookup(ROUTES.serviceCodes, params, opts, ServiceCodeSchema, record));
  }

  /** Forgets every cached lookup. */
  clearCache(): void {
    this.#cache.clear();
  }

  #lookup(path: string, params: CodeLookupParams, opts: RequestOptions, schema: typeof HsCodeSchema, record: ResponseRecorder) {
    const { refresh, ...filters } = params;
    // A per-call query is part of what is asked, so part of the cache key too.
    const query: Query = { ...filters, ...opts.query };
    if (opts.signal?.aborted) return Promise.reject(new APIUserAbortError({ method: 'GET', path, cause: opts.signal.reason }));
    // Keyed by the query as it is sent (an array repeats its parameter): lookups share an entry only when they ask the same.
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      for (const item of [value].flat()) if (item !== undefined && item !== null) search.append(name, String(item));
    }
    const cacheKey = `${path}?${search}`;
    const { now, codesCacheTtl } = this._ctx;
    let entry = this.#cache.get(cacheKey);
    if (refresh === true || entry === undefined || now() - entry.at >= codesCacheTtl) {
      // The shared fetch has a signal of its own: one caller's abort must not fail the others waiting on it.
      const controller = new AbortController();
      const created: CacheEntry = { at: now(), value: Promise.resolve([]), controller, waiting: 0 };
      created.value = this.#fetchAll(path, query, { ...opts, signal: controller.signal }, schema, (r) => (created.response = r));
      entry = created;
      if (codesCacheTtl > 0) {
        this.#cache.set(cacheKey, created);
        // A failed lookup is not remembered: the next call tries again.
        created.value.catch(() => {
          if (this.#cache.get(cacheKey) === created) this.#cache.delete(cacheKey);
        });
      }
    }
    // Each caller gets its own copy of the codes and of the response: editing one or reading one body leaves the others.
    return this.#wait(entry, cacheKey, path, opts.signal).then((codes) => {
      if (entry.response !== undefined) record({ raw: entry.response.raw.clone(), requestId: entry.response.requestId });
      return codes.map((c) => ({ ...c }));
    });
  }

  /** The entry's answer, or an `APIUserAbortError` as soon as this caller's own `signal` aborts. */
  #wait(entry: CacheEntry, cacheKey: string, path: string, signal: AbortSignal | undefined): Promise<ClassificationCode[]> {
    entry.waiting += 1;
    if (signal === undefined) return entry.value;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (--entry.waiting === 0) {
          // Nobody wants it any more: stop it, and let no later call join a fetch being stopped.
          if (this.#cache.get(cacheKey) === entry) this.#cache.delete(cacheKey);
          entry.controller.abort(signal.reason);
        }
        reject(new APIUserAbortError({ method: 'GET', path, cause: signal.reason }));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async #fetchAll(path: string, query: Query, opts: RequestOptions, schema: typeof HsCodeSchema, record: ResponseRecorder) {
    const { transport, logger } = this._ctx;
    const out: ClassificationCode[] = [];
    // Pages are counted here, never taken from meta.page: a server that ignores ?page would be asked forever.
    const asked = Number(query.page ?? 1);
    let requested = Number.isSafeInteger(asked) && asked > 0 ? asked : 1;
    let previousEcho: number | undefined;
    const options = { signal: opts.signal, timeout: opts.timeout, maxRetries: opts.maxRetries, headers: opts.headers };
    for (let walked = 1; ; walked += 1) {
      const pageQuery = walked === 1 ? query : { ...query, page: requested };
      const response = await transport.send({ method: 'GET', path, query: pageQuery, options, record });
      // The body is not shown by the service: the envelope is expected, a bare list is accepted.
      const envelope = transport.tryUnwrap(response);
      const { body } = response;
      const failed = typeof body === 'object' && body !== null && !Array.isArray(body) && 'success' in body && body.success !== true;
      if (envelope === undefined && failed) {
        // `{ success: false, data: [...] }` is the service saying no, not a bare list.
        const said = summarizeBody(response.body).message;
        throw invalidResponse(response, { message: `The code lookup answered success: false${said === undefined ? '' : `: ${said}`}.` });
      }
      const list = envelope === undefined ? listOf(response.body, 'body') : listOf(envelope.data, 'data');
      if (list === undefined) throw invalidResponse(response, { message: 'The code lookup answered with no list of codes.' });
      const meta = envelope?.meta;
      const stop = earlyStop(path, requested, meta?.page, previousEcho, list.items.length, walked, meta?.totalPages);
      if (stop !== undefined && repeatsPage(meta?.page, previousEcho)) {
        // By the server's own account these entries were read already.
        logger.warn(stop);
        return out;
      }
      let skipped = 0;
      for (const item of list.items) {
        const parsed = schema.safeParse(item);
        if (parsed.success) out.push(parsed.data);
        else skipped += 1;
      }
      if (skipped > 0 && skipped === list.items.length) {
        // An empty result would read as "no valid codes" and make every code look invalid.
        const issue = schema.safeParse(list.items[0]).error?.issues[0];
        const first = `${list.at}[0]${issue?.path.map((p) => `.${String(p)}`).join('') ?? ''}: ${issue?.message ?? 'unreadable'}`;
        const message = `The code lookup answered ${list.items.length} entries and none has a readable code (${first}).`;
        throw invalidResponse(response, { message });
      }
      if (skipped > 0) logger.warn(`${path}: ${skipped} entries without a readable code were skipped.`);
      if (stop !== undefined) logger.warn(stop);
      if (stop !== undefined || meta?.totalPages === undefined || requested >= meta.totalPages) return out;
      previousEcho = meta.page ?? previousEcho;
      requested += 1;
    }
  }
}

/** The list in a lookup answer (an array, an object holding one, or a `{ code: title }` map) and where it is. */
function listOf(data: unknown, root: string): { items: unknown[]; at: string } | undefined {
  if (Array.isArray(data)) return { items: data, at: root };
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  for (const field of ['items', 'codes', 'data', 'results']) {
    const items = record[field];
    if (Array.isArray(items)) return { items, at: `${root}.${field}` };
  }
  const entries = Object.entries(record);
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'string')) return undefined;
  return { items: entries.map(([code, description]) => ({ code, description })), at: root };
}
