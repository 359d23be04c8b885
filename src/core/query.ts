// Credentials never travel in a query string: a parameter named like one is refused before sending.
import { InvoicingError } from './errors.js';

/** A query parameter value; `undefined` and `null` are left out, arrays repeat the key. @example const status: QueryValue = ['Submitted', 'Accepted']; // ?status=Submitted&status=Accepted */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Query parameters: `defaultQuery`, per-call `query`, list filters. @example const query: Query = { status: 'Submitted', limit: 50 }; */
export type Query = Record<string, QueryValue>;

// Compared with case, `-` and `_` ignored: `api_key`, `API-Key` and `apiKey` are one name.
const CREDENTIAL_NAMES = new Set([
  'apikey', 'xapikey', 'key', 'apisecret', 'secret', 'clientsecret', 'token', 'accesstoken', 'refreshtoken', 'idtoken', 'authtoken',
  'bearer', 'session', 'sessiontoken', 'sessionid', 'password', 'passwd', 'auth', 'authorization', 'credential', 'credentials', 'privatekey',
]);

/** True when a query parameter name looks like a credential (`apiKey`, `token`, `password`, …). @example isCredentialParam('API_KEY'); // true */
export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toLowerCase().replace(/[-_\s]/g, ''));
}

export function checkQuery(query: Query | undefined, where: string): void {
  const name = Object.keys(query ?? {}).find(isCredentialParam);
  if (name === undefined) return;
  throw new InvoicingError(
    `${where} has a parameter named like a credential (${JSON.stringify(name)}); credentials never travel in a URL, so nothing was sent.`,
    {
      hint: 'The API key is sent only as the X-API-Key header and the session token only as Authorization: Bearer; ' +
        'pass them to the client as apiKey / sessionToken.',
    },
  );
}

export function appendQuery(url: URL, query: Query | undefined): void {
  if (query === undefined || query === null) return;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.set(key, String(value));
  }
}
