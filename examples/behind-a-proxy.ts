/**
 * Run behind an HTTP proxy: every request of the SDK goes through the proxy your network requires.
 *
 * The client sends its requests with `fetch`. Two ways to route them through a proxy:
 *
 * - `fetchOptions: { dispatcher: new ProxyAgent('http://proxy:3128') }` with undici's ProxyAgent
 *   (`npm install undici`): the usual choice on Node, for https:// services (CONNECT tunnels) and
 *   mTLS. See docs/proxy.md.
 * - `fetch`: your own function with the signature of the global fetch. This script uses one built
 *   on node:http that talks to the proxy the way a forward proxy carries plain http:// traffic
 *   (the target's absolute URL in the request line, `Proxy-Authorization` for the proxy), so it
 *   needs no dependency and runs against the sandbox's http:// loopback address.
 *
 * It starts a tiny forward proxy on a loopback port, which checks its credentials, forwards to the
 * service and counts what passes. The client adds a header of its own to every request
 * (`defaultHeaders`) and counts the answers it sees (`hooks.afterResponse`); at the end the two
 * counts must agree: nothing bypassed the proxy.
 *
 * Environment:
 *   INVOICING_BASE_URL, INVOICING_API_KEY, INVOICING_BUSINESS_ID
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- behind-a-proxy
 * Guide: docs/proxy.md
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { InvoicingClient, type Fetch, type InvoiceCreateParams } from 'invoicing-sdk';

const PROXY_CREDENTIALS = `Basic ${Buffer.from('billing:proxy-password').toString('base64')}`;

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

interface Proxy {
  url: URL;
  /** `METHOD /path` of every request forwarded. */
  forwarded: string[];
  /** Requests refused for lack of proxy credentials. */
  refused: number;
  /** Header names the service received on the last request (values are not kept: one is the API key). */
  lastHeaders: string[];
  server: Server;
}

/** A minimal forward proxy for http:// targets, on a random loopback port. */
async function startProxy(): Promise<Proxy> {
  const proxy: Proxy = { url: new URL('http://127.0.0.1'), forwarded: [], refused: 0, lastHeaders: [], server: createServer() };
  proxy.server.on('request', (req, res) => {
    if (req.headers['proxy-authorization'] !== PROXY_CREDENTIALS) {
      proxy.refused += 1;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    // A forward proxy is asked for the target's absolute URL: GET http://host:port/path HTTP/1.1.
    const target = new URL(req.url ?? '');
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
    delete headers['proxy-authorization']; // meant for the proxy, never forwarded
    delete headers['proxy-connection'];
    proxy.forwarded.push(`${req.method} ${target.pathname}`);
    proxy.lastHeaders = Object.keys(headers).sort();
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  proxy.url.port = String((proxy.server.address() as AddressInfo).port);
  return proxy;
}

/**
 * A `fetch` that sends every request to `proxy` as a forward-proxy request. Enough for http://
 * targets; an https:// service needs a CONNECT tunnel, which undici's ProxyAgent does for you.
 */
function fetchThroughProxy(proxy: URL, proxyAuthorization: string): Fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = { ...Object.fromEntries(request.headers), 'proxy-authorization': proxyAuthorization };
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    return new Promise<Response>((resolve, reject) => {
      const req = httpRequest(
        { host: proxy.hostname, port: proxy.port, method: request.method, path: request.url, headers, signal: request.signal },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const noBody = request.method === 'HEAD' || status === 204 || status === 304;
          if (noBody) res.resume();
          const stream = noBody ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders }));
        },
      );
      // As the global fetch does: a network failure is a TypeError, an abort rejects with the signal's reason.
      req.on('error', (err) => reject(request.signal.aborted ? request.signal.reason : new TypeError('fetch failed', { cause: err })));
      req.end(body);
    });
  };
}

async function main(): Promise<void> {
  const proxy = await startProxy();
  try {
    let answers = 0;
    const client = new InvoicingClient({
      // INVOICING_BASE_URL and INVOICING_API_KEY are read from the environment, as usual.
      fetch: fetchThroughProxy(proxy.url, PROXY_CREDENTIALS),
      defaultHeaders: { 'x-client-name': 'billing-worker' },
      hooks: {
        afterResponse: [
          () => {
            answers += 1;
          },
        ],
      },
    });

    const input: InvoiceCreateParams = {
      businessId: requireEnv('INVOICING_BUSINESS_ID'),
      buyer: { type: 'B2B', tin: '20456789-0001', name: 'Acme Ltd' },
      dueDate: '2026-12-31T00:00:00Z',
      lines: [{ description: 'Support contract', quantity: 1, unitPrice: 1200, taxRate: 7.5, isicCode: '6202' }],
    };
    const { invoice } = await client.invoices.createAndFile(input, { externalRef: 'PROXY-2026-0001' });
    console.log(`Filed ${invoice.id}: ${invoice.status}`);
    // A route the SDK does not wrap goes the same way, with the same headers and hooks.
    const { response, requestId } = await client.get(`/api/v1/invoices/${invoice.id}`).withResponse();
    console.log(`GET through client.get: ${response.status} (request id ${requestId ?? 'none'})`);

    console.log(`\nThe proxy forwarded ${proxy.forwarded.length} request(s):`);
    for (const line of proxy.forwarded) console.log(`  ${line}`);
    console.log(`Headers the service received: ${proxy.lastHeaders.join(', ')}`);
    console.log(`Answers seen by hooks.afterResponse: ${answers}; refused by the proxy: ${proxy.refused}.`);

    // Without the proxy's credentials the proxy answers 407, a typed APIError like any other.
    const stranger = new InvoicingClient({ fetch: fetchThroughProxy(proxy.url, 'Basic bm9ib2R5Og=='), maxRetries: 0 });
    const refused = await stranger.invoices.retrieve(invoice.id).then(
      () => 'answered (unexpected)',
      (err: unknown) => (err instanceof Error ? `${err.name}, status ${(err as { status?: number }).status}` : String(err)),
    );
    console.log(`Without proxy credentials: ${refused}`);

    const ok = answers === proxy.forwarded.length && proxy.forwarded.length > 0 && proxy.refused === 1;
    console.log(ok ? 'Every request went through the proxy.' : 'Some requests did not go through the proxy!');
    if (!ok) process.exitCode = 1;
  } finally {
    proxy.server.closeAllConnections();
    await new Promise((resolve) => proxy.server.close(resolve));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
