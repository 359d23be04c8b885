// Defaults follow the service's document; where it says "not shown", an option tries other readings.
import { isLaterStatus, resolveScenario, STATUS_SPELLINGS, type Scenario, type ScenarioRule, type StatusSpelling } from './scenarios.js';

/** Field names of stored invoices on the wire: `standard` (`id`, `status`, …) or `alternate` (`_id`, `invoiceStatus`, …). @example const sandbox = await createSandbox({ recordStyle: 'alternate' }); */
export type RecordStyle = 'standard' | 'alternate';

/** What validate, sign and submit answer with: the updated invoice, `data: null`, or a bare `{ message }`. @example const sandbox = await createSandbox({ transitionResponse: 'null' }); */
export type TransitionResponse = 'invoice' | 'null' | 'message';

/** What an unpublished four-digit `isicCode` gets: a 400 on create, a 400 on validate, or nothing. @example const sandbox = await createSandbox({ unknownIsicCode: 'reject-on-validate' }); */
export type UnknownIsicCodeHandling = 'reject' | 'reject-on-validate' | 'accept';

/** Which of the user's active keys a new key revokes: same `type`, same `type` and `keyableType`, or also same business. @example const sandbox = await createSandbox({ keyReplacement: 'type+keyableType+business' }); */
export type KeyReplacement = 'type' | 'type+keyableType' | 'type+keyableType+business';

/** Routes beyond the document's table, each `true` by default; `false` makes the route answer 404. @example const sandbox = await createSandbox({ routes: { retrieve: false } }); */
export interface SandboxRoutes {
  /** `GET /api/v1/invoices/{id}`, which the document's table does not list. */ retrieve?: boolean | undefined;
}

/** How `/api/docs` serves the OpenAPI description: `json` as NestJS does (with `/api/docs-json`), `embedded` only inside the page, `url` from `/api/docs/openapi.json`, `none` not at all. @example const sandbox = await createSandbox({ apiDocs: 'embedded' }); */
export type ApiDocsMode = 'json' | 'embedded' | 'url' | 'none';

/** Totals the service reports, as decimal strings with two decimals (`"107.50"`). @example const totals: SandboxTotals = { subtotal: '100.00', tax: '7.50', total: '107.50' }; */
export interface SandboxTotals {
  /** Sum of the lines' nets. */ subtotal: string;
  /** Tax of all rate groups. */ tax: string;
  /** subtotal + tax. */ total: string;
}

/** Options of {@link createSandbox}; one given as `undefined` is the same as one left out. @example const sandbox = await createSandbox({ listen: false, scenario: 'offline', recordStyle: 'alternate' }); */
export interface SandboxOptions {
  /** Serve on a loopback port (default `true`). `false` opens no socket: use `handlers` or `fetch`. */ listen?: boolean | undefined;
  /** Port to listen on, on 127.0.0.1 (default 0: a free port). */ port?: number | undefined;
  /** Origin the msw handlers answer when not listening (default `http://sandbox.invoicing.test`). */ baseUrl?: string | undefined;
  /** Load msw at start (default: `true` when not listening; otherwise on first read of `handlers`). */ msw?: boolean | undefined;
  /** Outcome of every submit, or a rule choosing one per invoice (default `'accepted'`). */ scenario?: Scenario | ScenarioRule | undefined;
  /** Sandbox milliseconds between a submit and the tax authority's answer (default 2000). */ responseDelayMs?: number | undefined;
  /** The final status of an accepted invoice, any status after `Submitted` (default `'Accepted'`). */ acceptedStatus?: string | undefined;
  /** Final status of a rejected invoice (the `rejected` scenario; default `'Rejected'`). */ rejectedStatus?: string | undefined;
  /** Not-final status between `Submitted` and the answer (default `'Processing'`). */ processingStatus?: string | undefined;
  /** Sandbox milliseconds spent in `processingStatus` (default 0: no such stage). */ processingMs?: number | undefined;
  /** Routes beyond the document's table to serve or take out (default: all served). */ routes?: SandboxRoutes | undefined;
  /** The known defect: a BUSINESS key on `POST /invoices` gets 404 (default `true`). */ businessKeyDefect?: boolean | undefined;
  /** Field names of stored invoices (default `'standard'`). */ recordStyle?: RecordStyle | undefined;
  /** Spelling of the documented statuses (default `'document'`: `draft`, `Validated`, …). */ statusSpelling?: StatusSpelling | undefined;
  /** Body of validate/sign/submit answers (default `'invoice'`). */ transitionResponse?: TransitionResponse | undefined;
  /** Shortest accepted `productCategory`/`serviceCategory` (default 3). */ categoryMinLength?: number | undefined;
  /** A four-digit code outside the 419 ISIC classes (default `'reject'`). */ unknownIsicCode?: UnknownIsicCodeHandling | undefined;
  /** Which existing keys a new key revokes (default `'type+keyableType'`). */ keyReplacement?: KeyReplacement | undefined;
  /** Shift of the recovery job's 10-minute schedule, 0 to 599 999 ms (default 0). */ recoveryJobOffsetMs?: number | undefined;
  /** Show the recovery attempt count (`attempts` or `retryCount`) on records (default `true`). */ attemptCount?: boolean | undefined;
  /** Sandbox start time (default: now). */ now?: Date | number | string | undefined;
  /** Sandbox milliseconds per real millisecond (default 1; 0 freezes the clock). */ timeScale?: number | undefined;
  /** Replaces the totals the service stores for an invoice (to exercise `TotalsMismatchError`). */
  totals?: ((input: Record<string, unknown>, correct: SandboxTotals) => SandboxTotals) | undefined;
  /** Round to the cent per line (default) or once per rate over the invoice. */ totalsRounding?: 'line' | 'invoice' | undefined;
  /** How `/api/docs` serves the API description (default `'json'`). */ apiDocs?: ApiDocsMode | undefined;
  /** Edits the API description before it is served, to make it drift from the service (default: none). */
  apiDescription?: ((description: Record<string, any>) => Record<string, any>) | undefined;
  /** Name of the total in stored records (default `totalAmount`, or `total` inside `totals`). */ totalField?: string | undefined;
  /** `keyableType` of `sandbox.apiKey` (default `'USER'`; BUSINESS: of `businessId`). */ apiKeyType?: 'USER' | 'BUSINESS' | undefined;
  /** Fixed secret for the default key (default: random `sk_live_…`). */ apiKey?: string | undefined;
  /** Fixed token for the default user's session (default: random `sess_…`). */ sessionToken?: string | undefined;
  /** Fixed id for the default business (default: random `biz_…`). */ businessId?: string | undefined;
  /** Oldest request-log entries are dropped beyond this many (default 100 000). */ requestLogLimit?: number | undefined;
}

