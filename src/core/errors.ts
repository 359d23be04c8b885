// One root, one factory (APIError.generate); guards read the const `name`, so they work across realms and builds.
import type { CheckReport, TotalsDifference } from '../check/index.js';
import type { Invoice } from '../model/invoice.js';
import { BUSINESS_NOT_FOUND, hintFor, IDEMPOTENCY, requestIdOf, statusText, summarizeBody } from './error-hints.js';
import { defineInspect, Redactor } from './redact.js';
import { parseRetryAfter } from './retry-timing.js';

// Each name's parent: the guards walk it by `name`, never `instanceof`.
const PARENT = {
  InvoicingError: undefined,
  APIError: 'InvoicingError',
  BadRequestError: 'APIError', AuthenticationError: 'APIError', PermissionDeniedError: 'APIError', NotFoundError: 'APIError',
  BusinessNotFoundError: 'NotFoundError',
  ConflictError: 'APIError',
  IdempotencyConflictError: 'ConflictError', InvalidTransitionError: 'ConflictError',
  RateLimitError: 'APIError', InternalServerError: 'APIError', InvalidResponseError: 'APIError', ResponseTooLargeError: 'APIError',
  APIConnectionError: 'APIError',
  APIConnectionTimeoutError: 'APIConnectionError',
  APIUserAbortError: 'APIError',
  InvalidInputError: 'InvoicingError', InvoiceCheckError: 'InvoicingError', TotalsMismatchError: 'InvoicingError',
  FilingError: 'InvoicingError', WaitTimeoutError: 'InvoicingError', RecoveryInProgressError: 'InvoicingError',
  NotSubmittedError: 'InvoicingError',
} as const;

/** The `name` of every error class the SDK defines. @example const name: InvoicingErrorName = 'RateLimitError'; */
export type InvoicingErrorName = keyof typeof PARENT;

/** Every error name, for tests that must cover the whole family. */
export const ERROR_NAMES = /* @__PURE__ */ Object.keys(PARENT) as InvoicingErrorName[];

/** True when `value`'s `name` is `name` or a descendant of it in the family. */
export function isErrorKind(value: unknown, name: InvoicingErrorName): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let current: unknown = (value as { name?: unknown }).name;
  while (typeof current === 'string') {
    if (current === name) return true;
    current = Object.hasOwn(PARENT, current) ? PARENT[current as InvoicingErrorName] : undefined;
  }
  return false;
}

/** Options every SDK error accepts. @example throw new InvoicingError('Nothing to do', { hint: 'Pass at least one invoice.' }); */
export interface InvoicingErrorOptions {
  /** What to do about it, where the service document tells the cause. */ hint?: string | undefined;
  /** The underlying error: an SDK error as it is, anything else as a scrubbed copy. */ cause?: unknown;
  /** @internal The building client's redactor (kept off the error object). */ redactor?: Redactor | undefined;
}

// Which redactor scrubbed each error, for what is rendered later.
const redactors = new WeakMap<object, Redactor>();
const NO_SECRETS = new Redactor();
// A message quotes a few KB of what the service said; the whole body stays on `body`.
const MAX_MESSAGE = 4_000;
// Shown elsewhere, or whole records (summarised by the class where useful).
const NOT_IN_JSON = new Set(['name', 'hint', 'invoice', 'lastInvoice', 'report', 'expected', 'actual']);

const redactorOf = (error: object): Redactor => redactors.get(error) ?? NO_SECRETS;

/**
 * The root of every error the SDK throws; secrets never appear in its message or any rendering of it.
 * @example
 * ```ts
 * try { await client.invoices.retrieve('inv_123'); } catch (err) { if (isInvoicingError(err)) console.error(err.hint); }
 * ```
 */
export class InvoicingError extends Error {
  /** Read by the guards. */ override readonly name: InvoicingErrorName = 'InvoicingError';
  /** What to do about it, where the service document tells the cause. */ readonly hint: string | undefined;

  constructor(message: string, options: InvoicingErrorOptions = {}) {
    const redactor = options.redactor ?? NO_SECRETS;
    const text = redactor.redact(String(message).slice(0, MAX_MESSAGE + 1_000));
    const cause = options.cause === undefined ? undefined : { cause: scrubbedCause(options.cause, redactor) };
    super(text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text, cause);
    if (options.redactor !== undefined) redactors.set(this, options.redactor);
    this.hint = options.hint === undefined ? undefined : redactor.redact(options.hint);
    installInspect();
  }

