import { v4 as uuidv4 } from 'uuid';
import { checkInvoice, checkInvoiceAsSent, formatIssuePath, MAX_INPUT_DEPTH, type CheckOptions, type CheckReport } from '../check/index.js';
import { notJsonData } from '../check/rules/fields.js';
import { INPUT_TOTAL_FIELDS, LINE_TOTAL_FIELDS } from '../check/rules/totals.js';
import { isDecimalText } from '../model/decimal.js';
import { Codes } from './codes.js';
import { assertResourceId, BadRequestError, FilingError, InvalidInputError, InvoiceCheckError } from '../core/errors.js';
import { isBadRequestError, isErrorKind, isNotFoundError, NotFoundError, redactError } from '../core/errors.js';
import { sentLinesClassificationHint } from '../core/error-hints.js';
import { APIPromise, type ResponseRecorder } from '../core/api-promise.js';
import { Page, PagePromise } from '../core/pagination.js';
import type { FilingInvoicesApi } from '../filing/api.js';
import type { MutationRequestOptions, RequestOptions } from '../core/request-options.js';
import { invalidResponse } from '../core/envelope.js';
import { APIResource } from '../core/resource.js';
import { ROUTES } from '../core/routes.js';
import type { QueryValue } from '../core/query.js';
import type { FilingTransition } from '../model/status.js';
import { performTransition, type TransitionOptions } from '../filing/transition.js';
import { hasReadableStatus } from '../model/field-map.js';
import { readInvoiceRecord, type Invoice } from '../model/invoice.js';
import type { InvoiceCreateParams } from '../model/invoice-input.js';
import { createAndFile, resumeFiling, type CreateAndFileOptions, type FilingResult, type ResumeFilingOptions } from '../filing/file.js';
import { fileMany, type FileManyOptions, type FileManyResult } from '../filing/file-many.js';
import { waitFor, type WaitOptions, type WaitResult } from '../filing/wait.js';
import { watchInvoices, type InvoiceWatch, type WatchOptions } from '../filing/watch.js';

/**
 * Options of `invoices.create()`.
 * @example
 * ```ts
 * import { deriveIdempotencyKey } from 'invoicing-sdk';
 * const idempotencyKey = deriveIdempotencyKey(input.businessId, 'INV-2026-0042');
 * await client.invoices.create(input, { idempotencyKey, checkOptions: { strict: true } });
 * ```
 */
export interface InvoiceCreateOptions extends MutationRequestOptions {
  /** Send without running `checkInvoice()` first. Default false. */ skipChecks?: boolean | undefined;
  /** Options of the local checks (`strict`, `expectedTotals`, …). */ checkOptions?: CheckOptions | undefined;
}

/**
 * Parameters of `invoices.list()`: `page`, `limit`, and any filter, passed through as query parameters.
 * @example const page = await client.invoices.list({ limit: 50, status: 'Submitted' });
 */
export interface InvoiceListParams {
  /** Page to start from, from 1. Default: the service's (the first page). */ page?: number | undefined;
  /** Items per page. Default: the service's. */ limit?: number | undefined;
  /** Only invoices in this status (passed through as the service spells it). */ status?: string | undefined;
  /** Any further filter, passed through as a query parameter. */ [filter: string]: QueryValue;
}

/**
 * `client.invoices`: create drafts (checked locally first), read, list and file them, and the filing workflow on top.
 * @example
 * ```ts
 * const draft = await client.invoices.create(input);
 * await client.invoices.validate(draft.id);
 * await client.invoices.sign(draft.id);
 * const submitted = await client.invoices.submit(draft.id);
 * ```
 */
export class Invoices extends APIResource {
  /** Ids the service returned lately: a 404 for one of them means the read route is missing, not the invoice. */
  readonly #seen = new Set<string>();
  /** Set once this deployment is known to lack `GET /invoices/{id}`: invoices are then read through the listing. */
  #readByList = false;
  /** The service's code lists, read once per client when an invoice has a code the bundled tables lack. */
  readonly #serviceLists: { hs?: Promise<ReadonlySet<string> | undefined>; isic?: Promise<ReadonlySet<string> | undefined> } = {};
  readonly #codes = new Codes(this._ctx);