type Optional = 'now' | 'totals' | 'apiKey' | 'sessionToken' | 'businessId' | 'apiDescription' | 'totalField';

/** Options after defaults; read-only for the life of the sandbox. */
export type ResolvedOptions = { [K in Exclude<keyof SandboxOptions, Optional | 'routes'>]-?: NonNullable<SandboxOptions[K]> } &
  Pick<SandboxOptions, Optional> & { routes: Record<keyof SandboxRoutes, boolean> };

const DEFAULTS = {
  listen: true, port: 0, scenario: 'accepted', responseDelayMs: 2000, acceptedStatus: 'Accepted', rejectedStatus: 'Rejected',
  processingStatus: 'Processing', processingMs: 0, businessKeyDefect: true, recordStyle: 'standard', statusSpelling: 'document',
  transitionResponse: 'invoice', categoryMinLength: 3, unknownIsicCode: 'reject', keyReplacement: 'type+keyableType',
  recoveryJobOffsetMs: 0, attemptCount: true, timeScale: 1, totalsRounding: 'line', requestLogLimit: 100_000, apiDocs: 'json',
  apiKeyType: 'USER',
  ...{ now: undefined, totals: undefined, apiKey: undefined, sessionToken: undefined, businessId: undefined, apiDescription: undefined, totalField: undefined },
} as const;

const integer = (min: number, max: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const notNegative = (v: unknown) => Number.isFinite(v) && (v as number) >= 0;
const LATER = "a status after Submitted (such as 'Accepted')";
// The authority's answers must read as "after Submitted", or the SDK would wait for them forever.
const CHECKS: [keyof ResolvedOptions, (value: unknown) => boolean, string][] = [
  ['port', integer(0, 65535), 'an integer 0-65535'],
  ['responseDelayMs', notNegative, '>= 0'],
  ['statusSpelling', (v) => (STATUS_SPELLINGS as readonly unknown[]).includes(v), `one of ${STATUS_SPELLINGS.join(', ')}`],
  ['categoryMinLength', integer(0, Infinity), 'an integer >= 0'],
  ['recoveryJobOffsetMs', integer(0, 599_999), "an integer 0-599999 (within the job's 10 minutes)"],
  ['processingMs', notNegative, '>= 0'],
  ['acceptedStatus', isLaterStatus, LATER],
  ['rejectedStatus', isLaterStatus, LATER],
  ['processingStatus', isLaterStatus, LATER],
];

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const resolved = {
    ...DEFAULTS,
    msw: options.listen === false,
    ...given,
    baseUrl: new URL(options.baseUrl ?? 'http://sandbox.invoicing.test').origin,
    routes: { retrieve: options.routes?.retrieve ?? true },
  } as ResolvedOptions;
  for (const [name, ok, what] of CHECKS) {
    const value = resolved[name];
    if (!ok(value)) throw new RangeError(`${name} must be ${what}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
  if (typeof resolved.scenario !== 'function') resolveScenario(resolved.scenario, resolved);
  return resolved;
}
