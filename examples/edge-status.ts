/**
 * An edge or serverless function that files a draft and reports an invoice's status, with
 * `InvoicingClient`. `create()` runs the local checks first, so a bad invoice is refused before
 * anything is sent.
 *
 * The handler has the Fetch API shape (`Request` in, `Response` out) that Cloudflare Workers, Vercel
 * and Deno Deploy use; `main()` calls it directly, as a platform would.
 *
 * Environment:
 *   INVOICING_BASE_URL     origin of the service (the SDK adds /api/v1)
 *   INVOICING_API_KEY      a USER key with invoices:read and invoices:write
 *   INVOICING_BUSINESS_ID  the business the invoice belongs to
 *
 * Run it against the embedded sandbox from a clone: npm run examples -- edge-status
 */
import { deriveIdempotencyKey, InvoicingClient, isInvoicingError, isNotFoundError, type InvoiceCreateParams } from 'invoicing-sdk';

function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`Set ${name} (see the header of this file).`);
  return value;
}

// One client per process (or per isolate): it holds no connection, only resolved options.
const client = new InvoicingClient();

/** GET /status?id=… answers the invoice's status; POST /file files the JSON body (an invoice). */
async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (request.method === 'GET' && url.pathname === '/status') {
      const invoice = await client.invoices.retrieve(url.searchParams.get('id') ?? '');
      return Response.json({ id: invoice.id, status: invoice.status, total: invoice.total });
    }
    if (request.method === 'POST' && url.pathname === '/file') {
      const input = (await request.json()) as InvoiceCreateParams;
      // A key derived from your own document number: a retried request finds the same draft.
      const idempotencyKey = deriveIdempotencyKey(input.businessId, url.searchParams.get('ref') ?? '');
      const draft = await client.invoices.create(input, { idempotencyKey });
      await client.invoices.validate(draft.id);
      await client.invoices.sign(draft.id);
      const submitted = await client.invoices.submit(draft.id);
      return Response.json({ id: submitted.id, status: submitted.status }, { status: 201 });
    }
    return Response.json({ error: 'not found' }, { status: 404 });
  } catch (err) {
    if (isNotFoundError(err)) return Response.json({ error: err.message }, { status: 404 });
    // InvoiceCheckError (refused locally), BadRequestError, …: the message and hint say what to fix.
    if (isInvoicingError(err)) return Response.json({ error: err.message, hint: err.hint }, { status: 422 });
    throw err;
  }
}

async function main(): Promise<void> {
  const businessId = requireEnv('INVOICING_BUSINESS_ID');
  const invoice: InvoiceCreateParams = {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: 'Acme Ltd', email: 'accounts@acme.example' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [{ description: 'Support plan, December', quantity: 1, unitPrice: 120, taxRate: 7.5, isicCode: '6202' }],
  };
  const post = (path: string, body: unknown) =>
    handle(new Request(`https://edge.example${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));

  const filed = await post('/file?ref=EDGE-2026-0007', invoice);
  const { id, status } = (await filed.json()) as { id: string; status: string };
  console.log(`POST /file → ${filed.status}: invoice ${id} ${status}`);

  const read = await handle(new Request(`https://edge.example/status?id=${encodeURIComponent(id)}`));
  console.log(`GET /status → ${read.status}: ${JSON.stringify(await read.json())}`);

  // A line without a classification code is refused by the checks; nothing reaches the service.
  const bad = await post('/file?ref=EDGE-2026-0008', { ...invoice, lines: [{ description: 'Mystery item', quantity: 1, unitPrice: 5, taxRate: 7.5 }] });
  const refused = (await bad.json()) as { error: string };
  console.log(`POST /file (no code) → ${bad.status}: ${refused.error.split('\n')[0]}`);

  const missing = await handle(new Request('https://edge.example/status?id=inv_does_not_exist'));
  console.log(`GET /status (unknown id) → ${missing.status}`);
  if (filed.status !== 201 || read.status !== 200 || bad.status !== 422 || missing.status !== 404) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(isInvoicingError(err) && err.hint ? `${err.message}\nhint: ${err.hint}` : err);
  process.exitCode = 1;
});