  /**
   * Creates a draft (`POST /api/v1/invoices`) after `checkInvoice` passes (else `InvoiceCheckError`, nothing sent), unless `skipChecks`.
   * @example const draft = await client.invoices.create(input, { idempotencyKey: deriveIdempotencyKey(input.businessId, 'ORDER-42') });
   */
  create(input: InvoiceCreateParams, opts: InvoiceCreateOptions = {}): APIPromise<Invoice> {
    return new APIPromise((record) => this.#create(input, opts, record));
  }

  async #create(input: InvoiceCreateParams, opts: InvoiceCreateOptions, record: ResponseRecorder): Promise<Invoice> {
    // Serialized once, checked as parsed back from the bytes sent: a getter, toJSON or Proxy cannot change what was checked.
    const { bodyText, sent } = serializeInvoice(input);
    if (opts.skipChecks !== true) {
      const first = checkInvoice(sent, opts.checkOptions);
      const checkOptions = await this.#withServiceCodes([first], opts.checkOptions);
      // Checked again only with a service list read, which may decide what the bundled tables could not.
      const report = checkOptions === opts.checkOptions ? first : checkInvoice(sent, checkOptions);
      if (!report.ok) throw redactError(new InvoiceCheckError(explainNotSent(report, input, checkOptions)), this._ctx.redactor);
      for (const warning of report.warnings) {
        this._ctx.logger.warn(`Invoice check warning ${warning.code} at ${warning.path.join('.')}: ${warning.message}`);
      }
    }
    const { envelope, response } = await this._ctx.transport
      .request({ method: 'POST', path: ROUTES.invoices, bodyText, options: opts, record })
      .catch((err: unknown) => {
        throw redactError(withSentLinesHint(err, sent), this._ctx.redactor);
      });
    const invoice = this._invoiceFrom(envelope.data, envelope, response);
    this.#remember(invoice.id);
    return invoice;
  }

  /** Reads one invoice (`GET /api/v1/invoices/{id}`), through the client's `fieldMap`. */
  retrieve(id: string, opts: RequestOptions = {}): APIPromise<Invoice> {
    return new APIPromise((record) => this.#retrieve(id, opts, record));
  }

  async #retrieve(id: string, opts: RequestOptions, record: ResponseRecorder | undefined): Promise<Invoice> {
    checkedId(id);
    if (this.#readByList) return this.#retrieveFromList(id, opts, record);
    let answer;
    try {
      answer = await this._ctx.transport.request({ method: 'GET', path: ROUTES.invoice(id), options: withoutIdempotency(opts), record });
    } catch (err) {
      // A 404 for an invoice this client was just given, or a framework's "Cannot GET": the route is missing, not the invoice.
      if (!isNotFoundError(err)) throw err;
      const said = typeof err.body === 'string' ? `${err.message} ${err.body}` : err.message;
      if (!this.#seen.has(id) && !ROUTE_MISSING.test(said)) throw err;
      if (!this.#readByList) {
        this._ctx.logger.warn(
          'This deployment has no single-invoice read route (GET /api/v1/invoices/{id} answered 404): reading through the list route.',
        );
      }
      this.#readByList = true;
      return this.#retrieveFromList(id, opts, record);
    }
    return this._invoiceFrom(answer.envelope.data, answer.envelope, answer.response, id);
  }

  async #retrieveFromList(id: string, opts: RequestOptions, record: ResponseRecorder | undefined): Promise<Invoice> {
    // The service's largest page: fewest requests for the walk.
    const load = this.#pageLoader({ limit: 100 }, undefined, opts, record);
    for await (const invoice of await load(1)) if (invoice.id === id) return invoice;
    throw new NotFoundError({
      message: `Invoice ${id} was not found: this deployment does not serve GET /api/v1/invoices/{id}, and no page of the invoice listing holds it.`,
      status: 404,
      method: 'GET',
      path: ROUTES.invoice(id),
      hint: 'Check the id, and that the client’s API key can read the business the invoice belongs to.',
    });
  }

  /** Lists invoices (`GET /api/v1/invoices`). */
  list(params: InvoiceListParams = {}, opts: RequestOptions = {}): PagePromise<Invoice> {
    const { page: firstPage, ...filters } = params;
    const load = this.#pageLoader(filters, firstPage, opts);
    return new PagePromise((record) => load(firstPage ?? 1, record));
  }

  /** Loads listing pages and remembers each id for the read-route fallback. */
  #pageLoader(filters: Record<string, QueryValue>, firstPage: number | undefined, opts: RequestOptions, recordAll?: ResponseRecorder) {
    const options = withoutIdempotency(opts);
    const load = async (page: number, record?: ResponseRecorder): Promise<Page<Invoice>> => {
      const query = firstPage === undefined && page === 1 ? filters : { ...filters, page };
      const request = { method: 'GET', path: ROUTES.invoices, query, options, record: record ?? recordAll } as const;
      const { envelope, response } = await this._ctx.transport.request(request);
      if (!Array.isArray(envelope.data)) {
        throw invalidResponse(response, { message: 'The invoice listing cannot be read at data: expected an array of invoices.' });
      }
      if (envelope.meta?.totalPages === undefined) {
        this._ctx.logger.warn('The invoice listing carries no meta.totalPages; only this page is read.');
      }
      const data = envelope.data.map((record: unknown, i) => {
        const invoice = this._invoiceFrom(record, envelope, response, undefined, i);
        this.#remember(invoice.id);
        return invoice;
      });
      return new Page({ data, meta: envelope.meta, requestedPage: page, load, logger: this._ctx.logger });
    };
    return load;
  }

