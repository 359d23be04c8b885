/**
 * The four clients measured side by side, each pointed at the loopback server of server.mjs, each
 * making the same call: GET one invoice and hand back the parsed record.
 *
 * - `fetch`: raw `fetch()` + `JSON.parse` (the baseline; no validation, no retries);
 * - `invoicing-sdk`: `client.invoices.retrieve(id)` from the built package (dist/), which validates
 *   the response;
 * - `openai`: `client.get('/invoices/:id')` through its `baseURL`;
 * - `stripe`: `stripe.invoices.retrieve(id)` through its `host`, `port` and `protocol` options.
 *
 * Used in-process by per-call.mjs and, one per new process, by cold-child.mjs.
 */
export const KINDS = ['fetch', 'invoicing-sdk', 'openai', 'stripe'];

export const INVOICE_ID = 'inv_01J9Z8Q4K30000';
const API_KEY = 'sk_live_bench_0123456789abcdef';

/** Imports and constructs one client; resolves `{ get(): Promise<record>, list?(): Promise<records> }`. */
export async function makeClient(kind, origin) {
  const { hostname, port } = new URL(origin);
  switch (kind) {
    case 'fetch':
      return {
        get: async () => JSON.parse(await (await fetch(`${origin}/raw/invoices/${INVOICE_ID}`)).text()),
        list: async () => JSON.parse(await (await fetch(`${origin}/raw/invoices/list`)).text()).data,
      };
    case 'invoicing-sdk': {
      const { InvoicingClient } = await import('invoicing-sdk');
      const client = new InvoicingClient({ baseUrl: origin, apiKey: API_KEY, maxRetries: 0, logLevel: 'error' });
      return {
        get: () => client.invoices.retrieve(INVOICE_ID),
        list: async () => (await client.invoices.list({ limit: 100 })).data,
      };
    }
    case 'openai': {
      const { default: OpenAI } = await import('openai');
      const client = new OpenAI({ apiKey: API_KEY, baseURL: `${origin}/openai/v1`, maxRetries: 0 });
      return { get: () => client.get(`/invoices/${INVOICE_ID}`) };
    }
    case 'stripe': {
      const { default: Stripe } = await import('stripe');
      const stripe = new Stripe(API_KEY, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
      return { get: () => stripe.invoices.retrieve(INVOICE_ID) };
    }
    default:
      throw new Error(`unknown client ${kind}`);
  }
}
