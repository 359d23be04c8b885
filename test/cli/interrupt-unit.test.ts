import { describe, expect, it } from 'vitest';
import { FilingInterrupt, isAbort, shellQuote } from '../../src/cli/interrupt.js';

const CREATE = 'http://127.0.0.1:1/api/v1/invoices';
const post = (key: string): RequestInit => ({ method: 'POST', headers: { 'idempotency-key': key }, body: '{}' });

function counting() {
  const sent: string[] = [];
  const base = async (input: string | URL | Request, init?: RequestInit) => {
    sent.push(`${init?.method ?? 'GET'} ${String(input)} ${new Headers(init?.headers).get('idempotency-key') ?? ''}`.trim());
    return new Response('{}');
  };
  return { sent, interrupt: new FilingInterrupt(base) };
}

describe('cli/interrupt FilingInterrupt', () => {
  it('sends every request until Ctrl-C', async () => {
    const { sent, interrupt } = counting();
    await interrupt.fetch(CREATE, post('k1'));
    await interrupt.fetch('http://127.0.0.1:1/api/v1/invoices/inv_1/submit', { method: 'POST' });
    expect(sent).toEqual([`POST ${CREATE} k1`, 'POST http://127.0.0.1:1/api/v1/invoices/inv_1/submit']);
    expect(interrupt.inFlight).toBe(1);
    expect(interrupt.wasSent('k1')).toBe(true);
  });

  it('after Ctrl-C holds a new create unsent, still sends the in-flight invoice\'s requests, and aborts once it settles', async () => {
    const { sent, interrupt } = counting();
    await interrupt.fetch(CREATE, post('k1'));
    expect(interrupt.press()).toBe('stopping');
    expect(interrupt.signal.aborted).toBe(false);

    let held: unknown = 'pending';
    const newCreate = interrupt.fetch(CREATE, post('k2')).then(
      () => 'sent',
      (err: unknown) => err,
    );
    void newCreate.then((v) => (held = v));
    // The invoice in flight: a retry of its create and its transitions still go out.
    await interrupt.fetch(CREATE, post('k1'));
    await interrupt.fetch('http://127.0.0.1:1/api/v1/invoices/inv_1/sign', { method: 'POST' });
    await new Promise((r) => setTimeout(r, 10));
    expect(held).toBe('pending');
    expect(sent.filter((l) => l.endsWith('k2'))).toEqual([]);

    interrupt.settle('k1');
    expect(interrupt.signal.aborted).toBe(true);
    // Rejected with the run's abort reason; the transport reports it as the caller's abort.
    expect(String(await newCreate)).toContain('Interrupted (Ctrl-C)');
    expect(sent.filter((l) => l.endsWith('k2'))).toEqual([]);
    expect(interrupt.wasSent('k2')).toBe(false);
  });

  it('ends at once on Ctrl-C with nothing in flight, and on a second Ctrl-C', () => {
    const idle = new FilingInterrupt(async () => new Response('{}'));
    expect(idle.press()).toBe('aborted');
    expect(idle.signal.aborted).toBe(true);

    const busy = counting().interrupt;
    void busy.fetch(CREATE, post('k1'));
    expect(busy.press()).toBe('stopping');
    expect(busy.press()).toBe('aborted');
    expect(busy.signal.aborted).toBe(true);
  });

  it('releases a held create when its own request signal aborts (a per-attempt timeout)', async () => {
    const { interrupt } = counting();
    await interrupt.fetch(CREATE, post('k1'));
    interrupt.press();
    const timeout = new AbortController();
    const held = interrupt.fetch(CREATE, { ...post('k9'), signal: timeout.signal });
    timeout.abort(new Error('timed out'));
    await expect(held).rejects.toThrow('timed out');
  });
});

describe('cli/interrupt helpers', () => {
  it('recognises an abort by name anywhere in the cause chain', () => {
    const abort = Object.assign(new Error('aborted'), { name: 'APIUserAbortError' });
    expect(isAbort(abort)).toBe(true);
    expect(isAbort(new Error('Filing stopped at create', { cause: abort }))).toBe(true);
    expect(isAbort(new Error('refused'))).toBe(false);
  });

  it('quotes arguments the way a POSIX shell reads them back', () => {
    expect(shellQuote('batch.ndjson')).toBe('batch.ndjson');
    expect(shellQuote('--concurrency')).toBe('--concurrency');
    expect(shellQuote('my invoices/*.json')).toBe("'my invoices/*.json'");
    expect(shellQuote("o'brien.json")).toBe("'o'\\''brien.json'");
  });
});
