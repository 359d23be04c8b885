/**
 * The sandbox's options and their defaults, resolved once at `createSandbox()` (one table, as in
 * the rest of the SDK). Each default is the behaviour of the service as its document describes
 * it; where the document says "not shown", the default is the sandbox's documented choice and the
 * option lets a test try the other readings.
 */
import { resolveScenario, type Scenario, type ScenarioRule } from './scenarios.js';
import { isLaterStatus } from './statuses.js';

/**
 * How stored invoices are spelled on the wire: `standard` (`id`, `status`, `totalAmount`, …) or
 * `alternate` (`_id`, `invoiceStatus`, `totals.total`, …); see docs/testing.md.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ recordStyle: 'alternate' });
 * ```
 */
export type RecordStyle = 'standard' | 'alternate';

export type { StatusSpelling } from './statuses.js';
import type { StatusSpelling } from './statuses.js';

/**
 * What validate, sign and submit answer with (the document does not show their bodies): the updated
 * invoice, `data: null`, or a bare `{ message }`.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ transitionResponse: 'null' });
 * ```
 */
export type TransitionResponse = 'invoice' | 'null' | 'message';

/**
 * What happens to a four-digit `isicCode` that is not one of the 419 published classes: a 400 on
 * create, a 400 on validate, or nothing.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ unknownIsicCode: 'reject-on-validate' });
 * ```
 */
export type UnknownIsicCodeHandling = 'reject' | 'reject-on-validate' | 'accept';

/**
 * Which active keys a new key replaces (revokes) among the creating user's keys: those of the same
 * `type`; of the same `type` and `keyableType` (default); or also of the same business.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ keyReplacement: 'type+keyableType+business' });
 * ```
 */
export type KeyReplacement = 'type' | 'type+keyableType' | 'type+keyableType+business';

/**
 * Routes the sandbox serves beyond the document's table, each `true` by default; `false` takes the
 * route out, so that it answers 404 `Cannot GET …` as any unknown route does.
 *
 * @example
 * ```ts
 * // No GET /api/v1/invoices/{id}: a client must read invoices through the list route.
 * const sandbox = await createSandbox({ routes: { retrieve: false } });
 * ```
 */
export interface SandboxRoutes {
  /**
   * `GET /api/v1/invoices/{id}`. The document's endpoint table does not list it (it says only that
   * invoice reads are "not shown"); `false` plays a service without it.
   */
  retrieve?: boolean | undefined;
}

/**
 * Where the sandbox serves its API description (the OpenAPI JSON behind the interactive reference
 * at `/api/docs`): `json` as NestJS does (the page, its `swagger-ui-init.js` with the description
 * embedded, and `/api/docs-json`); `embedded` without `/api/docs-json`; `url` a Swagger UI page
 * whose config names `/api/docs/openapi.json`; `none` no reference at all.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ apiDocs: 'embedded' });
 * ```
 */
export type ApiDocsMode = 'json' | 'embedded' | 'url' | 'none';

/**
 * Totals the service reports, as decimal strings with two decimals (`"107.50"`).
 *
 * @example
 * ```ts
 * const totals: SandboxTotals = { subtotal: '100.00', tax: '7.50', total: '107.50' };
 * ```
 */
export interface SandboxTotals {
  /** Sum of the lines' nets. */
  subtotal: string;
  /** Tax of all rate groups. */
  tax: string;
  /** subtotal + tax. */
  total: string;
}

/**
 * Options of {@link createSandbox}. Every field is optional, and one given as `undefined` is the same
 * as one left out (`{ port: process.env.PORT ? Number(process.env.PORT) : undefined }` takes the
 * default port).
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ listen: false, scenario: 'offline', recordStyle: 'alternate' });
 * ```
 */
