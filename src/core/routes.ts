/**
 * The service's routes, in one place: the transport decides authentication from them and the error
 * hints name them.
 */
import type { FilingTransition } from '../filing/status.js';
import { InvoicingError } from './errors/invoicing-error.js';

/** Every route is served under this prefix (the service's only version). */
export const API_PREFIX = '/api/v1';

const segment = (id: string): string => encodeURIComponent(id);

/**
 * Refuses, before any request, an id that cannot name one resource: not a string, blank, or a dot
 * segment. `.` and `..` (also written `%2e`) survive `encodeURIComponent` and URL parsing folds
 * them away, so `retrieve('..')` would otherwise request the listing `/api/v1/`.
 */
export function assertResourceId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new InvoicingError(`${what} must be a non-empty string; got ${JSON.stringify(id)}.`);
  }
  if (/^(?:\.|%2e){1,2}$/i.test(id)) {
    throw new InvoicingError(`${what} cannot be ${JSON.stringify(id)}: it is a path step, not an id.`);
  }
}

/** Paths relative to the service's origin, `/api/v1` included. */
export const ROUTES = {
  invoices: `${API_PREFIX}/invoices`,
  invoice: (id: string) => `${API_PREFIX}/invoices/${segment(id)}`,
  transition: (id: string, step: FilingTransition) => `${API_PREFIX}/invoices/${segment(id)}/${step}`,
  apiKeys: `${API_PREFIX}/api-key`,
  apiKey: (id: string) => `${API_PREFIX}/api-key/${segment(id)}`,
  apiKeyReveal: (id: string) => `${API_PREFIX}/api-key/${segment(id)}/reveal`,
  hsCodes: `${API_PREFIX}/taxauth/hs-codes`,
  serviceCodes: `${API_PREFIX}/taxauth/service-codes`,
} as const;

/**
 * Key-management routes: authenticated by the signed-in session (`Authorization: Bearer`), never by
 * an API key.
 */
export function isSessionRoute(path: string): boolean {
  return path === ROUTES.apiKeys || path.startsWith(`${ROUTES.apiKeys}/`);
}

/**
 * The scope a call needs, as far as the service document tells. It names `invoices:write` for the
 * three transitions and the scopes `invoices:read`, `invoices:write`, `taxauth:read`; the rest
 * follows from those names.
 */
export function requiredScope(method: string, path: string): string | undefined {
  if (path.startsWith(`${API_PREFIX}/taxauth/`)) return 'taxauth:read';
  if (path === ROUTES.invoices || path.startsWith(`${ROUTES.invoices}/`)) {
    return method.toUpperCase() === 'GET' ? 'invoices:read' : 'invoices:write';
  }
  return undefined;
}
