// Client options: one defaults table, resolved once at construction; per-call options override.
import { resolveFieldMap } from '../model/field-map.js';
import { InvoicingError, redactError } from './errors.js';
import { checkExtraHeaders, checkHeader } from './headers.js';
import { createLogger, isLogLevel, LOG_LEVELS, type LogLevel } from './logger.js';
import { Redactor } from './redact.js';
import { DEFAULT_FINAL_STATUSES } from '../model/status.js';
import { checkQuery } from './query.js';
import { API_PREFIX } from './routes.js';
import type { ClientOptions, ResolvedOptions } from './transport.js';

export type { Fetch } from './bounds.js';
import { boundedInteger } from './bounds.js';

/** Options with an environment variable or a default, resolved at construction. @example const timeout = CLIENT_DEFAULTS.timeout.value; */
export const CLIENT_DEFAULTS = {
  apiKey: { env: 'INVOICING_API_KEY', value: undefined },
  sessionToken: { env: 'INVOICING_SESSION_TOKEN', value: undefined },
  baseUrl: { env: 'INVOICING_BASE_URL', value: undefined },
  timeout: { env: undefined, value: 30_000 },
  maxRetries: { env: undefined, value: 2 },
  logLevel: { env: 'INVOICING_LOG', value: 'warn' },
  codesCacheTtl: { env: undefined, value: 3_600_000 }, // one hour
  maxResponseBytes: { env: undefined, value: 33_554_432 }, // 32 MiB
  allowInsecureHttp: { env: undefined, value: false },
  finalStatuses: { env: undefined, value: DEFAULT_FINAL_STATUSES },
  dangerouslyAllowBrowser: { env: undefined, value: false },
} as const satisfies Partial<Record<keyof ClientOptions, { env: string | undefined; value: unknown }>>;

export type { ClientOptions, ResolvedOptions } from './transport.js';

function readEnv(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim() || undefined;
  } catch {
    // Deno without --allow-env throws on access.
    return undefined;
  }
}

/** A client's redactor with the credentials it was built for, so a client derived from it (`withOptions`) can share it. */
export type InheritedRedactor = Pick<ResolvedOptions, 'redactor' | 'apiKey' | 'sessionToken'>;

