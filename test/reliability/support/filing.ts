/**
 * The filing calls of a client, as the reliability suites use them, and a clock whose pauses take
 * no real time.
 */
import type { InvoicingClient } from '../../../src/client.js';
import type { WaitClock } from '../../../src/filing/clock.js';
import { createAndFile, resumeFiling, type CreateAndFileOptions, type FilingResult, type ResumeFilingOptions } from '../../../src/filing/file.js';
import { fileMany, type FileManyOptions, type FileManyResult } from '../../../src/filing/file-many.js';
import { waitFor, type WaitOptions, type WaitResult } from '../../../src/filing/wait.js';
import type { InvoiceCreateParams } from '../../../src/schemas/invoice-input.js';
import type { Sandbox } from '../../../src/testing/index.js';

/** `client.invoices.createAndFile / resumeFiling / waitFor / fileMany`. */
export interface FilingCalls {
  createAndFile(input: InvoiceCreateParams, opts?: CreateAndFileOptions): Promise<FilingResult>;
  resumeFiling(id: string, opts?: ResumeFilingOptions): Promise<FilingResult>;
  waitFor(id: string, opts?: WaitOptions): Promise<WaitResult>;
  fileMany(inputs: InvoiceCreateParams[], opts?: FileManyOptions): Promise<FileManyResult[]>;
}

/** The filing calls of `client`. */
export function filingOf(client: InvoicingClient): FilingCalls {
  const api = client.invoices;
  return {
    createAndFile: (input, opts) => createAndFile(api, input, opts),
    resumeFiling: (id, opts) => resumeFiling(api, id, opts),
    waitFor: (id, opts) => waitFor(api, id, opts),
    fileMany: (inputs, opts) => fileMany(api, inputs, opts),
  };
}

/**
 * A clock for the filing helpers whose pauses advance the sandbox's clock instead of waiting, so
 * backoff and `Retry-After` cost no real time while the service sees them pass. Each pause still
 * yields to the event loop, so the loopback server keeps serving.
 */
export function sandboxWaitClock(sandbox: Sandbox): WaitClock & { slept: number } {
  const clock = {
    slept: 0,
    now: () => sandbox.clock.now(),
    sleep: async (ms: number, signal?: AbortSignal): Promise<void> => {
      if (signal?.aborted) throw signal.reason;
      clock.slept += Math.max(0, ms);
      sandbox.clock.advance(Math.max(0, ms));
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  return clock;
}
