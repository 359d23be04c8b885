import { describe, expect, it, vi } from 'vitest';

// msw is an optional peer dependency: without it the loopback server and sandbox.fetch still work,
// and only sandbox.handlers explains how to get it.
vi.mock('msw', () => {
  throw new Error("Cannot find package 'msw'");
});

describe('testing/createSandbox without msw installed', () => {
  it('listens, answers in-process, and says how to get handlers', async () => {
    const { createSandbox } = await import('../../src/testing/index.js');
    await using listening = await createSandbox();
    const res = await fetch(`${listening.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': listening.apiKey } });
    expect(res.status).toBe(200);

    await using offline = await createSandbox({ listen: false });
    const inProcess = await offline.fetch(`${offline.baseUrl}/api/v1/invoices`, { headers: { 'x-api-key': offline.apiKey } });
    expect(inProcess.status).toBe(200);
    expect(() => offline.handlers).toThrow(/needs msw.*npm i -D msw/);
  });
});
