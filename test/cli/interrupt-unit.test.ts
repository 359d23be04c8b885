import { describe, expect, it } from 'vitest';
import { FilingInterrupt, shellQuote } from '../../src/cli/interrupt.js';

describe('cli/interrupt FilingInterrupt', () => {
  it('stops new work on the first Ctrl-C and aborts on the second', () => {
    const interrupt = new FilingInterrupt();
    expect(interrupt.interrupted).toBe(false);
    expect(interrupt.press()).toBe('stopping');
    expect(interrupt.interrupted).toBe(true);
    expect(interrupt.stopSignal.aborted).toBe(true);
    expect(interrupt.signal.aborted).toBe(false);
    expect(interrupt.press()).toBe('aborted');
    expect(interrupt.signal.aborted).toBe(true);
  });

  it('counts the invoices started and not settled as in flight', () => {
    const interrupt = new FilingInterrupt();
    interrupt.start(0);
    interrupt.start(0);
    interrupt.start(3);
    expect(interrupt.inFlight).toBe(2);
    interrupt.settle(0);
    expect(interrupt.inFlight).toBe(1);
  });
});

describe('cli/interrupt helpers', () => {
  it('quotes arguments the way a POSIX shell reads them back', () => {
    expect(shellQuote('batch.ndjson')).toBe('batch.ndjson');
    expect(shellQuote('--concurrency')).toBe('--concurrency');
    expect(shellQuote('my invoices/*.json')).toBe("'my invoices/*.json'");
    expect(shellQuote("o'brien.json")).toBe("'o'\\''brien.json'");
  });
});
