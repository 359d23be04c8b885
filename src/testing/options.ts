/**
 * The sandbox's options and their defaults, resolved once at `createSandbox()` (one table, as in
 * the rest of the SDK). Each default is the behaviour of the service as its document describes
 * it; where the document says "not shown", the default is the sandbox's documented choice and the
 * option lets a test try the other readings.
 */
import { isAfterSubmitted } from '../model/status.js';
import { resolveScenario, type Scenario, type ScenarioRule } from './scenarios.js';

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

/**
 * How the five documented statuses are spelled on the wire (the document does not show the exact
 * spelling, and itself writes both `Draft` and `draft`): `document` (`draft`, `Validated`,
 * `Signed`, `Submitted`, `Error`, as its transition table writes them), `capitalized` (`Draft`,
 * `Validated`, …), `upper` (`DRAFT`, `VALIDATED`, …) or `lower` (`draft`, `validated`, …). A status
 * after `Submitted` (`acceptedStatus`, a scenario's `status`) is sent as given.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ statusSpelling: 'upper' });
 * ```
 */
export type StatusSpelling = 'document' | 'capitalized' | 'upper' | 'lower';

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
  /** The status an accepted invoice reaches after `Submitted` (default `'Accepted'`; the document does not name it). */
  acceptedStatus?: string | undefined;
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
  /** Sandbox start time (default: now). */
  now?: Date | number | string | undefined;
  /** Sandbox milliseconds per real millisecond (default 1; 0 freezes the clock between `advance()` calls). */
  timeScale?: number | undefined;
  /**
   * Replaces the service's totals for an invoice (to exercise `TotalsMismatchError`): receives the
   * create body and the correct totals, returns the totals to store.
   */
  totals?: ((input: Record<string, unknown>, correct: SandboxTotals) => SandboxTotals) | undefined;
  /** Fixed secret for the default USER key (default: random `sk_live_…`). */
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
  businessKeyDefect: boolean;
  recordStyle: RecordStyle;
  statusSpelling: StatusSpelling;
  transitionResponse: TransitionResponse;
  categoryMinLength: number;
  unknownIsicCode: UnknownIsicCodeHandling;
  keyReplacement: KeyReplacement;
  now: Date | number | string | undefined;
  timeScale: number;
  totals: SandboxOptions['totals'];
  apiKey: string | undefined;
  sessionToken: string | undefined;
  businessId: string | undefined;
  requestLogLimit: number;
}

const STATUS_SPELLINGS: readonly StatusSpelling[] = ['document', 'capitalized', 'upper', 'lower'];

const DEFAULTS = {
  listen: true,
  port: 0,
  baseUrl: 'http://sandbox.invoicing.test',
  scenario: 'accepted',
  responseDelayMs: 2000,
  acceptedStatus: 'Accepted',
  businessKeyDefect: true,
  recordStyle: 'standard',
  statusSpelling: 'document',
  transitionResponse: 'invoice',
  categoryMinLength: 3,
  unknownIsicCode: 'reject',
  keyReplacement: 'type+keyableType',
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
    businessKeyDefect: options.businessKeyDefect ?? DEFAULTS.businessKeyDefect,
    recordStyle: options.recordStyle ?? DEFAULTS.recordStyle,
    statusSpelling: options.statusSpelling ?? DEFAULTS.statusSpelling,
    transitionResponse: options.transitionResponse ?? DEFAULTS.transitionResponse,
    categoryMinLength: options.categoryMinLength ?? DEFAULTS.categoryMinLength,
    unknownIsicCode: options.unknownIsicCode ?? DEFAULTS.unknownIsicCode,
    keyReplacement: options.keyReplacement ?? DEFAULTS.keyReplacement,
    now: options.now,
    timeScale: options.timeScale ?? DEFAULTS.timeScale,
    totals: options.totals,
    apiKey: options.apiKey,
    sessionToken: options.sessionToken,
    businessId: options.businessId,
    requestLogLimit: options.requestLogLimit ?? DEFAULTS.requestLogLimit,
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
  // The authority's answer must read as "after Submitted", or the SDK would wait for it forever.
  if (!isAfterSubmitted(resolved.acceptedStatus)) {
    throw new RangeError(`acceptedStatus must be a status after Submitted (such as 'Accepted'), got ${JSON.stringify(resolved.acceptedStatus)}`);
  }
  if (typeof resolved.scenario !== 'function') resolveScenario(resolved.scenario, resolved.acceptedStatus);
  return resolved;
}