  /** The fields `toJSON()` and `util.inspect()` show besides name, message, hint and cause. */
  protected details(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this).filter(([key, value]) => value !== undefined && !NOT_IN_JSON.has(key)));
  }

  /** A plain, secret-free summary: `name`, `message`, `hint`, the subclass's fields and the cause's name and message. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    if (this.hint !== undefined) out.hint = this.hint;
    Object.assign(out, this.details());
    const cause = this.cause as { name?: unknown; message?: unknown } | undefined;
    if (typeof cause === 'object' && cause !== null && 'message' in cause) {
      out.cause = { name: String(cause.name ?? 'Error'), message: String(cause.message ?? '') };
    } else if (cause !== undefined) out.cause = String(cause);
    return redactorOf(this).redactDeep(out);
  }
}

// Outside the class body: a bundler renames a class that refers to itself. An SDK error is kept as it is.
const scrubbedCause = (cause: unknown, redactor: Redactor): unknown => (cause instanceof InvoicingError ? cause : redactor.redactCause(cause));
const installInspect = (): void => defineInspect(InvoicingError.prototype, inspectError);

function inspectError(this: InvoicingError, _depth: number, options: object, inspect?: (value: unknown, options?: object) => string): string {
  const stack = redactorOf(this).redact(this.stack ?? `${this.name}: ${this.message}`);
  const { name: _name, message: _message, ...fields } = this.toJSON();
  if (Object.keys(fields).length === 0) return stack;
  return `${stack} ${typeof inspect === 'function' ? inspect(fields, options) : JSON.stringify(fields)}`;
}
/** True for a {@link InvoicingError} (or a subclass), by `name`. @example if (isInvoicingError(err)) console.error(err.hint); */
export const isInvoicingError = (value: unknown): value is InvoicingError => isErrorKind(value, 'InvoicingError');

/** What an {@link APIError} is built from: its fields, all optional but `message`. @example new APIError({ message: 'Gone', status: 410, method: 'GET', path: '/api/v1/invoices/x' }); */
export type APIErrorInit = Pick<APIError, 'message'> &
  Partial<Pick<APIError, 'status' | 'code' | 'body' | 'requestId' | 'retryAfter' | 'method' | 'path'>> &
  InvoicingErrorOptions;

/** An error response, as {@link APIError.generate} reads it. @example APIError.generate({ status: 404, headers: new Headers(), body: {}, method: 'GET', path: '/api/v1/invoices/x' }); */
export interface ErrorResponse {
  /** HTTP status. */ status: number;
  /** Response headers (`x-request-id`, `Retry-After`). */ headers: Headers | undefined;
  /** The body: parsed JSON, or the text when it was not JSON, or `undefined` when empty. */ body: unknown;
  /** Request method. */ method: string;
  /** Request path, e.g. `/api/v1/invoices`. */ path: string;
  /** @internal The client's redactor. */ redactor?: Redactor | undefined;
}

/**
 * An HTTP failure: an error status, a body that is not the documented envelope, or no answer at all.
 * @example
 * ```ts
 * try { await client.invoices.create(input); } catch (err) { if (isAPIError(err)) console.error(err.status, err.requestId); }
 * ```
 */
export class APIError extends InvoicingError {
  /** Read by the guards. */ override readonly name: InvoicingErrorName = 'APIError';
  /** HTTP status; `undefined` when no response arrived. */ declare readonly status: number | undefined;
  /** A machine-readable code, where the body carries one. */ declare readonly code: string | undefined;
  /** Request method (`GET`, `POST`, …). */ declare readonly method: string | undefined;
  /** Request path, e.g. `/api/v1/invoices/inv_123/sign`. */ declare readonly path: string | undefined;
  /** The `x-request-id` response header. */ declare readonly requestId: string | undefined;
  /** Milliseconds the service asked to wait (`Retry-After`), when it said. */ declare readonly retryAfter: number | undefined;
  /** The response body (secrets scrubbed): parsed JSON, or the text. */ declare readonly body: unknown;

  constructor(init: APIErrorInit) {
    super(init.message, init);
    const redactor = redactorOf(this);
    const scrub = (text: string | undefined) => (text === undefined ? undefined : redactor.redact(text));
    const { status, method, retryAfter } = init;
    const [code, path, requestId] = [scrub(init.code), scrub(init.path), scrub(init.requestId)];
    Object.assign(this, { status, code, method, path, requestId, retryAfter, body: redactor.redactDeep(init.body) });
  }

  /** The one factory from an error response: the class by status (and, for 404 and 409, the service's words), with its hint. */
  static generate(response: ErrorResponse): APIError {
    return generateAPIError(response);
  }
}

export function generateAPIError({ status, headers, body, method, path, redactor }: ErrorResponse): APIError {
  const said = summarizeBody(body);
  const Class =
    status === 400 || status === 422 ? BadRequestError
    : status === 401 ? AuthenticationError
    : status === 403 ? PermissionDeniedError
    : status === 404 ? (BUSINESS_NOT_FOUND.test(said.message ?? '') ? BusinessNotFoundError : NotFoundError)
    : status === 409 ? (IDEMPOTENCY.test(said.message ?? '') ? IdempotencyConflictError : ConflictError)
    : status === 429 ? RateLimitError
    : status >= 500 ? InternalServerError
    : APIError;
  return new Class({
    message: said.message ?? `${status} ${statusText(status) ?? 'HTTP error'}`,
    status, code: said.code, body, method, path, redactor,
    requestId: requestIdOf(headers),
    retryAfter: parseRetryAfter(headers?.get('retry-after')),
    hint: hintFor({ status, message: said.message, method, path }),
  });
}
/** True for a {@link APIError} (or a subclass), by `name`. @example if (isAPIError(err) && err.status === 404) console.log('no such invoice'); */
export const isAPIError = (value: unknown): value is APIError => isErrorKind(value, 'APIError');