  /** Bounded, oldest forgotten first: memory stays flat on a long-lived client. */
  #remember(id: string): void {
    this.#seen.delete(id);
    this.#seen.add(id);
    if (this.#seen.size > 10_000) this.#seen.delete(this.#seen.values().next().value as string);
  }

  /** Sends `validate` (`POST /api/v1/invoices/{id}/validate`): draft → Validated. */
  validate(id: string, opts: TransitionOptions = {}): APIPromise<Invoice> {
    return this.#transitionOnce(id, 'validate', opts);
  }

  /** Sends `sign` (`POST /api/v1/invoices/{id}/sign`): Validated → Signed, with the business's key. */
  sign(id: string, opts: TransitionOptions = {}): APIPromise<Invoice> {
    return this.#transitionOnce(id, 'sign', opts);
  }

  /** Sends `submit` (`POST …/{id}/submit`): Signed → Submitted; `RecoveryInProgressError` during automatic recovery unless `force`. */
  submit(id: string, opts: TransitionOptions = {}): APIPromise<Invoice> {
    return this.#transitionOnce(id, 'submit', opts);
  }

  /** Reads an invoice until `opts.until` holds (default: the authority answered, or `ERROR` with recovery over). */
  waitFor(id: string, opts: WaitOptions = {}): Promise<WaitResult> {
    return waitFor(this, checkedId(id), opts);
  }

  /** Follows many invoices at once until each settles: an async iterable of status changes (and `opts.onChange`). */
  watch(ids: Iterable<string>, opts: WatchOptions = {}): InvoiceWatch {
    return watchInvoices(this, ids, opts);
  }

  /** Files an invoice in one call: checks → create (idempotent) → reconcile totals → validate → sign → submit → wait (`opts.wait`). */
  createAndFile(input: InvoiceCreateParams, opts: CreateAndFileOptions = {}): Promise<FilingResult> {
    let plain: InvoiceCreateParams;
    try {
      // Checked, reconciled and sent from one plain copy: what is checked is what is sent.
      plain = serializeInvoice(input).sent as InvoiceCreateParams;
    } catch (err) {
      return Promise.reject(new FilingError({ invoiceId: undefined, step: 'check', cause: err, message: (err as Error).message, hint: (err as InvalidInputError).hint }));
    }
    return this.#checked([plain], opts, (o) => createAndFile(this, plain, o));
  }

