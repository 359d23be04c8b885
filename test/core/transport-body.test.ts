/**
 * The body the transport reads once per attempt: the SDK parses the text it decoded while reading,
 * and the `Response` handed to `asResponse()` / `withResponse()` carries exactly the bytes and
 * headers the server sent (whatever their encoding), unread; a response a caller's afterResponse
 * hook substitutes is the one parsed.
 */
import { describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import { API_KEY, envelope, invoiceRecord, recordingLogger, useLoopbackServers } from './support.js';

const loopback = useLoopbackServers();

const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof InvoicingClient>[0]> = {}) =>
  new InvoicingClient({ baseUrl, apiKey: API_KEY, logger: recordingLogger(), maxRetries: 0, ...extra });

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('core/transport response body', () => {
  it.each([
    ['JSON with a content-type', json(envelope(invoiceRecord({ id: 'inv_1', buyer: { name: 'Zoë Ltd ✓' } }))), 'application/json'],
    ['JSON behind a byte order mark', Buffer.concat([BOM, json(envelope(invoiceRecord({ id: 'inv_1' })))]), 'application/json'],
    ['JSON without a content-type', json(envelope(invoiceRecord({ id: 'inv_1' }))), undefined],
  ])('parses %s and hands back the bytes as sent', async (_name, body, contentType) => {
    const baseUrl = await loopback((_req, res) => {
      res.writeHead(200, { ...(contentType ? { 'content-type': contentType } : {}), 'content-length': body.length });
      res.end(body);
    });
    const { data, response } = await client(baseUrl).invoices.retrieve('inv_1').withResponse();
    expect(data.id).toBe('inv_1');
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('content-type')).toBe(contentType ?? null);
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });

  it('keeps bytes that are not UTF-8 as sent in the raw response', async () => {
    // Latin-1 "Zoë" inside the record: not valid UTF-8.
    const body = Buffer.concat([
      Buffer.from('{"success":true,"data":{"id":"inv_1","status":"Draft","note":"Zo'),
      Buffer.from([0xeb]),
      Buffer.from('"}}'),
    ]);
    const baseUrl = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    const { data, response } = await client(baseUrl).invoices.retrieve('inv_1').withResponse();
    expect(data.id).toBe('inv_1');
    expect((data.raw as { note: string }).note).toBe('Zo\uFFFD');
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });

  it('reads the response a caller afterResponse hook substitutes', async () => {
    const baseUrl = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(envelope(invoiceRecord({ id: 'inv_1', status: 'Draft' }))));
    });
    const substituted = JSON.stringify(envelope(invoiceRecord({ id: 'inv_1', status: 'Signed' })));
    const invoice = await client(baseUrl, {
      hooks: { afterResponse: [({ response }) => new Response(substituted, { status: 200, headers: response.headers })] },
    }).invoices.retrieve('inv_1');
    expect(invoice.status).toBe('SIGNED');
  });

  it('logs the response line at debug level', async () => {
    const baseUrl = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_42' });
      res.end(JSON.stringify(envelope(invoiceRecord({ id: 'inv_1' }))));
    });
    const logger = recordingLogger();
    await client(baseUrl, { logger, logLevel: 'debug' }).invoices.retrieve('inv_1');
    expect(logger.lines.some((line) => line.includes('← 200 GET /api/v1/invoices/inv_1') && line.includes('req_42'))).toBe(true);
  });
});