/** 400 (or 422): the service refused the request as sent. @example if (isBadRequestError(err)) console.error(err.message, err.hint); */
export class BadRequestError extends APIError {
  /** Read by the guards. */ override readonly name = 'BadRequestError' as const;
}
/** True for a {@link BadRequestError} (or a subclass), by `name`. @example isBadRequestError(new Error('x')); // false */
export const isBadRequestError = (value: unknown): value is BadRequestError => isErrorKind(value, 'BadRequestError');

/** 401: the API key (or, on key routes, the session token) is missing, wrong or revoked. @example if (isAuthenticationError(err)) console.error(err.hint); */
export class AuthenticationError extends APIError {
  /** Read by the guards. */ override readonly name = 'AuthenticationError' as const;
}
/** True for a {@link AuthenticationError} (or a subclass), by `name`. @example if (isAuthenticationError(err)) console.error(err.hint); */
export const isAuthenticationError = (value: unknown): value is AuthenticationError => isErrorKind(value, 'AuthenticationError');

/** 403: the key lacks the scope the call needs (the hint names it). @example if (isPermissionDeniedError(err)) console.error(err.hint); */
export class PermissionDeniedError extends APIError {
  /** Read by the guards. */ override readonly name = 'PermissionDeniedError' as const;
}
/** True for a {@link PermissionDeniedError} (or a subclass), by `name`. @example if (isPermissionDeniedError(err)) console.error(err.hint); */
export const isPermissionDeniedError = (value: unknown): value is PermissionDeniedError => isErrorKind(value, 'PermissionDeniedError');

/** 404: no such resource. @example if (isNotFoundError(err)) console.log('no such invoice'); */
export class NotFoundError extends APIError {
  /** Read by the guards. */ override readonly name: InvoicingErrorName = 'NotFoundError';
}
/** True for a {@link NotFoundError} (or a subclass), by `name`. @example if (isNotFoundError(err)) console.log('no such invoice'); */
export const isNotFoundError = (value: unknown): value is NotFoundError => isErrorKind(value, 'NotFoundError');

/** 404 `Business not found` on create: the business is not the key's user's, or the key is a BUSINESS key (use a USER key). @example if (isBusinessNotFoundError(err)) console.error(err.hint); */
export class BusinessNotFoundError extends NotFoundError {
  /** Read by the guards. */ override readonly name = 'BusinessNotFoundError' as const;
}
/** True for a {@link BusinessNotFoundError} (or a subclass), by `name`. @example if (isBusinessNotFoundError(err)) console.error(err.hint); */
export const isBusinessNotFoundError = (value: unknown): value is BusinessNotFoundError => isErrorKind(value, 'BusinessNotFoundError');

/** 409: the request conflicts with the resource's state. @example if (isConflictError(err)) console.error(err.message); */
export class ConflictError extends APIError {
  /** Read by the guards. */ override readonly name: InvoicingErrorName = 'ConflictError';
}
/** True for a {@link ConflictError} (or a subclass), by `name`. @example if (isConflictError(err)) console.error(err.message); */
export const isConflictError = (value: unknown): value is ConflictError => isErrorKind(value, 'ConflictError');

/** 409: this idempotency key was used with a different body. @example if (isIdempotencyConflictError(err)) console.error(err.hint); */
export class IdempotencyConflictError extends ConflictError {
  /** Read by the guards. */ override readonly name = 'IdempotencyConflictError' as const;
}
/** True for a {@link IdempotencyConflictError} (or a subclass), by `name`. @example if (isIdempotencyConflictError(err)) console.error(err.hint); */
export const isIdempotencyConflictError = (value: unknown): value is IdempotencyConflictError => isErrorKind(value, 'IdempotencyConflictError');

/** What an {@link InvalidTransitionError} is built from. @example const init: InvalidTransitionErrorInit = { invoiceId: 'inv_1', transition: 'sign', currentStatus: 'DRAFT' }; */
export type InvalidTransitionErrorInit = Pick<InvalidTransitionError, 'invoiceId' | 'transition' | 'currentStatus'> &
  Partial<Pick<InvalidTransitionError, 'rawStatus' | 'cause'>>;

