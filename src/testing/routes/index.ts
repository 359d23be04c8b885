// Every endpoint of the document, plus `GET /invoices/:id` (the table omits it but polling needs
// it; `routes: { retrieve: false }` takes it out) and the API reference at `/api/docs`.
import { compilePattern } from '../faults.js';
import type { RouteContext, RouteResult } from '../context.js';
import type { SandboxRoutes } from '../options.js';
import { createApiKey, listApiKeys, readApiKey, revealApiKey, revokeApiKey } from './api-keys.js';
import { apiDocs } from './docs.js';
import { createInvoice, listInvoices, readInvoice, transitionInvoice } from './invoices.js';
import { hsCodes, serviceCodes } from './taxauth.js';

type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

interface Route {
  optional?: keyof SandboxRoutes;
  method: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

const route = (method: string, pattern: string, handler: Handler): Route => ({ method, ...compilePattern(pattern), handler });

const ROUTES: readonly Route[] = [
  route('POST', '/api/v1/invoices', createInvoice),
  route('GET', '/api/v1/invoices', listInvoices),
  { ...route('GET', '/api/v1/invoices/:id', readInvoice), optional: 'retrieve' },
  route('POST', '/api/v1/invoices/:id/validate', transitionInvoice('validate')),
  route('POST', '/api/v1/invoices/:id/sign', transitionInvoice('sign')),
  route('POST', '/api/v1/invoices/:id/submit', transitionInvoice('submit')),
  route('POST', '/api/v1/api-key', createApiKey),
  route('GET', '/api/v1/api-key', listApiKeys),
  route('GET', '/api/v1/api-key/:id', readApiKey),
  route('GET', '/api/v1/api-key/:id/reveal', revealApiKey),
  route('DELETE', '/api/v1/api-key/:id', revokeApiKey),
  route('GET', '/api/v1/taxauth/hs-codes', hsCodes),
  route('GET', '/api/v1/taxauth/service-codes', serviceCodes),
  route('GET', '/api/docs', apiDocs),
  route('GET', '/api/docs/:file', apiDocs),
  route('GET', '/api/docs-json', apiDocs),
];

// A route switched off is not there at all: its path falls through to the unknown-route 404.
export function findRoute(
  method: string,
  path: string,
  served: Record<keyof SandboxRoutes, boolean>,
): { handler: Handler; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    if (r.optional !== undefined && !served[r.optional]) continue;
    const m = r.regex.exec(path);
    if (m === null) continue;
    const params: Record<string, string> = {};
    r.names.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { handler: r.handler, params };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
