// The service's routes: authentication and error hints read them.
import type { FilingTransition } from '../model/status.js';

/** Every route is served under this prefix (the service's only version). */
export const API_PREFIX = '/api/v1';

const segment = (id: string): string => encodeURIComponent(id);

/** Paths from the origin, `/api/v1` included; fixed ones are plain strings so bundlers can drop the table. */
export const ROUTES = {
  invoices: '/api/v1/invoices',
  invoice: (id: string) => `${API_PREFIX}/invoices/${segment(id)}`,
  transition: (id: string, step: FilingTransition) => `${API_PREFIX}/invoices/${segment(id)}/${step}`,
  apiKeys: '/api/v1/api-key',
  apiKey: (id: string) => `${API_PREFIX}/api-key/${segment(id)}`,
  apiKeyReveal: (id: string) => `${API_PREFIX}/api-key/${segment(id)}/reveal`,
  hsCodes: '/api/v1/taxauth/hs-codes',
  serviceCodes: '/api/v1/taxauth/service-codes',
} as const;

/** Key-management routes. */
export function isSessionRoute(path: string): boolean {
  return path === ROUTES.apiKeys || path.startsWith(`${ROUTES.apiKeys}/`);
}

/** The scope a call needs, and whether the service document says so. */
export interface RequiredScope {
  scope: string;
  /** False where the document says "not shown" and the scope is inferred from the scope names. */ documented: boolean;
}

const TRANSITION_PATH = /^\/api\/v1\/invoices\/[^/]+\/(?:validate|sign|submit)$/;

/** The scope a call needs, as far as the service document tells. */
export function requiredScope(method: string, path: string): RequiredScope | undefined {
  const verb = method.toUpperCase();
  if (verb === 'POST' && TRANSITION_PATH.test(path)) return { scope: 'invoices:write', documented: true };
  if (path.startsWith(`${API_PREFIX}/taxauth/`)) return { scope: 'taxauth:read', documented: false };
  if (path === ROUTES.invoices || path.startsWith(`${ROUTES.invoices}/`)) {
    return { scope: verb === 'GET' ? 'invoices:read' : 'invoices:write', documented: false };
  }
  return undefined;
}