const REQUIRED_FROM = { validate: 'DRAFT', sign: 'VALIDATED', submit: 'SIGNED (or ERROR once automatic recovery is over)' } as const;
const NEXT_STEP: Record<string, string> = { DRAFT: 'validate', VALIDATED: 'sign', SIGNED: 'submit' };

function transitionHint(invoiceId: string, currentStatus: string, shown: string): string {
  if (currentStatus === 'ERROR') {
    return "The invoice is in Error. While the service's automatic recovery is in progress (a retry every 10 minutes, " +
      `up to 3, within 24 hours) another submit does not speed it up: follow it with client.invoices.waitFor('${invoiceId}'). ` +
      `Once recovery is over, client.invoices.resumeFiling('${invoiceId}') re-submits it once.`;
  }
  const next = NEXT_STEP[currentStatus];
  return next === undefined
    ? `The invoice is ${shown}. client.invoices.resumeFiling('${invoiceId}') performs only what is left, if anything.`
    : `The next step for a ${shown} invoice is ${next}; client.invoices.resumeFiling('${invoiceId}') performs only the steps left.`;
}

/** `validate`, `sign` or `submit` was refused: the invoice is not in a state that accepts it. @example if (isInvalidTransitionError(err)) console.error(err.currentStatus, err.hint); */
export class InvalidTransitionError extends ConflictError {
  /** Read by the guards. */ override readonly name = 'InvalidTransitionError' as const;
  /** The invoice the transition was sent for. */ declare readonly invoiceId: string;
  /** The transition that was refused. */ declare readonly transition: 'validate' | 'sign' | 'submit';
  /** The invoice's canonical status when it was refused (read back from the service). */ declare readonly currentStatus: string;
  /** The status as the service spelled it. */ declare readonly rawStatus: string | undefined;

  constructor(init: InvalidTransitionErrorInit) {
    const { invoiceId, transition, currentStatus, rawStatus, cause } = init;
    const { message, status, code, body, requestId, method, path } = (cause ?? {}) as Partial<APIError>;
    const shown = rawStatus ?? currentStatus;
    const said = typeof message === 'string' && message !== '' ? ` (service: ${message})` : '';
    super({
      message: `Cannot ${transition} invoice ${invoiceId}: it is ${shown}; ${transition} needs ${REQUIRED_FROM[transition]}${said}`,
      status: typeof status === 'number' ? status : undefined, code, body, requestId, method, path, cause,
      hint: transitionHint(invoiceId, currentStatus, shown),
    });
    Object.assign(this, { invoiceId, transition, currentStatus, rawStatus });
  }
}
/** True for a {@link InvalidTransitionError} (or a subclass), by `name`. @example if (isInvalidTransitionError(err)) console.error(err.currentStatus); */
export const isInvalidTransitionError = (value: unknown): value is InvalidTransitionError => isErrorKind(value, 'InvalidTransitionError');

/** 429 after the SDK's retries; `retryAfter` is the wait the service asked for. @example if (isRateLimitError(err)) console.log(err.retryAfter); */
export class RateLimitError extends APIError {
  /** Read by the guards. */ override readonly name = 'RateLimitError' as const;
}
/** True for a {@link RateLimitError} (or a subclass), by `name`. @example if (isRateLimitError(err)) console.log(err.retryAfter); */
export const isRateLimitError = (value: unknown): value is RateLimitError => isErrorKind(value, 'RateLimitError');

/** 5xx: the service failed (after the SDK's retries). @example if (isInternalServerError(err)) console.error(err.requestId); */
export class InternalServerError extends APIError {
  /** Read by the guards. */ override readonly name = 'InternalServerError' as const;
}
/** True for a {@link InternalServerError} (or a subclass), by `name`. @example if (isInternalServerError(err)) console.error(err.requestId); */
export const isInternalServerError = (value: unknown): value is InternalServerError => isErrorKind(value, 'InternalServerError');

/** A 2xx whose body is not what the document shows (the field is named by its path in the body). @example if (isInvalidResponseError(err)) console.error(err.message, err.body); */
export class InvalidResponseError extends APIError {
  /** Read by the guards. */ override readonly name = 'InvalidResponseError' as const;
}
/** True for a {@link InvalidResponseError} (or a subclass), by `name`. @example if (isInvalidResponseError(err)) console.error(err.message); */
export const isInvalidResponseError = (value: unknown): value is InvalidResponseError => isErrorKind(value, 'InvalidResponseError');

/** What a {@link ResponseTooLargeError} is built from. @example new ResponseTooLargeError({ limit: 10_000_000, status: 200, method: 'GET', path: '/api/v1/invoices' }); */
export type ResponseTooLargeErrorInit = Partial<APIErrorInit> & Pick<ResponseTooLargeError, 'limit'>;

/** The body was larger than `maxResponseBytes`; reading stopped. @example if (isResponseTooLargeError(err)) console.error(`over ${err.limit} bytes`); */
export class ResponseTooLargeError extends APIError {
  /** Read by the guards. */ override readonly name = 'ResponseTooLargeError' as const;
  /** The largest body the SDK reads, in bytes. */ readonly limit: number;