export interface SandboxOptions {
  /** Serve on a loopback port (default `true`). `false` opens no socket: use `handlers` or `fetch`. */
  listen?: boolean | undefined;
  /** Port to listen on, on 127.0.0.1 (default 0: a free port). */
  port?: number | undefined;
  /**
   * Origin used when not listening (default `http://sandbox.invoicing.test`): the msw handlers
   * answer requests to it. Ignored when listening (the origin is the loopback address).
   */
  baseUrl?: string | undefined;
  /**
   * Load msw and build `sandbox.handlers` at start (default: `true` when `listen` is `false`).
   * Loading msw costs a few hundred milliseconds, so a listening sandbox otherwise loads it on the
   * first read of `sandbox.handlers` (synchronously; a runtime without `require` needs `true`).
   */
  msw?: boolean | undefined;
  /** Default submission outcome for every invoice, or a rule choosing one per invoice (default `'accepted'`). */
  scenario?: Scenario | ScenarioRule | undefined;
  /** Sandbox milliseconds between a submit and the tax authority's answer (default 2000). */
  responseDelayMs?: number | undefined;
  /**
   * The final status an accepted invoice reaches after `Submitted` (default `'Accepted'`; the
   * document does not name the statuses after Submitted, so this option and the two below are how
   * they are spelled on the wire: `'ACCEPTED'`, `'cleared'`, anything not one of the five documented).
   */
  acceptedStatus?: string | undefined;
  /** The final status of an invoice the tax authority rejects (the `rejected` scenario; default `'Rejected'`). */
  rejectedStatus?: string | undefined;
  /**
   * The status an invoice holds while the tax authority processes it, between `Submitted` and its
   * final answer (default `'Processing'`): not final, so clients keep reading. Give a value the SDK
   * does not know (`'AWAITING_AUTHORITY'`) to see how a client treats an unknown, not-final status.
   */
  processingStatus?: string | undefined;
  /**
   * Sandbox milliseconds the invoice holds `processingStatus` before the final answer (default 0:
   * no such stage, `Submitted` goes straight to the final status `responseDelayMs` after the submit).
   */
  processingMs?: number | undefined;
  /** Routes beyond the document's table to serve or take out (default: all served; see {@link SandboxRoutes}). */
  routes?: SandboxRoutes | undefined;
  /** Reproduce the known defect: a BUSINESS key on `POST /invoices` gets 404 `Business not found` (default `true`). */
  businessKeyDefect?: boolean | undefined;
  /** Field names of stored invoices (default `'standard'`). */
  recordStyle?: RecordStyle | undefined;
  /** Spelling of the five documented statuses on the wire (default `'document'`: `draft`, `Validated`, …). */
  statusSpelling?: StatusSpelling | undefined;
  /** Body of validate/sign/submit answers (default `'invoice'`: the updated invoice in the envelope). */
  transitionResponse?: TransitionResponse | undefined;
  /** Shortest accepted `productCategory`/`serviceCategory` (default 3; the document says only "very short" is rejected). */
  categoryMinLength?: number | undefined;
  /** A four-digit `isicCode` outside the 419 classes (default `'reject'`: 400 on create). */
  unknownIsicCode?: UnknownIsicCodeHandling | undefined;
  /** Which existing keys a new key revokes (default `'type+keyableType'`). */
  keyReplacement?: KeyReplacement | undefined;
  /**
   * When the service's recovery job runs (it re-submits invoices in Error: up to 3 attempts, only
   * those touched in the last 24 hours). It runs every 10 minutes on its own schedule, at every
   * multiple of 10 minutes of sandbox time since the Unix epoch (`:00`, `:10`, `:20`… past each hour)
   * shifted by this many milliseconds, 0 to 599 999 (default 0). An invoice that fails at 10:03 is
   * retried at 10:10, one that fails at 10:09:59 at 10:10 as well.
   */
  recoveryJobOffsetMs?: number | undefined;
  /**
   * Show the automatic-recovery attempt count on records (`attempts`, or `retryCount` in the
   * alternate style; default `true`). The document shows no such field: `false` serves records
   * without it, so a client must judge recovery from time alone.
   */
  attemptCount?: boolean | undefined;
  /** Sandbox start time (default: now). */
  now?: Date | number | string | undefined;
  /** Sandbox milliseconds per real millisecond (default 1; 0 freezes the clock between `advance()` calls). */
  timeScale?: number | undefined;
  /**
   * Replaces the service's totals for an invoice (to exercise `TotalsMismatchError`): receives the
   * create body and the correct totals, returns the totals to store.
   */
  totals?: ((input: Record<string, unknown>, correct: SandboxTotals) => SandboxTotals) | undefined;
  /**
   * Where the service rounds its totals to the cent (the document does not say): `'line'` (default)
   * rounds each line's net and tax, `'invoice'` rounds each rate's summed net and its tax once.
   */
  totalsRounding?: 'line' | 'invoice' | undefined;
  /** How the API description is served at `/api/docs` (default `'json'`; see {@link ApiDocsMode}). */
  apiDocs?: ApiDocsMode | undefined;
  /** Edits the API description before it is served, to make it drift from the service (default: none). */
  apiDescription?: ((description: Record<string, any>) => Record<string, any>) | undefined;
  /** Name of the invoice total in stored records (default `totalAmount`; `total` inside `totals` with `recordStyle: 'alternate'`). */
  totalField?: string | undefined;
  /** `keyableType` of the default key `sandbox.apiKey` (default `'USER'`; a BUSINESS key is for the sandbox's business). */
  apiKeyType?: 'USER' | 'BUSINESS' | undefined;
  /** Fixed secret for the default key (default: random `sk_live_…`). */
  apiKey?: string | undefined;
  /** Fixed token for the default user's session (default: random `sess_…`). */
  sessionToken?: string | undefined;
  /** Fixed id for the default business (default: random `biz_…`). */
  businessId?: string | undefined;
  /** Oldest request-log entries are dropped beyond this many (default 100 000). */
  requestLogLimit?: number | undefined;
}