  /** Performs only what is left of the filing (never a re-submit during automatic recovery), then waits with `opts.wait`. */
  resumeFiling(id: string, opts: ResumeFilingOptions = {}): Promise<FilingResult> {
    return resumeFiling(this, checkedId(id), this._withClientRetries(opts));
  }

  /** Files many invoices with `createAndFile`, `opts.concurrency` at a time: one result per input, in order. */
  fileMany(inputs: readonly InvoiceCreateParams[], opts: FileManyOptions = {}): Promise<FileManyResult[]> {
    const iterable = typeof inputs === 'object' && inputs !== null && typeof (inputs as Iterable<unknown>)[Symbol.iterator] === 'function';
    if (!iterable) return Promise.reject(new InvalidInputError({ message: 'fileMany: inputs must be an array of invoices; nothing was sent.' }));
    // Each input is sent as its plain copy; one that cannot be serialized goes as it is and fails alone (its result says why).
    const invalid = new Map<number, unknown>();
    const plain = Array.from(inputs, (input, index) => {
      try {
        return serializeInvoice(input).sent as InvoiceCreateParams;
      } catch (err) {
        invalid.set(index, err);
        return input;
      }
    });
    return this.#checked(plain, opts, (o) => fileMany(this, plain, o, { invalid }));
  }

  /** Runs the filing with the client's retries and, unless `skipChecks`, the service's code lists where the checks need them. */
  #checked<T extends Pick<FileManyOptions, 'skipChecks' | 'checkOptions' | 'maxRetries'>, R>(
    plain: readonly unknown[],
    opts: T,
    run: (opts: T) => Promise<R>,
  ): Promise<R> {
    const given = opts.checkOptions;
    if (opts.skipChecks === true || (given?.hsCodes !== undefined && given.isicCodes !== undefined)) {
      return run(this._withClientRetries(opts));
    }
    const reports = plain.map((input) => checkInvoice(input, given));
    return this.#withServiceCodes(reports, given).then((checkOptions) => run(this._withClientRetries({ ...opts, checkOptions })));
  }

  /** The check options with the service's own code lists where a report has a code the bundled tables lack. */
  async #withServiceCodes(reports: readonly CheckReport[], given: CheckOptions | undefined): Promise<CheckOptions | undefined> {
    let hs = false;
    let isic = false;
    for (const { errors, warnings } of reports) {
      // An invoice refused for something else is refused whatever the lists say: nothing to ask.
      if (errors.some((i) => !LIST_ISSUES.has(i.code))) continue;
      for (const i of [...errors, ...warnings]) {
        if (i.code === 'ISIC_CODE_UNKNOWN') isic = true;
        else if (LIST_ISSUES.has(i.code)) hs = true;
      }
    }
    hs &&= given?.hsCodes === undefined;
    isic &&= given?.isicCodes === undefined;
    const [hsCodes, isicCodes] = await Promise.all([hs ? this.#serviceList('hs') : undefined, isic ? this.#serviceList('isic') : undefined]);
    if (hsCodes === undefined && isicCodes === undefined) return given;
    return { ...given, ...(hsCodes && { hsCodes }), ...(isicCodes && { isicCodes }) };
  }

  #serviceList(kind: 'hs' | 'isic'): Promise<ReadonlySet<string> | undefined> {
    return (this.#serviceLists[kind] ??= (kind === 'hs' ? this.#codes.hsCodes() : this.#codes.serviceCodes()).then((entries) => {
      // An empty list is a body the SDK could not read, not a service that accepts no code.
      if (entries.length > 0) return new Set(entries.map((c) => c.code));
      throw new Error('the list is empty');
    }).catch((err: unknown) => {
      delete this.#serviceLists[kind];
      this._ctx.logger.warn(
        `The service's ${kind === 'hs' ? 'HS' : 'service'} code list could not be read (${err instanceof Error ? err.message : String(err)}); codes outside the bundled tables are only warned about.`,
      );
      return undefined;
    }));
  }

  #transitionOnce(id: string, step: FilingTransition, opts: TransitionOptions): APIPromise<Invoice> {
    return new APIPromise(async (record) => {
      // The filing layer reads and sends through this view, so each response it reads is recorded.
      const api: FilingInvoicesApi = {
        create: (input, o) => this.create(input, o),
        retrieve: (i, o) => this.#retrieve(i, o ?? {}, record),
        _transition: (i, s, o) => this._transition(i, s, o, record),
        _logger: this._ctx.logger,
        _redactor: this._ctx.redactor,
      };
      return (await performTransition(api, checkedId(id), step, this._withClientRetries(opts))).invoice;
    });
  }

  /** The client's retry budget for the filing helpers, which retry themselves. @internal */
  protected _withClientRetries<T extends { maxRetries?: number | undefined }>(opts: T): T {
    return opts.maxRetries === undefined ? { ...opts, maxRetries: this._ctx.maxRetries } : opts;
  }

  /** Where the filing workflow reports a callback that threw. @internal */
  readonly _logger = this._ctx.logger;

  /** This client's redactor, for the filing workflow's errors. @internal */
  readonly _redactor = this._ctx.redactor;

  /** The client's `finalStatuses`. @internal */
  readonly _finalStatuses = this._ctx.finalStatuses;

  /** @internal */
  async _transition(id: string, step: FilingTransition, opts: MutationRequestOptions = {}, record?: ResponseRecorder): Promise<Invoice> {
    checkedId(id);
    const { transport, fieldMap, logger } = this._ctx;
    const response = await transport.send({ method: 'POST', path: ROUTES.transition(id, step), options: opts, noRetry: true, record });
    const envelope = transport.tryUnwrap(response);
    if (envelope !== undefined && hasReadableStatus(envelope.data, fieldMap)) {
      const read = readInvoiceRecord(envelope.data, { fieldMap, observedAt: envelope.timestamp, fallbackId: id });
      if (read.ok && read.invoice.id === id) return read.invoice;
    }
    logger.debug(`${step} answered ${response.status} without a readable invoice; reading invoice ${id}.`);
    try {
      return await this.#retrieve(id, { signal: opts.signal, timeout: opts.timeout, maxRetries: opts.maxRetries, headers: opts.headers }, record);
    } catch (err) {
      if (isErrorKind(err, 'APIUserAbortError')) throw err;
      throw invalidResponse(response, {
        message: `${step} of invoice ${id} answered ${response.status} without the invoice, and reading it back failed: ${err instanceof Error ? err.message : String(err)}`,
        cause: err,
        hint: `The ${step} was accepted. Read invoice ${id} (retrieve) before sending anything else; resumeFiling() does that.`,
      });
    }
  }
}