  constructor(init: ResponseTooLargeErrorInit) {
    super({ ...init, message: init.message ?? `Response body larger than ${init.limit} bytes; it was not read.` });
    this.limit = init.limit;
  }
}
/** True for a {@link ResponseTooLargeError} (or a subclass), by `name`. @example if (isResponseTooLargeError(err)) console.error(err.limit); */
export const isResponseTooLargeError = (value: unknown): value is ResponseTooLargeError => isErrorKind(value, 'ResponseTooLargeError');

/** What an {@link APIConnectionError} is built from. @example new APIConnectionError({ message: 'Connection error', method: 'GET', path: '/api/v1/invoices' }); */
export type APIConnectionErrorInit = Partial<Pick<APIErrorInit, 'message' | 'method' | 'path'>> & InvoicingErrorOptions;

/** No response arrived (refused, reset, DNS), after the SDK's retries. @example if (isAPIConnectionError(err)) console.error(err.message, err.cause); */
export class APIConnectionError extends APIError {
  /** Read by the guards. */ override readonly name: InvoicingErrorName = 'APIConnectionError';

  constructor(init: APIConnectionErrorInit = {}) {
    super({ ...init, message: init.message ?? 'Connection error: no response from the service.' });
  }
}
/** True for a {@link APIConnectionError} (or a subclass), by `name`. @example if (isAPIConnectionError(err)) console.error(err.message); */
export const isAPIConnectionError = (value: unknown): value is APIConnectionError => isErrorKind(value, 'APIConnectionError');

/** No complete response within `timeout` (per attempt), after the SDK's retries. @example if (isAPIConnectionTimeoutError(err)) console.error(err.hint); */
export class APIConnectionTimeoutError extends APIConnectionError {
  /** Read by the guards. */ override readonly name = 'APIConnectionTimeoutError' as const;

  constructor(init: APIConnectionErrorInit = {}) {
    super({ ...init, message: init.message ?? 'Request timed out.' });
  }
}
/** True for a {@link APIConnectionTimeoutError} (or a subclass), by `name`. @example if (isAPIConnectionTimeoutError(err)) console.error(err.hint); */
export const isAPIConnectionTimeoutError = (value: unknown): value is APIConnectionTimeoutError => isErrorKind(value, 'APIConnectionTimeoutError');

/** The caller's `signal` aborted the call. @example if (isAPIUserAbortError(err)) console.log('cancelled'); */
export class APIUserAbortError extends APIError {
  /** Read by the guards. */ override readonly name = 'APIUserAbortError' as const;

  constructor(init: Omit<APIConnectionErrorInit, 'message' | 'hint'> = {}) {
    super({ ...init, message: 'Request was aborted.' });
  }
}
/** True for a {@link APIUserAbortError} (or a subclass), by `name`. @example if (isAPIUserAbortError(err)) console.log('cancelled'); */
export const isAPIUserAbortError = (value: unknown): value is APIUserAbortError => isErrorKind(value, 'APIUserAbortError');

/** What an {@link InvalidInputError} is built from. @example const init: InvalidInputErrorInit = { message: 'buyer refers to itself', path: ['buyer', 'parent'] }; */
export type InvalidInputErrorInit = Pick<InvalidInputError, 'message'> & Partial<Pick<InvalidInputError, 'path' | 'hint'>>;

/** Input that cannot be an invoice at all (cyclic, nested too deep, not plain data); nothing was sent. @example if (isInvalidInputError(err)) console.error(err.path?.join('.'), err.message); */
export class InvalidInputError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'InvalidInputError' as const;
  /** Where in the input, e.g. `['lines', 2, 'meta']`, when known. */ readonly path: (string | number)[] | undefined;

  constructor(init: InvalidInputErrorInit) {
    super(init.message, { hint: init.hint });
    this.path = init.path === undefined ? undefined : [...init.path];
  }
}
/** True for a {@link InvalidInputError} (or a subclass), by `name`. @example isInvalidInputError(new Error('x')); // false */
export const isInvalidInputError = (value: unknown): value is InvalidInputError => isErrorKind(value, 'InvalidInputError');

// Enough to act on from a log line; the full list is in `report`.
const SHOWN_ISSUES = 3;