/** Options after defaults; read-only for the life of the sandbox. */
export interface ResolvedOptions {
  listen: boolean;
  port: number;
  baseUrl: string;
  msw: boolean;
  scenario: Scenario | ScenarioRule;
  responseDelayMs: number;
  acceptedStatus: string;
  rejectedStatus: string;
  processingStatus: string;
  processingMs: number;
  businessKeyDefect: boolean;
  routes: Record<keyof SandboxRoutes, boolean>;
  recordStyle: RecordStyle;
  statusSpelling: StatusSpelling;
  transitionResponse: TransitionResponse;
  categoryMinLength: number;
  unknownIsicCode: UnknownIsicCodeHandling;
  keyReplacement: KeyReplacement;
  recoveryJobOffsetMs: number;
  attemptCount: boolean;
  now: Date | number | string | undefined;
  timeScale: number;
  totals: SandboxOptions['totals'];
  totalsRounding: 'line' | 'invoice';
  apiKey: string | undefined;
  sessionToken: string | undefined;
  businessId: string | undefined;
  requestLogLimit: number;
  apiDocs: ApiDocsMode;
  apiDescription: SandboxOptions['apiDescription'];
  totalField: string | undefined;
  apiKeyType: 'USER' | 'BUSINESS';
}

const STATUS_SPELLINGS: readonly StatusSpelling[] = ['document', 'capitalized', 'upper', 'lower'];

const DEFAULTS = {
  listen: true,
  port: 0,
  baseUrl: 'http://sandbox.invoicing.test',
  scenario: 'accepted',
  responseDelayMs: 2000,
  acceptedStatus: 'Accepted',
  rejectedStatus: 'Rejected',
  processingStatus: 'Processing',
  processingMs: 0,
  businessKeyDefect: true,
  recordStyle: 'standard',
  statusSpelling: 'document',
  transitionResponse: 'invoice',
  categoryMinLength: 3,
  unknownIsicCode: 'reject',
  keyReplacement: 'type+keyableType',
  recoveryJobOffsetMs: 0,
  timeScale: 1,
  requestLogLimit: 100_000,
} as const satisfies Partial<ResolvedOptions>;

/**
 * Fills in the defaults and rejects values that would only fail later and obscurely. Every option is
 * read with `??` (never merged with `{ ...DEFAULTS, ...options }`), so one given as `undefined`
 * takes its default like one left out (test/testing/undefined-options.test.ts).
 */
