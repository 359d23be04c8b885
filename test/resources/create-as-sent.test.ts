import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, sampleInput, startSandbox } from '../filing/helpers.js';

// create() sends JSON.stringify(input): it checks that, not fields a prototype supplies.
describe('invoices.create checks what it sends', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('refuses an invoice whose fields are inherited, sending nothing, and says why', async () => {
    sandbox = await startSandbox();
    const draft = Object.create(sampleInput(sandbox)) as ReturnType<typeof sampleInput>;

    const err = await clientOf(sandbox).invoices.create(draft).catch((e: unknown) => e);

    expect(err).toMatchObject({ name: 'InvoiceCheckError' });
    const report = (err as { report: { errors: { code: string; path: unknown[]; hint?: string }[] } }).report;
    expect(report.errors.find((i) => i.path[0] === 'businessId')).toMatchObject({ code: 'FIELD_REQUIRED', hint: expect.stringMatching(/inherited/) });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('files a class instance whose fields are its own', async () => {
    sandbox = await startSandbox();
    class Draft {
      constructor(readonly input: ReturnType<typeof sampleInput>) {}
      toJSON() {
        return this.input;
      }
    }

    const invoice = await clientOf(sandbox).invoices.create(new Draft(sampleInput(sandbox)) as never);

    expect(invoice.status).toBe('DRAFT');
    expect(sandbox.invoices.count).toBe(1);
  });
});