/** The local checks failed in `invoices.create()`: nothing was sent; `report` lists every problem. @example if (isInvoiceCheckError(err)) console.table(err.report.errors); */
export class InvoiceCheckError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'InvoiceCheckError' as const;
  /** The full result of `checkInvoice()`: every error and warning, and the totals. */ readonly report: CheckReport;

  constructor(report: CheckReport) {
    const { errors } = report;
    const shown = errors.slice(0, SHOWN_ISSUES).map((issue) => `${issue.message} [${issue.code}]`);
    const more = errors.length > SHOWN_ISSUES ? `; and ${errors.length - SHOWN_ISSUES} more` : '';
    const count = `${errors.length} error${errors.length === 1 ? '' : 's'}`;
    super(`Invoice failed the local checks (${count}); nothing was sent. ${shown.join('; ')}${more}`, {
      hint:
        'Fix the issues listed in err.report.errors and call create() again. Pass ' +
        '{ skipChecks: true } only if you are sure the service accepts the invoice as it is.',
    });
    this.report = report;
  }

  protected override details(): Record<string, unknown> {
    const { errors, warnings } = this.report;
    return { errors: errors.map((issue) => ({ code: issue.code, path: issue.path.join('.') })), warnings: warnings.length };
  }
}
/** True for a {@link InvoiceCheckError} (or a subclass), by `name`. @example isInvoiceCheckError(new Error('x')); // false */
export const isInvoiceCheckError = (value: unknown): value is InvoiceCheckError => isErrorKind(value, 'InvoiceCheckError');

/** Invoice totals as decimal strings; `undefined` where the service gave none. @example const t: TotalsFigures = { total: '107.50' }; */
export type TotalsFigures = Partial<Pick<Invoice, 'subtotal' | 'taxTotal' | 'total'>>;

/** What a {@link TotalsMismatchError} is built from. @example new TotalsMismatchError({ invoiceId: 'inv_1', expected: { total: '107.50' }, actual: { total: '110.00' }, differences: [] }); */
export type TotalsMismatchErrorInit = Pick<TotalsMismatchError, 'invoiceId' | 'expected' | 'actual' | 'differences'>;

/** The service's totals contradict the invoice's lines; filing stopped before validate. @example if (isTotalsMismatchError(err)) console.error(err.differences); */
export class TotalsMismatchError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'TotalsMismatchError' as const;
  /** The draft whose totals disagree (not validated, signed or submitted). */ declare readonly invoiceId: string;
  /** Totals computed from the lines. */ declare readonly expected: TotalsFigures;
  /** Totals the service returned. */ declare readonly actual: TotalsFigures;
  /** The figures that differ (as `compareTotals()` gives them). */ declare readonly differences: TotalsDifference[];

  constructor(init: TotalsMismatchErrorInit) {
    const { invoiceId, expected, actual, differences } = init;
    const listed = differences.map((d) => `${d.field} ${d.actual} (lines give ${d.expected})`).join(', ');
    super(`The service's totals for invoice ${invoiceId} contradict its lines: ${listed}. Nothing was filed.`, {
      hint:
        `Invoice ${invoiceId} is still a draft. The tax authority does not check the ` +
        'arithmetic, so do not file it: check the lines (quantity, unitPrice, discountRate, ' +
        'taxRate) and the figures the service returned, then create a corrected invoice.',
    });
    Object.assign(this, { invoiceId, expected, actual, differences });
  }
}
/** True for a {@link TotalsMismatchError} (or a subclass), by `name`. @example isTotalsMismatchError(new Error('x')); // false */
export const isTotalsMismatchError = (value: unknown): value is TotalsMismatchError => isErrorKind(value, 'TotalsMismatchError');

/** Where a filing stopped. @example const step: FilingStep = 'sign'; */
export type FilingStep = 'check' | 'create' | 'reconcile' | 'read' | 'validate' | 'sign' | 'submit' | 'wait';

// A class with subclasses, with exactly its own name, so that `name` narrows.
type Exactly<E extends InvoicingError, N extends InvoicingErrorName> = E & {
  /** Exactly this class (its subclasses are members of their own). */ readonly name: N;
};

/**
 * What stopped a workflow: always an SDK error, and `cause.name` narrows to the class.
 * @example
 * ```ts
 * declare const err: FilingError; if (err.cause.name === 'InvoiceCheckError') console.table(err.cause.report.errors);
 * ```
 */
export type FilingErrorCause =
  | Exactly<InvoicingError, 'InvoicingError'>
  | Exactly<APIError, 'APIError'>
  | BadRequestError | AuthenticationError | PermissionDeniedError
  | Exactly<NotFoundError, 'NotFoundError'> | BusinessNotFoundError
  | Exactly<ConflictError, 'ConflictError'> | IdempotencyConflictError | InvalidTransitionError
  | RateLimitError | InternalServerError | InvalidResponseError | ResponseTooLargeError
  | Exactly<APIConnectionError, 'APIConnectionError'> | APIConnectionTimeoutError | APIUserAbortError
  | InvalidInputError | InvoiceCheckError | TotalsMismatchError | WaitTimeoutError | RecoveryInProgressError;

/** What a {@link FilingError} is built from. @example new FilingError({ invoiceId: 'inv_1', step: 'sign', cause: new Error('socket hang up') }); */
export type FilingErrorInit = Pick<FilingError, 'invoiceId' | 'step'> &
  Partial<Pick<FilingError, 'message' | 'hint'>> & {
    /** What stopped it; anything but an SDK error is wrapped in an `InvoicingError`. */ cause: unknown;
  };