export function resolveOptions(options: ClientOptions = {}, inherit?: InheritedRedactor): ResolvedOptions {
  const g = globalThis as { window?: unknown; document?: unknown };
  const browser = typeof g.window !== 'undefined' && typeof g.document !== 'undefined';
  if (browser && options.dangerouslyAllowBrowser !== true) {
    throw new InvoicingError(
      'InvoicingClient refuses to run in a browser-like runtime: the API key would be exposed to ' +
        'every visitor. Call the service from your server instead.',
      { hint: 'If you understand the risk (for example, a trusted internal tool), pass dangerouslyAllowBrowser: true.' },
    );
  }
  const pick = (key: 'apiKey' | 'sessionToken' | 'baseUrl'): string | undefined => {
    const given = options[key];
    if (given === undefined) return readEnv(CLIENT_DEFAULTS[key].env);
    return typeof given === 'string' && given.trim() !== '' ? given.trim() : undefined;
  };
  // Read first, so the redactor built from them scrubs every error below.
  const apiKey = pick('apiKey');
  const sessionToken = pick('sessionToken');
  const redactor =
    inherit !== undefined && inherit.apiKey === apiKey && inherit.sessionToken === sessionToken
      ? inherit.redactor
      : new Redactor([apiKey, sessionToken]);
  try {
    // Checked once here rather than per request (a badly copied key), never quoted.
    checkHeader('apiKey (X-API-Key)', apiKey ?? '');
    checkHeader('sessionToken (Authorization)', sessionToken ?? '');

    const rawLevel = options.logLevel ?? readEnv(CLIENT_DEFAULTS.logLevel.env)?.toLowerCase();
    if (options.logLevel !== undefined && !isLogLevel(rawLevel)) {
      throw new InvoicingError(`logLevel must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(options.logLevel)}.`);
    }
    const logLevel: LogLevel = isLogLevel(rawLevel) ? rawLevel : CLIENT_DEFAULTS.logLevel.value;
    const logger = createLogger(options.logger ?? console, logLevel, redactor);
    if (rawLevel !== undefined && !isLogLevel(rawLevel)) logger.warn(`Ignoring INVOICING_LOG=${rawLevel}: expected one of ${LOG_LEVELS.join(', ')}.`);

    const defaultHeaders = checkExtraHeaders(options.defaultHeaders, 'defaultHeaders');
    checkQuery(options.defaultQuery, 'defaultQuery');
    const baseUrl = resolveBaseUrl(pick('baseUrl'));
    const allowInsecureHttp = options.allowInsecureHttp === true;
    if (!allowInsecureHttp && isInsecureRemote(baseUrl)) {
      logger.warn(
        `baseUrl ${baseUrl} is plain http:// to a host other than loopback: the API key crosses the network in clear text. ` +
          'Use https://, or pass allowInsecureHttp: true if the network is trusted.',
      );
    }

    const { fetch, hooks, fetchOptions, defaultQuery } = options;
    return {
      apiKey, sessionToken, baseUrl, fetch, logger, logLevel, browser, hooks, fetchOptions, defaultHeaders, defaultQuery,
      allowInsecureHttp, redactor,
      timeout: boundedInteger('timeout', options.timeout, CLIENT_DEFAULTS.timeout.value, 1),
      maxRetries: boundedInteger('maxRetries', options.maxRetries, CLIENT_DEFAULTS.maxRetries.value, 0),
      fieldMap: resolveFieldMap(options.fieldMap),
      // No timer holds it (it is compared with the clock), so no 2^31 - 1 bound.
      codesCacheTtl: boundedInteger('codesCacheTtl', options.codesCacheTtl, CLIENT_DEFAULTS.codesCacheTtl.value, 0, 9_007_199_254_740_991),
      maxResponseBytes: boundedInteger('maxResponseBytes', options.maxResponseBytes, CLIENT_DEFAULTS.maxResponseBytes.value, 1, 9_007_199_254_740_991),
      finalStatuses: resolveFinalStatuses(options.finalStatuses),
    };
  } catch (error) {
    // An option's value may be a credential in the wrong place (baseUrl: the API key).
    throw redactError(error, redactor);
  }
}

function resolveFinalStatuses(value: readonly string[] | undefined): readonly string[] {
  if (value === undefined) return CLIENT_DEFAULTS.finalStatuses.value;
  if (!Array.isArray(value) || value.length === 0 || value.some((s) => typeof s !== 'string' || s.trim() === '')) {
    throw new InvoicingError(`finalStatuses must be a non-empty list of status names; got ${JSON.stringify(value)}.`);
  }
  return Object.freeze([...value]);
}

export function isInsecureRemote(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return !(host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1');
}

function resolveBaseUrl(value: string | undefined): string {
  if (value === undefined) {
    throw new InvoicingError(
      'No baseUrl: pass baseUrl to new InvoicingClient({ baseUrl }) or set the INVOICING_BASE_URL ' +
        'environment variable to the service origin, e.g. https://invoicing.example.com (the SDK adds /api/v1).',
    );
  }
  if (!URL.canParse(value)) {
    throw new InvoicingError(`baseUrl is not a valid URL: ${JSON.stringify(value)}. Expected e.g. https://invoicing.example.com.`);
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvoicingError(`baseUrl must be an http(s) URL; got ${JSON.stringify(value)}.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvoicingError('baseUrl must not carry credentials; pass apiKey instead.');
  }
  // The SDK adds /api/v1 itself; accept an origin that already ends with it rather than doubling it.
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  return `${url.origin}${path}`;
}