function checkedId(id: unknown): string {
  assertResourceId(id, 'An invoice id');
  return id;
}

/** Reads send no idempotency key (it is for calls that change something). */
function withoutIdempotency(opts: RequestOptions): RequestOptions {
  const { signal, timeout, maxRetries, headers, query } = opts;
  return { signal, timeout, maxRetries, headers, query };
}

/** The service's classification 400 names no line; the SDK has the lines it sent, so the hint can name them. */
function withSentLinesHint(err: unknown, input: unknown): unknown {
  if (!isBadRequestError(err)) return err;
  const hint = sentLinesClassificationHint(err.message, (input as { lines?: unknown }).lines);
  if (hint === undefined) return err;
  const { message, status, code, body, requestId, method, path, cause } = err;
  const rebuilt = new BadRequestError({ message, status, code, body, requestId, method, path, hint, cause });
  if (err.stack !== undefined) rebuilt.stack = err.stack;
  return rebuilt;
}

// Texts of a framework's "no such route" answer (Express, NestJS, Fastify, …).
const ROUTE_MISSING = /cannot get|route .*not found|no route|not found: get/i;

// Issues the service's code lists may decide otherwise than the bundled tables.
const LIST_ISSUES: ReadonlySet<string> = new Set(['HSN_CODE_UNKNOWN', 'HSN_CODE_PADDED_ISIC', 'HSN_CODE_LOOKS_PADDED', 'ISIC_CODE_UNKNOWN']);

const AMOUNT_FIELDS: ReadonlySet<string> = new Set(['quantity', 'unitPrice', 'taxRate', 'discountRate']);