const resumeHint = (invoiceId: string | undefined): string =>
  invoiceId === undefined
    ? 'No invoice was created (or its id is not known). Call createAndFile() again with the same ' +
      'idempotencyKey: the service returns the invoice already created for that key instead of a second one.'
    : `Resume with client.invoices.resumeFiling('${invoiceId}'): it reads the invoice and performs ` +
      'only the steps left, so nothing is filed twice.';

/**
 * Every stop of `createAndFile()`, `resumeFiling()` and `fileMany()`: the invoice, the step, a typed `cause` and a hint.
 * @example
 * ```ts
 * try { await client.invoices.createAndFile(input); } catch (err) { if (isFilingError(err)) console.error(err.step, err.cause.name); }
 * ```
 */
export class FilingError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'FilingError' as const;
  /** What stopped the filing (see {@link FilingErrorCause}). */ declare readonly cause: FilingErrorCause;
  /** The invoice, once created; `undefined` when filing stopped before create succeeded. */ declare readonly invoiceId: string | undefined;
  /** Where it stopped. */ declare readonly step: FilingStep;

  constructor(init: FilingErrorInit) {
    const { invoiceId, step } = init;
    const why = init.cause instanceof Error ? init.cause.message : init.cause === undefined ? '' : String(init.cause);
    const cause = isInvoicingError(init.cause) ? init.cause : new InvoicingError(why || `Stopped at ${step}.`, { cause: init.cause });
    const subject = invoiceId === undefined ? 'Filing' : `Filing of invoice ${invoiceId}`;
    super(init.message ?? `${subject} stopped at ${step}${why ? `: ${why}` : '.'}`, { cause, hint: init.hint ?? resumeHint(invoiceId) });
    Object.assign(this, { invoiceId, step });
  }
}
/** True for a {@link FilingError}, by `name`. @example isFilingError(new Error('x')); // false */
export const isFilingError = (value: unknown): value is FilingError => isErrorKind(value, 'FilingError');

/** What a {@link WaitTimeoutError} is built from. @example new WaitTimeoutError({ invoiceId: 'inv_1', lastInvoice: undefined, timeoutMs: 60_000 }); */
export type WaitTimeoutErrorInit = Pick<WaitTimeoutError, 'invoiceId' | 'lastInvoice' | 'timeoutMs'>;

/** `waitFor()` ran out of time before the invoice reached the awaited status; nothing was changed. @example if (isWaitTimeoutError(err)) console.log('still', err.lastInvoice?.status); */
export class WaitTimeoutError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'WaitTimeoutError' as const;
  /** The invoice waited for. */ declare readonly invoiceId: string;
  /** The last read of it, if any read succeeded. */ declare readonly lastInvoice: Invoice | undefined;
  /** How long `waitFor` waited. */ declare readonly timeoutMs: number;

  constructor(init: WaitTimeoutErrorInit) {
    const { invoiceId, lastInvoice, timeoutMs } = init;
    const last = lastInvoice === undefined ? 'never read' : `still ${lastInvoice.status}`;
    super(`Invoice ${invoiceId} is ${last} after waiting ${timeoutMs} ms.`, {
      hint:
        'Nothing was changed. Call waitFor() again with a longer timeout, or read the invoice later ' +
        'with retrieve(): the tax authority answers asynchronously.',
    });
    Object.assign(this, { invoiceId, lastInvoice, timeoutMs });
  }

  protected override details(): Record<string, unknown> {
    const { invoiceId, lastInvoice, timeoutMs } = this;
    return { invoiceId, lastStatus: lastInvoice?.status, lastRawStatus: lastInvoice?.rawStatus, timeoutMs };
  }
}
/** True for a {@link WaitTimeoutError} (or a subclass), by `name`. @example isWaitTimeoutError(new Error('x')); // false */
export const isWaitTimeoutError = (value: unknown): value is WaitTimeoutError => isErrorKind(value, 'WaitTimeoutError');

/** What a {@link RecoveryInProgressError} is built from. @example const init: RecoveryInProgressErrorInit = { invoiceId: 'inv_1', attemptsLeft: 2 }; */
export type RecoveryInProgressErrorInit = Pick<RecoveryInProgressError, 'invoiceId'> &
  Partial<Pick<RecoveryInProgressError, 'nextAttemptAt' | 'attemptsLeft' | 'invoice' | 'hint'>>;