export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const listen = options.listen ?? DEFAULTS.listen;
  const resolved: ResolvedOptions = {
    listen,
    port: options.port ?? DEFAULTS.port,
    baseUrl: new URL(options.baseUrl ?? DEFAULTS.baseUrl).origin,
    msw: options.msw ?? !listen,
    scenario: options.scenario ?? DEFAULTS.scenario,
    responseDelayMs: options.responseDelayMs ?? DEFAULTS.responseDelayMs,
    acceptedStatus: options.acceptedStatus ?? DEFAULTS.acceptedStatus,
    rejectedStatus: options.rejectedStatus ?? DEFAULTS.rejectedStatus,
    processingStatus: options.processingStatus ?? DEFAULTS.processingStatus,
    processingMs: options.processingMs ?? DEFAULTS.processingMs,
    businessKeyDefect: options.businessKeyDefect ?? DEFAULTS.businessKeyDefect,
    routes: { retrieve: options.routes?.retrieve ?? true },
    recordStyle: options.recordStyle ?? DEFAULTS.recordStyle,
    statusSpelling: options.statusSpelling ?? DEFAULTS.statusSpelling,
    transitionResponse: options.transitionResponse ?? DEFAULTS.transitionResponse,
    categoryMinLength: options.categoryMinLength ?? DEFAULTS.categoryMinLength,
    unknownIsicCode: options.unknownIsicCode ?? DEFAULTS.unknownIsicCode,
    keyReplacement: options.keyReplacement ?? DEFAULTS.keyReplacement,
    recoveryJobOffsetMs: options.recoveryJobOffsetMs ?? DEFAULTS.recoveryJobOffsetMs,
    attemptCount: options.attemptCount ?? true,
    now: options.now,
    timeScale: options.timeScale ?? DEFAULTS.timeScale,
    totals: options.totals,
    totalsRounding: options.totalsRounding ?? 'line',
    apiKey: options.apiKey,
    sessionToken: options.sessionToken,
    businessId: options.businessId,
    requestLogLimit: options.requestLogLimit ?? DEFAULTS.requestLogLimit,
    apiDocs: options.apiDocs ?? 'json',
    apiDescription: options.apiDescription,
    totalField: options.totalField,
    apiKeyType: options.apiKeyType ?? 'USER',
  };
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    throw new RangeError(`port must be an integer 0-65535, got ${resolved.port}`);
  }
  if (!Number.isFinite(resolved.responseDelayMs) || resolved.responseDelayMs < 0) {
    throw new RangeError(`responseDelayMs must be >= 0, got ${resolved.responseDelayMs}`);
  }
  if (!(STATUS_SPELLINGS as readonly string[]).includes(resolved.statusSpelling)) {
    throw new RangeError(`statusSpelling must be one of ${STATUS_SPELLINGS.join(', ')}, got ${JSON.stringify(resolved.statusSpelling)}`);
  }
  if (!Number.isInteger(resolved.categoryMinLength) || resolved.categoryMinLength < 0) {
    throw new RangeError(`categoryMinLength must be an integer >= 0, got ${resolved.categoryMinLength}`);
  }
  if (!Number.isInteger(resolved.recoveryJobOffsetMs) || resolved.recoveryJobOffsetMs < 0 || resolved.recoveryJobOffsetMs >= 600_000) {
    throw new RangeError(`recoveryJobOffsetMs must be an integer 0-599999 (within the job's 10 minutes), got ${resolved.recoveryJobOffsetMs}`);
  }
  if (!Number.isFinite(resolved.processingMs) || resolved.processingMs < 0) {
    throw new RangeError(`processingMs must be >= 0, got ${resolved.processingMs}`);
  }
  // The authority's answers must read as "after Submitted", or the SDK would wait for them forever.
  for (const option of ['acceptedStatus', 'rejectedStatus', 'processingStatus'] as const) {
    if (!isLaterStatus(resolved[option])) {
      throw new RangeError(`${option} must be a status after Submitted (such as 'Accepted'), got ${JSON.stringify(resolved[option])}`);
    }
  }
  if (typeof resolved.scenario !== 'function') resolveScenario(resolved.scenario, resolved);
  return resolved;
}