/** The request body of `create`, built once: the JSON text to send, and `JSON.parse` of it (plain data) for the checks. */
function serializeInvoice(input: unknown): { bodyText: string; sent: unknown } {
  // Each object's path, set when JSON.stringify reaches it; `this` in the replacer is the holder.
  const paths = new Map<object, (string | number)[]>();
  // Marks a decimal string to be written out as a number; unguessable, so no other string matches.
  let mark: string | undefined;
  const totals: Record<string, unknown> = {};
  let bodyText: string | undefined;
  try {
    bodyText = JSON.stringify(input, function (this: unknown, key: string, value: unknown): unknown {
      const holder = this as object;
      const parent = paths.get(holder);
      const path = parent === undefined ? [] : [...parent, Array.isArray(holder) ? Number(key) : key];
      if (path.length === 1 && Object.hasOwn(INPUT_TOTAL_FIELDS, key) && value !== undefined) {
        // As JSON would carry it, for the checks (undefined when it cannot be sent).
        try {
          totals[key] = typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
        } catch {
          totals[key] = undefined;
        }
        return undefined;
      }
      if (path.length === 3 && path[0] === 'lines' && typeof path[1] === 'number') {
        if (LINE_TOTAL_FIELDS.has(key)) return undefined;
        if (typeof value === 'string' && AMOUNT_FIELDS.has(key) && isDecimalText(value)) return (mark ??= `${uuidv4()}:`) + value;
      }
      const kind = notJsonData(value);
      if (kind !== undefined) throw notSendable(path, `is ${kind}`);
      if (path.length > MAX_INPUT_DEPTH) throw notSendable(path, `is nested more than ${MAX_INPUT_DEPTH} levels deep`);
      if (typeof value === 'object' && value !== null) {
        const seenAt = paths.get(value);
        if (seenAt !== undefined && seenAt.every((part, i) => path[i] === part)) {
          throw notSendable(path, `refers back to ${where(seenAt)}: the input is cyclic`);
        }
        paths.set(value, path);
      }
      return value;
    });
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    throw new InvalidInputError({
      message: `The invoice could not be read to be sent: ${err instanceof Error ? err.message : String(err)}. Nothing was sent.`,
      hint: 'Pass plain data, not an object whose getters or proxy traps throw.',
    });
  }
  if (bodyText === undefined) {
    throw new InvalidInputError({ message: `The invoice must be a JSON object, got ${typeof input}. Nothing was sent.` });
  }
  let sent: unknown;
  if (mark === undefined) sent = JSON.parse(bodyText);
  else {
    const m = mark;
    sent = JSON.parse(bodyText, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(m) ? value.slice(m.length) : value));
    bodyText = bodyText.replace(new RegExp(`"${m}(-?\\d+(?:\\.\\d+)?)"`, 'g'), '$1');
  }
  if (Object.keys(totals).length > 0) sent = { ...(sent as object), ...totals };
  return { bodyText, sent };
}

/** Thrown from the replacer for what JSON cannot carry; passed on as it is. */
function notSendable(path: (string | number)[], what: string): InvalidInputError {
  return new InvalidInputError({
    message: `The invoice cannot be sent as JSON: ${where(path)} ${what}. Nothing was sent.`,
    path,
    hint: 'Pass plain data (objects, arrays, strings, numbers, booleans, null), for example the result of JSON.parse.',
  });
}

function where(path: readonly (string | number)[]): string {
  return path.length === 0 ? 'the invoice' : formatIssuePath(path);
}

/** The report on what would be sent, explained by the caller's object where it says more. */
function explainNotSent(report: CheckReport, input: unknown, opts: CheckOptions | undefined): CheckReport {
  let asSent: CheckReport;
  try {
    asSent = checkInvoiceAsSent(input, opts);
  } catch {
    return report;
  }
  const better = new Map(asSent.errors.map((issue) => [`${issue.code} ${formatIssuePath(issue.path)}`, issue]));
  const errors = report.errors.map((issue) => better.get(`${issue.code} ${formatIssuePath(issue.path)}`) ?? issue);
  return { ...report, errors };
}
