/**
 * The loopback server every side-by-side benchmark talks to: node:http in a child process (so its
 * work is not timed with the client's), answering the same invoice record to every client:
 *
 * - `/api/v1/invoices/:id` and `/api/v1/invoices?…`: the service's envelope (invoicing-sdk);
 * - any other path (`/v1/invoices/:id` for stripe, `/openai/v1/invoices/:id` for openai, `/raw/…`
 *   for raw fetch): the bare record, or a page of 100 records for a path with `list`.
 *
 * Not the sandbox: the figures are each client's own cost, not the emulated service's.
 *
 *   const server = await startServer(); … server.origin …; server.stop();
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/** A stored invoice as the service returns it (the shape the SDK reads through its field aliases). */
export function invoiceRecord(i = 0) {
  return {
    id: `inv_01J9Z8Q4K3${String(i).padStart(4, '0')}`,
    businessId: 'biz_123',
    status: 'Submitted',
    buyer: { type: 'B2B', tin: '12345678-0001', name: 'Acme Ltd', email: 'ap@acme.example' },
    dueDate: '2026-12-31T00:00:00Z',
    lines: [
      { description: 'Consulting', quantity: 10, unitPrice: 150, taxRate: 7.5, isicCode: '6202' },
      { description: 'Laptop', quantity: 1, unitPrice: 1299.99, taxRate: 7.5, hsnCode: '8471.30' },
    ],
    subtotal: '2799.99',
    taxTotal: '210.00',
    total: '3009.99',
    createdAt: '2026-11-01T09:00:00Z',
    updatedAt: '2026-11-01T09:05:00Z',
  };
}

export const PAGE_SIZE = 100;

function serve() {
  const timestamp = '2026-11-01T09:05:01.000Z';
  const page = Array.from({ length: PAGE_SIZE }, (_, i) => invoiceRecord(i));
  const bodies = {
    one: JSON.stringify({ success: true, data: invoiceRecord(), timestamp }),
    list: JSON.stringify({ success: true, data: page, meta: { total: PAGE_SIZE, page: 1, limit: PAGE_SIZE, totalPages: 1 }, timestamp }),
    rawOne: JSON.stringify(invoiceRecord()),
    rawList: JSON.stringify({ object: 'list', data: page, has_more: false }),
  };
  const server = createServer((req, res) => {
    req.resume();
    const url = req.url ?? '/';
    const sdk = url.startsWith('/api/v1/');
    const list = sdk ? /^\/api\/v1\/invoices\/?(\?|$)/.test(url) : url.includes('list');
    const body = sdk ? (list ? bodies.list : bodies.one) : list ? bodies.rawList : bodies.rawOne;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'request-id': 'req_bench',
    });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
}

/** Starts the server in a child process; resolves `{ origin, stop() }`. */
export async function startServer() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: 'inherit', execArgv: [] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`loopback server exited (${code})`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}

if (process.argv.includes('--serve')) serve();
