import { describe, expect, it } from 'vitest';
import { parseJsonSafely } from '../../src/core/safe-json.js';
import { API, http, HttpResponse, testClient, useMswServer } from './support.js';

const server = useMswServer();

const POISON = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';

describe('core/safe-json', () => {
  it('drops __proto__ and constructor keys at every depth and keeps the rest', () => {
    const parsed = parseJsonSafely(`{"a":1,"__proto__":{"x":1},"nested":[{"constructor":{"prototype":{}},"b":2}]}`) as Record<string, unknown>;
    expect(parsed).toEqual({ a: 1, nested: [{ b: 2 }] });
    expect(Object.hasOwn(parsed, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(() => parseJsonSafely('{oops')).toThrow(SyntaxError);
  });

  it('reads a poisoned success body without a prototype from the data', async () => {
    server.use(
      http.get(`${API}/invoices/inv_1`, () =>
        new HttpResponse(`{"success":true,"data":{"id":"inv_1","status":"draft",${POISON.slice(1)}},"timestamp":"2026-11-25T00:00:00Z"}`, {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    const { data, response } = await testClient().invoices.retrieve('inv_1').withResponse();
    expect(data.id).toBe('inv_1');
    const raw = data.raw as Record<string, unknown>;
    expect(Object.hasOwn(raw, '__proto__')).toBe(false);
    expect(Object.hasOwn(raw, 'constructor')).toBe(false);
    // Copying the record the usual ways leaves every prototype alone.
    const copy = Object.assign({}, raw) as Record<string, unknown>;
    expect(copy.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(response.status).toBe(200);
  });

  it('reads a poisoned error body the same way, JSON content type or not', async () => {
    for (const type of ['application/json', 'text/plain']) {
      server.use(
        http.get(`${API}/invoices/bad`, () =>
          new HttpResponse(`{"message":"Bad thing",${POISON.slice(1)}}`, { status: 400, headers: { 'content-type': type } }),
        ),
      );
      const error = (await testClient().invoices.retrieve('bad').catch((e: unknown) => e)) as { body: Record<string, unknown>; message: string };
      expect(error.message).toBe('Bad thing');
      expect(Object.hasOwn(error.body, '__proto__')).toBe(false);
      expect(Object.hasOwn(error.body, 'constructor')).toBe(false);
      expect((Object.assign({}, error.body) as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});
