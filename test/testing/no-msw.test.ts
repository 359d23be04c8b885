import Module from 'node:module';
import { afterAll, describe, expect, it, vi } from 'vitest';

// msw is an optional peer dependency: without it the loopback server and sandbox.fetch still work,
// and only sandbox.handlers explains how to get it. It is missing for both ways the sandbox loads
// it: import() at start ({ msw: true }), and require() on the first read of sandbox.handlers.
vi.mock('msw', () => {
  throw new Error("Cannot find package 'msw'");
});
const moduleLoader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = moduleLoader._load;
const load = vi.spyOn(moduleLoader, '_load').mockImplementation(function (this: unknown, request, ...rest) {
  if (request === 'msw') throw Object.assign(new Error("Cannot find module 'msw'"), { code: 'MODULE_NOT_FOUND' });
  return realLoad.call(this, request, ...rest);
});
afterAll(() => load.mockRestore());

describe('testing/createSandbox without msw installed', () => {
  it('listens, answers in-process, and says how to get handlers', async () => {
    const { createSandbox } = await import('../../src/testing/index.js');
    await using listening = await createSandbox();
    const res = await fetch(`${listening.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': listening.apiKey } });
    expect(res.status).toBe(200);
    expect(() => listening.handlers).toThrow(/needs msw.*Cannot find module 'msw'.*npm i -D msw/);
    // Node 22 passes a fourth argument to Module._load; the first three are what the sandbox chose.
    expect(load.mock.calls.map((call) => call.slice(0, 3))).toContainEqual(['msw', expect.anything(), false]);

    await using offline = await createSandbox({ listen: false });
    const inProcess = await offline.fetch(`${offline.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': offline.apiKey } });
    expect(inProcess.status).toBe(200);
    expect(() => offline.handlers).toThrow(/needs msw.*npm i -D msw/);
  });
});