/** `submit` refused locally while the service's automatic recovery is in play; `{ force: true }` sends it anyway. @example if (isRecoveryInProgressError(err)) await client.invoices.waitFor(err.invoiceId); */
export class RecoveryInProgressError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'RecoveryInProgressError' as const;
  /** The invoice in Error whose automatic recovery is in play. */ declare readonly invoiceId: string;
  /** When the next automatic attempt is due (ISO 8601), when it can be told. */ declare readonly nextAttemptAt: string | undefined;
  /** How many automatic attempts are left, when it can be told. */ declare readonly attemptsLeft: number | undefined;
  /** The invoice as read, when there was a read. */ declare readonly invoice: Invoice | undefined;

  constructor(init: RecoveryInProgressErrorInit) {
    const { invoiceId, nextAttemptAt, attemptsLeft, invoice } = init;
    const due =
      nextAttemptAt === undefined
        ? 'the service retries every 10 minutes (when the next attempt is due is not known)'
        : `the next automatic attempt is due by ${nextAttemptAt}`;
    const left = attemptsLeft === undefined ? '' : ` (${attemptsLeft} automatic attempt${attemptsLeft === 1 ? '' : 's'} left)`;
    super(`Invoice ${invoiceId} is in automatic recovery: ${due}${left}. Submit was not sent; pass { force: true } to send it anyway.`, {
      hint:
        init.hint ??
        `Follow the recovery with client.invoices.waitFor('${invoiceId}'); a manual submit would not speed it up. ` +
          'Submit with { force: true } only if the recovery cannot succeed.',
    });
    Object.assign(this, { invoiceId, nextAttemptAt, attemptsLeft, invoice });
  }
}
/** True for a {@link RecoveryInProgressError} (or a subclass), by `name`. @example isRecoveryInProgressError(new Error('x')); // false */
export const isRecoveryInProgressError = (value: unknown): value is RecoveryInProgressError => isErrorKind(value, 'RecoveryInProgressError');

/**
 * `waitFor()` on an invoice only the caller moves on (`DRAFT`, `VALIDATED`, `SIGNED`); `nextStep` is the call to make.
 * @example
 * ```ts
 * try { await client.invoices.waitFor('inv_1'); } catch (err) { if (isNotSubmittedError(err)) console.log(err.nextStep); }
 * ```
 */
export class NotSubmittedError extends InvoicingError {
  /** Read by the guards. */ override readonly name = 'NotSubmittedError' as const;
  /** The invoice. */ declare readonly invoiceId: string;
  /** Its status as read (canonical). */ declare readonly status: string;
  /** The call that moves it on: `validate`, `sign` or `submit`. */ declare readonly nextStep: 'validate' | 'sign' | 'submit';
  /** The invoice as read. */ declare readonly invoice: Invoice;

  constructor(init: Pick<NotSubmittedError, 'invoice' | 'nextStep'>) {
    const { invoice, nextStep } = init;
    super(`Invoice ${invoice.id} is ${invoice.rawStatus ?? invoice.status}: only a call of yours moves it on (next: ${nextStep}), so waitFor does not wait.`, {
      hint: `Call client.invoices.${nextStep}('${invoice.id}'), or resumeFiling('${invoice.id}', { wait: true }) to perform every step left and wait for the answer.`,
    });
    Object.assign(this, { invoiceId: invoice.id, status: invoice.status, nextStep, invoice });
  }
}
/** True for a {@link NotSubmittedError}, by `name`. @example isNotSubmittedError(new Error('x')); // false */
export const isNotSubmittedError = (value: unknown): value is NotSubmittedError => isErrorKind(value, 'NotSubmittedError');

/** Scrubs `error` (own fields, cause chain) of `redactor`'s secrets in place and returns it. */
export function redactError<E>(error: E, redactor: Redactor, seen: WeakSet<object> = new WeakSet()): E {
  if (typeof error !== 'object' || error === null || seen.has(error)) return error;
  seen.add(error);
  redactors.set(error, redactor);
  for (const key of Object.getOwnPropertyNames(error)) {
    try {
      const desc = Object.getOwnPropertyDescriptor(error, key);
      const own = desc !== undefined && 'value' in desc;
      // V8's `stack` accessor is read and replaced by its scrubbed value.
      if (!own && key !== 'stack') continue;
      const value: unknown = own ? desc.value : (error as { stack?: unknown }).stack;
      const scrubbed =
        key !== 'cause' ? redactor.redactDeep(value)
        : value instanceof InvoicingError ? redactError(value, redactor, seen) : redactor.redactCause(value);
      if (scrubbed === value) continue;
      if (own) Object.defineProperty(error, key, { ...desc, value: scrubbed });
      else (error as Record<string, unknown>)[key] = scrubbed;
    } catch {
      // A frozen or exotic field stays as it is; its renderings are still scrubbed through toJSON().
    }
  }
  return error;
}

export function assertResourceId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new InvoicingError(`${what} must be a non-empty string; got ${JSON.stringify(id)}.`);
  }
  if (/^(?:\.|%2e){1,2}$/i.test(id)) {
    throw new InvoicingError(`${what} cannot be ${JSON.stringify(id)}: it is a path step, not an id.`);
  }
}
