/**
 * maxResponseBytes over a real socket: a body larger than the bound, declared or not, and a small
 * gzip body that inflates past it, end in ResponseTooLargeError, read only up to the bound and
 * never retried.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InvoicingClient } from '../../src/client.js';
import { isResponseTooLargeError } from '../../src/core/errors.js';
import { CLIENT_DEFAULTS } from '../../src/core/options.js';
import { API_KEY, envelope, invoiceRecord, recordingLogger, useLoopbackServers } from './support.js';

const loopback = useLoopbackServers();

const client = (baseUrl: string, maxResponseBytes: number) =>
  new InvoicingClient({ baseUrl, apiKey: API_KEY, logger: recordingLogger(), maxResponseBytes, maxRetries: 2 });

describe('core/transport maxResponseBytes', () => {
  it('has a documented default of 32 MiB', () => {
    expect(CLIENT_DEFAULTS.maxResponseBytes.value).toBe(32 * 1024 * 1024);
  });

  it('stops reading a streamed body past the bound, without retrying', async () => {
    let requests = 0;
    let written = 0;
    const baseUrl = await loopback((_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,"data":"');
      // Far more than the bound, in chunks, with no content-length.
      const chunk = 'x'.repeat(16 * 1024);
      const timer = setInterval(() => {
        if (res.destroyed || written > 8 * 1024 * 1024) {
          clearInterval(timer);
          res.end();
          return;
        }
        written += chunk.length;
        res.write(chunk);
      }, 1);
    });
    const error = await client(baseUrl, 64 * 1024).invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ status: 200, limit: 64 * 1024, path: '/api/v1/invoices/inv_1' });
    expect(requests).toBe(1);
    // It stopped early instead of reading everything the server was willing to send.
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });

  it('refuses a declared content-length over the bound before reading', async () => {
    const baseUrl = await loopback((_req, res) => {
      const body = JSON.stringify(envelope(invoiceRecord({ note: 'y'.repeat(200_000) })));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    const error = await client(baseUrl, 100_000).invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect(isResponseTooLargeError(error)).toBe(true);
  });

  it('bounds a gzip body by its inflated size', async () => {
    const inflated = JSON.stringify(envelope(invoiceRecord({ note: '0'.repeat(4 * 1024 * 1024) })));
    const gz = gzipSync(inflated);
    expect(gz.length).toBeLessThan(64 * 1024);
    const baseUrl = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gz.length });
      res.end(gz);
    });
    const error = await client(baseUrl, 256 * 1024).invoices.retrieve('inv_1').catch((e: unknown) => e);
    expect(isResponseTooLargeError(error)).toBe(true);
    // Under the bound, the same body is read.
    const invoice = await client(baseUrl, 8 * 1024 * 1024).invoices.retrieve('inv_1');
    expect(invoice.id).toBe('inv_1');
  });
});
