// The service's routes: authentication and error hints read them.
import type { FilingTransition } from '../model/status.js';

export const API_PREFIX = '/api/v1';

/** Paths from the origin, `/api/v1` included; fixed ones are plain strings so bundlers can drop the table. */
export const ROUTES = {
  invoices: '/api/v1/invoices',
  invoice: (id: string) => `${API_PREFIX}/invoices/${encodeURIComponent(id)}`,
  transition: (id: string, step: FilingTransition) => `${API_PREFIX}/invoices/${encodeURIComponent(id)}/${step}`,
  apiKeys: '/api/v1/api-key',
  apiKey: (id: string) => `${API_PREFIX}/api-key/${encodeURIComponent(id)}`,
  apiKeyReveal: (id: string) => `${API_PREFIX}/api-key/${encodeURIComponent(id)}/reveal`,
  hsCodes: '/api/v1/taxauth/hs-codes',
  serviceCodes: '/api/v1/taxauth/service-codes',
} as const;

export function isSessionRoute(path: string): boolean {
  return path === ROUTES.apiKeys || path.startsWith(`${ROUTES.apiKeys}/`);
}

const TRANSITION_PATH = /^\/api\/v1\/invoices\/[^/]+\/(?:validate|sign|submit)$/;

/** The scope a call needs; `documented` is false where the document does not show it and the scope names suggest it. */
export function requiredScope(method: string, path: string): { scope: string; documented: boolean } | undefined {
  const verb = method.toUpperCase();
  if (verb === 'POST' && TRANSITION_PATH.test(path)) return { scope: 'invoices:write', documented: true };
  if (path.startsWith(`${API_PREFIX}/taxauth/`)) return { scope: 'taxauth:read', documented: false };
  if (path === ROUTES.invoices || path.startsWith(`${ROUTES.invoices}/`)) {
    return { scope: verb === 'GET' ? 'invoices:read' : 'invoices:write', documented: false };
  }
  return undefined;
}
