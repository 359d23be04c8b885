import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/core/logger.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, sampleInput, sandboxClock, startSandbox } from './helpers.js';

/** A logger that keeps the lines it is given. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string) => void lines.push(message);
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

// A callback of the caller reports on the work; what it throws is the caller's bug, logged, and
// must never stop a filing half-way, turn a filed invoice into a failure, or lose a batch's results.
describe('filing callbacks (onStep, onProgress, onStatus) that throw', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('fileMany keeps every result right when onProgress throws, and logs it', async () => {
    sandbox = await startSandbox();
    const logger = recordingLogger();
    const client = clientOf(sandbox, { logger, logLevel: 'error' });
    const inputs = Array.from({ length: 6 }, (_, i) => sampleInput(sandbox, i));
    const seen: number[] = [];

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 2,
      externalRef: (_input, i) => `CB-${i}`,
      clock: sandboxClock(sandbox),
      onProgress: (p) => {
        seen.push(p.done);
        throw new Error(`progress bar broke at ${p.done}`);
      },
    });

    expect(results.map((r) => [r.index, r.ok])).toEqual(inputs.map((_, i) => [i, true]));
    expect(results.every((r) => r.ok && r.invoice.id.length > 0)).toBe(true);
    expect(sandbox.invoices.list().every((inv) => inv.submissions === 1)).toBe(true);
    expect(sandbox.invoices.count).toBe(6);
    // Counted once per input, never past the total.
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(logger.lines).toHaveLength(6);
    expect(logger.lines[0]).toMatch(/onProgress callback threw \(Error: progress bar broke at 1\)/);
  });

  it('fileMany does not resolve before the batch is done when onProgress throws for a failure', async () => {
    sandbox = await startSandbox();
    const client = clientOf(sandbox, { logger: recordingLogger(), logLevel: 'error' });
    const inputs = Array.from({ length: 5 }, (_, i) => sampleInput(sandbox, i));
    inputs[0] = { ...inputs[0]!, lines: [] }; // fails the local checks

    const results = await client.invoices.fileMany(inputs, {
      concurrency: 1,
      externalRef: (_input, i) => `CB-F-${i}`,
      clock: sandboxClock(sandbox),
      onProgress: (p) => {
        if (!p.result.ok) throw new Error('cannot draw a failure');
      },
    });

    expect(results.map((r) => r.ok)).toEqual([false, true, true, true, true]);
    expect(sandbox.invoices.count).toBe(4);
  });

  it('createAndFile files the invoice to the end when onStep throws', async () => {
    sandbox = await startSandbox();
    const logger = recordingLogger();
    const client = clientOf(sandbox, { logger, logLevel: 'error' });

    const { invoice, steps } = await client.invoices.createAndFile(sampleInput(sandbox), {
      clock: sandboxClock(sandbox),
      onStep: () => {
        throw new TypeError('x is undefined');
      },
    });

    expect(invoice.status).toBe('SUBMITTED');
    expect(steps.map((s) => s.step)).toEqual(['check', 'create', 'reconcile', 'validate', 'sign', 'submit']);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.every((l) => /onStep callback threw \(TypeError: x is undefined\)/.test(l))).toBe(true);
  });

  it('logs a callback whose promise rejects, without an unhandled rejection', async () => {
    sandbox = await startSandbox();
    const logger = recordingLogger();
    const client = clientOf(sandbox, { logger, logLevel: 'error' });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const results = await client.invoices.fileMany([sampleInput(sandbox)], {
        clock: sandboxClock(sandbox),
        onProgress: async () => {
          throw new Error('async progress failed');
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(results[0]?.ok).toBe(true);
      expect(logger.lines.some((l) => /onProgress callback threw \(Error: async progress failed\)/.test(l))).toBe(true);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('waitFor follows the invoice to the end when onStatus throws', async () => {
    sandbox = await startSandbox();
    const logger = recordingLogger();
    const client = clientOf(sandbox, { logger, logLevel: 'error' });
    const submitted = await draftThrough(client, sandbox, 'submitted');

    const { invoice } = await client.invoices.waitFor(submitted.id, {
      timeout: 600_000,
      clock: sandboxClock(sandbox),
      onStatus: () => {
        throw new Error('render failed');
      },
    });

    expect(invoice.rawStatus).toBe('Accepted');
    expect(logger.lines.some((l) => /onStatus callback threw \(Error: render failed\)/.test(l))).toBe(true);
  });

  it('never lets the secret through the log line of a callback that throws it', async () => {
    sandbox = await startSandbox();
    const logger = recordingLogger();
    const client = clientOf(sandbox, { logger, logLevel: 'error' });

    await client.invoices.createAndFile(sampleInput(sandbox), {
      clock: sandboxClock(sandbox),
      onStep: () => {
        throw new Error(`bad key ${sandbox.apiKey}`);
      },
    });

    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain(sandbox.apiKey);
  });
});
