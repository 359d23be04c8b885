import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { caller, fileInvoice, HOUR, MINUTE } from './helpers.js';

const opened: Sandbox[] = [];
async function open(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ listen: false, msw: false, ...options });
  opened.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  vi.useRealTimers();
  for (const s of opened.splice(0)) await s.close();
});

/** Files an invoice and lets the authority answer; its status in the service's spelling. */
async function fileAndAnswer(sandbox: Sandbox): Promise<string | undefined> {
  const id = await fileInvoice(caller(sandbox, sandbox.fetch), sandbox.businessId);
  sandbox.clock.advance(5_000);
  return sandbox.invoices.get(id)?.status;
}

describe('testing/sandbox reset()', () => {
  it('drops a sandbox-wide scenario and a rule, back to the option', async () => {
    const sandbox = await open();
    sandbox.setScenario('offline');
    expect(await fileAndAnswer(sandbox)).toBe('Error');
    sandbox.reset();
    expect(await fileAndAnswer(sandbox)).toBe('Accepted');

    sandbox.setScenario(() => 'rejected');
    sandbox.reset();
    expect(await fileAndAnswer(sandbox)).toBe('Accepted');

    const offline = await open({ scenario: 'offline' });
    offline.setScenario('accepted');
    offline.reset();
    expect(await fileAndAnswer(offline)).toBe('Error');
  });

  it('drops per-invoice scenarios with the invoices, faults and the request log; keeps the identities', async () => {
    const sandbox = await open();
    const call = caller(sandbox, sandbox.fetch);
    const id = await fileInvoice(call, sandbox.businessId, ['validate', 'sign']);
    sandbox.setScenario(id, 'field-error');
    sandbox.faults.inject({ path: '/invoices', kind: 'status', status: 503, times: Infinity });
    const { apiKey, sessionToken, businessId } = sandbox;
    sandbox.reset();
    expect(sandbox.invoices.count).toBe(0);
    expect(sandbox.requests).toEqual([]);
    expect(() => sandbox.setScenario(id, 'offline')).toThrow(`No sandbox invoice ${id}`);
    expect([sandbox.apiKey, sandbox.sessionToken, sandbox.businessId]).toEqual([apiKey, sessionToken, businessId]);
    expect((await call('GET', '/api/v1/invoices')).status).toBe(200);
  });

  it('puts the clock back to real time at scale 1', async () => {
    const sandbox = await open();
    sandbox.clock.advance(25 * HOUR);
    sandbox.clock.timeScale = 0;
    sandbox.reset();
    expect(sandbox.clock.timeScale).toBe(1);
    expect(Math.abs(sandbox.clock.now() - Date.now())).toBeLessThan(1_000);
  });

  it('puts the clock back to the now and timeScale options where they were given', async () => {
    const sandbox = await open({ now: '2026-03-01T10:00:00Z', timeScale: 0 });
    sandbox.clock.advance(10 * MINUTE);
    sandbox.clock.timeScale = 600;
    sandbox.reset();
    expect(sandbox.clock.iso()).toBe('2026-03-01T10:00:00.000Z');
    expect(sandbox.clock.timeScale).toBe(0);
  });

  it('follows fake timers, and real time again once they are restored', async () => {
    const sandbox = await open();
    vi.useFakeTimers();
    await vi.advanceTimersByTimeAsync(HOUR);
    sandbox.reset();
    expect(sandbox.clock.now()).toBe(Date.now()); // the faked Date, an hour ahead
    vi.useRealTimers();
    sandbox.reset();
    expect(Math.abs(sandbox.clock.now() - Date.now())).toBeLessThan(1_000);
  });
});
