import { afterEach, describe, expect, it } from 'vitest';
import { FilingError, isFilingError } from '../../src/core/errors.js';
import { deriveIdempotencyKey } from '../../src/core/idempotency.js';
import type { FilingStepEvent } from '../../src/filing/file.js';
import type { Sandbox } from '../../src/testing/index.js';
import { clientOf, draftThrough, HOUR, sampleInput, sandboxClock, sends, startSandbox } from './helpers.js';

describe('filing/file (client.invoices.createAndFile / resumeFiling)', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  describe('createAndFile', () => {
    it('checks, creates, reconciles, validates, signs, submits and waits, reporting each step', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const events: string[] = [];

      const { invoice, steps, failure } = await client.invoices.createAndFile(sampleInput(sandbox), {
        externalRef: 'ORDER-1',
        wait: { timeout: 60_000 },
        clock: sandboxClock(sandbox),
        onStep: (e: FilingStepEvent) => events.push(`${e.step}:${e.state}`),
      });

      expect(invoice.rawStatus).toBe('Accepted');
      expect(failure).toBeUndefined();
      expect(steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
        'check:done', 'create:done', 'reconcile:done', 'validate:done', 'sign:done', 'submit:done', 'wait:done',
      ]);
      expect(events).toEqual([
        'check:started', 'check:done', 'create:started', 'create:done', 'reconcile:started', 'reconcile:done',
        'validate:started', 'validate:done', 'sign:started', 'sign:done', 'submit:started', 'submit:done',
        'wait:started', 'wait:done',
      ]);
      const key = deriveIdempotencyKey(sandbox.businessId, 'ORDER-1');
      expect(sends(sandbox, 'create')[0]?.idempotencyKey).toBe(key);
      // The create's key is not reused on the transitions.
      for (const step of ['validate', 'sign', 'submit'] as const) expect(sends(sandbox, step)[0]?.idempotencyKey).not.toBe(key);
    });

    it('stops at check with a FilingError whose typed cause is the InvoiceCheckError, before any request', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const input = sampleInput(sandbox);
      input.lines[0]!.hsnCode = '0000.00';

      const err = await client.invoices.createAndFile(input).catch((e: unknown) => e);

      expect(err).toBeInstanceOf(FilingError);
      const stop = err as FilingError;
      expect(stop).toMatchObject({ step: 'check', invoiceId: undefined });
      // `cause` is the SDK's error union: a check of its name narrows to the class.
      if (stop.cause.name !== 'InvoiceCheckError') throw new Error(`cause ${stop.cause.name}`);
      expect(stop.cause.report.errors.map((i) => i.path.join('.'))).toContain('lines.0.hsnCode');
      expect(stop.hint).toMatch(/^Nothing was sent\. Fix the issues in err\.cause\.report\.errors/);
      expect(sandbox.requests).toHaveLength(0);
    });

    it('stops at check with a FilingError whose cause is the InvalidInputError for cyclic input', async () => {
      sandbox = await startSandbox();
      const input = sampleInput(sandbox) as unknown as Record<string, unknown>;
      input.self = input;

      const err = await clientOf(sandbox).invoices.createAndFile(input as never).catch((e: unknown) => e);

      expect(err).toMatchObject({ name: 'FilingError', step: 'check', cause: { name: 'InvalidInputError', path: ['self'] } });
      expect(sandbox.requests).toHaveLength(0);
    });

    it('stops at reconcile with a FilingError whose cause is the TotalsMismatchError, and files nothing', async () => {
      sandbox = await startSandbox({ totals: (_input, correct) => ({ ...correct, total: '9999.99' }) });
      const client = clientOf(sandbox);

      const err = await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-2' }).catch((e: unknown) => e);

      expect(isFilingError(err)).toBe(true);
      const stop = err as FilingError;
      expect(stop.step).toBe('reconcile');
      expect(stop.invoiceId).toBe(sandbox.invoices.list()[0]?.id);
      if (stop.cause.name !== 'TotalsMismatchError') throw new Error(`cause ${stop.cause.name}`);
      expect(stop.cause.differences).toMatchObject([{ field: 'total', actual: '9999.99' }]);
      // The corrected version needs a key of its own: the hint names the next revision.
      expect(stop.hint).toContain("createAndFile(corrected, { externalRef: 'ORDER-2', revision: 1 })");
      const [stored] = sandbox.invoices.list();
      expect(stored?.status).toBe('draft');
      expect(sends(sandbox, 'validate')).toHaveLength(0);
      expect(sends(sandbox, 'sign')).toHaveLength(0);
      expect(sends(sandbox, 'submit')).toHaveLength(0);
    });

    it('skips the reconcile with a warning when the record carries no totals it can read, and stops only with requireTotals', async () => {
      sandbox = await startSandbox();
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
      const client = clientOf(sandbox, { fieldMap: { subtotal: 'nope', taxTotal: 'nope', total: 'nope' }, logger, logLevel: 'warn' });

      const err = await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-3', requireTotals: true }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'FilingError', step: 'reconcile' });
      expect(sends(sandbox, 'validate')).toHaveLength(0);

      const { steps } = await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-3' });
      expect(steps.find((s) => s.step === 'reconcile')).toMatchObject({ outcome: 'skipped' });
      expect(steps.map((s) => s.step)).toContain('submit');
      expect(warnings.some((w) => w.includes('carries no totals the SDK can read'))).toBe(true);
      expect(sandbox.invoices.count).toBe(1);
    });

    it('accepts a service that rounds tax per invoice (3 × 0.07 at 7.5 %: 0.02, per line 0.03)', async () => {
      sandbox = await startSandbox({ totalsRounding: 'invoice' });
      const client = clientOf(sandbox);
      const input = sampleInput(sandbox);
      const line = input.lines[0]!;
      input.lines = [1, 2, 3].map(() => ({ ...line, quantity: 1, unitPrice: 0.07, taxRate: 7.5 }));

      const { invoice, steps } = await client.invoices.createAndFile(input, { externalRef: 'ORDER-ROUND' });
      expect(invoice.taxTotal).toBe('0.02');
      expect(steps.find((s) => s.step === 'reconcile')).toMatchObject({ outcome: 'done' });
      // Told the service rounds per line, the same figures are a contradiction.
      const err = await client.invoices
        .createAndFile(input, { externalRef: 'ORDER-ROUND-2', totals: { rounding: 'line' } })
        .catch((e: unknown) => e);
      expect(isFilingError(err) && err.step === 'reconcile' && err.cause?.name === 'TotalsMismatchError').toBe(true);
    });

    it('continues from where an earlier run stopped when the key replays an invoice further along', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const input = sampleInput(sandbox);
      const key = deriveIdempotencyKey(sandbox.businessId, 'ORDER-4');
      const first = await client.invoices.create(input, { idempotencyKey: key });
      await client.invoices.validate(first.id);
      await client.invoices.sign(first.id);
      sandbox.clearRequests();

      const { invoice, steps } = await client.invoices.createAndFile(input, { externalRef: 'ORDER-4' });

      expect(invoice.id).toBe(first.id);
      expect(invoice.status).toBe('SUBMITTED');
      expect(steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
        'check:done', 'create:done', 'reconcile:done', 'validate:skipped', 'sign:skipped', 'submit:done',
      ]);
      expect(sends(sandbox, 'validate')).toHaveLength(0);
      expect(sends(sandbox, 'sign')).toHaveLength(0);
      expect(sends(sandbox, 'submit')).toHaveLength(1);
    });

    it('files one invoice when two clients file the same externalRef at once', async () => {
      sandbox = await startSandbox();
      const a = clientOf(sandbox);
      const b = clientOf(sandbox);
      const input = sampleInput(sandbox);

      const [ra, rb] = await Promise.all([
        a.invoices.createAndFile(input, { externalRef: 'ORDER-5', clock: sandboxClock(sandbox) }),
        b.invoices.createAndFile(input, { externalRef: 'ORDER-5', clock: sandboxClock(sandbox) }),
      ]);

      expect(ra.invoice.id).toBe(rb.invoice.id);
      expect(sandbox.invoices.count).toBe(1);
      const stored = sandbox.invoices.get(ra.invoice.id);
      expect(stored?.submissions).toBe(1);
      expect(stored?.history.map((h) => h.status)).toEqual(['draft', 'Validated', 'Signed', 'Submitted']);
    });

    it('throws FilingError naming the invoice and step, with a hint to resume', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before', times: Infinity });

      const err = await client.invoices
        .createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-6', maxRetries: 1, clock: sandboxClock(sandbox) })
        .catch((e: unknown) => e);

      expect(isFilingError(err)).toBe(true);
      const stored = sandbox.invoices.list()[0]!;
      expect(err).toMatchObject({ invoiceId: stored.id, step: 'submit', cause: { name: 'APIConnectionError' } });
      expect((err as { hint: string }).hint).toContain(`resumeFiling('${stored.id}')`);
      expect(stored.status).toBe('Signed');
    });

    it('after a 401 (a revoked key) says to fix the key first, then resume; never "resume" alone', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      sandbox.faults.inject({ path: '/invoices/:id/validate', kind: 'status', status: 401, times: Infinity, body: { success: false, message: 'Invalid API key' } });

      const err = (await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-401' }).catch((e: unknown) => e)) as FilingError;

      const id = sandbox.invoices.list()[0]!.id;
      expect(err).toMatchObject({ name: 'FilingError', step: 'validate', invoiceId: id, cause: { name: 'AuthenticationError', status: 401 } });
      expect(err.hint).toMatch(/^The service refused the request and would refuse it again: fix that first\. Only the X-API-Key header authenticates/);
      expect(err.hint).toContain('revokes the existing key of the same type');
      expect(err.hint).toMatch(new RegExp(`Then resume with client\\.invoices\\.resumeFiling\\('${id}'\\)`));
      expect(err.hint).not.toMatch(/^Resume/);
    });

    it('files a corrected version under the next revision: a new invoice, no key conflict, never one revision twice', async () => {
      // The tax authority rejects the buyer's TIN of the first version; the corrected one passes.
      sandbox = await startSandbox({ scenario: (inv) => (inv.buyer.tin === '20456789-0001' ? { name: 'field-error', field: 'buyer.tin' } : 'accepted') });
      const client = clientOf(sandbox);
      const clock = sandboxClock(sandbox);
      const first = sampleInput(sandbox);

      const failed = await client.invoices.createAndFile(first, { externalRef: 'INV-77', wait: true, clock });
      expect(failed.invoice.status).toBe('ERROR');
      expect(failed.failure).toMatchObject({ kind: 'field-validation', field: 'buyer.tin' });
      expect(failed.failure?.hint).toContain('revision');

      const corrected = { ...first, buyer: { ...first.buyer, tin: '30111222-0001' } };
      // The same externalRef and revision with the corrected body: the service holds another body.
      const conflict = (await client.invoices.createAndFile(corrected, { externalRef: 'INV-77', clock }).catch((e: unknown) => e)) as FilingError;
      expect(conflict).toMatchObject({ step: 'create', cause: { name: 'IdempotencyConflictError' } });
      expect(conflict.hint).toContain('revision: 1');

      const filed = await client.invoices.createAndFile(corrected, { externalRef: 'INV-77', revision: 1, wait: true, clock });
      expect(filed.invoice.rawStatus).toBe('Accepted');
      expect(filed.invoice.id).not.toBe(failed.invoice.id);
      expect(sends(sandbox, 'create').at(-1)?.idempotencyKey).toBe(deriveIdempotencyKey(sandbox.businessId, 'INV-77', 1));

      // Running revision 1 again finds its invoice; the failed one stays in Error as it was.
      const again = await client.invoices.createAndFile(corrected, { externalRef: 'INV-77', revision: 1, clock });
      expect(again.invoice.id).toBe(filed.invoice.id);
      expect(sandbox.invoices.count).toBe(2);
      expect(sandbox.invoices.list().every((inv) => inv.submissions <= 1 || inv.id === failed.invoice.id)).toBe(true);
      expect((await client.invoices.retrieve(failed.invoice.id)).status).toBe('ERROR');
    });

    it('derives revision 0 as the key without a revision, and refuses a revision without externalRef', async () => {
      sandbox = await startSandbox();
      expect(deriveIdempotencyKey('biz_1', 'INV-1', 0)).toBe(deriveIdempotencyKey('biz_1', 'INV-1'));
      expect(new Set([0, 1, 2].map((r) => deriveIdempotencyKey('biz_1', 'INV-1', r))).size).toBe(3);
      expect(() => deriveIdempotencyKey('biz_1', 'INV-1', -1)).toThrow(/revision must be a whole number/);
      expect(() => deriveIdempotencyKey('biz_1', 'INV-1', 1.5)).toThrow(/revision must be a whole number/);
      await expect(clientOf(sandbox).invoices.createAndFile(sampleInput(sandbox), { revision: 1 })).rejects.toThrow(/pass it with externalRef/);
      expect(sandbox.requests).toHaveLength(0);
    });

    it('names the idempotency key to retry with when create itself fails', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-before', times: Infinity });

      const err = await client.invoices
        .createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-7', maxRetries: 1, clock: sandboxClock(sandbox) })
        .catch((e: unknown) => e);

      expect(err).toMatchObject({ name: 'FilingError', step: 'create', invoiceId: undefined });
      expect((err as { hint: string }).hint).toContain(deriveIdempotencyKey(sandbox.businessId, 'ORDER-7'));
      // Every try carried the same key.
      expect(new Set(sends(sandbox, 'create').map((r) => r.idempotencyKey)).size).toBe(1);
    });

    it('does not advise calling again when the service refused the create: it gives the refusal\'s own hint', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      sandbox.faults.inject({
        method: 'POST', path: '/invoices', kind: 'status', status: 400, times: Infinity,
        body: { success: false, message: 'Line has an invalid or missing classification code' },
      });

      const err = await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-9', clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

      expect(err).toMatchObject({ name: 'FilingError', step: 'create', invoiceId: undefined });
      const hint = (err as { hint: string }).hint;
      expect(hint).toMatch(/^The service refused the invoice; nothing was created, and the same request would be refused again\. /);
      // The 400's own hint (what to fix) follows, and no advice to send the same request again.
      expect(hint).toContain((err as { cause: { hint: string } }).cause.hint);
      expect(hint).toContain('hsnCode');
      expect(hint).not.toContain('Call createAndFile() again');
      expect(sends(sandbox, 'create')).toHaveLength(1);
    });

    it('creates once when the answer to a committed create is lost', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox, { maxRetries: 0 });
      sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'drop-after' });

      // The client's budget is 0: the per-call one lets the filing replay the create with its key.
      const { invoice } = await client.invoices.createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-8', maxRetries: 1, clock: sandboxClock(sandbox) });

      expect(invoice.status).toBe('SUBMITTED');
      expect(sends(sandbox, 'create')).toHaveLength(2);
      expect(sandbox.invoices.count).toBe(1);
    });
  });

  describe('resumeFiling', () => {
    it('performs only the submit left after a stop before submit', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const fault = sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before', times: Infinity });
      const err = await client.invoices
        .createAndFile(sampleInput(sandbox), { externalRef: 'ORDER-9', maxRetries: 0, clock: sandboxClock(sandbox) })
        .catch((e: unknown) => e);
      const invoiceId = (err as { invoiceId: string }).invoiceId;
      fault.remove();
      sandbox.clearRequests();

      const { invoice, steps } = await client.invoices.resumeFiling(invoiceId);

      expect(invoice.status).toBe('SUBMITTED');
      expect(steps.map((s) => `${s.step}:${s.outcome}`)).toEqual(['validate:skipped', 'sign:skipped', 'submit:done']);
      expect(sandbox.requests.map((r) => `${r.method} ${r.path.split('/').slice(4).join('/') || r.path}`)).toEqual([
        `GET ${invoiceId}`,
        `POST ${invoiceId}/submit`,
      ]);
    });

    it("stops with step 'read', sending nothing, when the invoice cannot be read", async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const draft = await draftThrough(client, sandbox, 'draft');
      sandbox.faults.inject({ method: 'GET', path: '/invoices/:id', kind: 'drop-before', times: Infinity });
      sandbox.clearRequests();

      const err = await client.invoices.resumeFiling(draft.id, { maxRetries: 1, clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

      expect(isFilingError(err)).toBe(true);
      expect(err).toMatchObject({ step: 'read', invoiceId: draft.id, cause: { name: 'APIConnectionError' } });
      expect((err as Error).message).toContain(`Could not read invoice ${draft.id}`);
      expect(sandbox.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
      expect(sandbox.invoices.get(draft.id)?.status).toBe('draft');
    });

    it("follows the client's maxRetries: with 0, a lost sign is read back and the filing stops without a resend", async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox, { maxRetries: 0 });
      const validated = await draftThrough(client, sandbox, 'validated');
      sandbox.faults.inject({ path: '/invoices/:id/sign', kind: 'drop-before' });

      const err = await client.invoices.resumeFiling(validated.id, { clock: sandboxClock(sandbox) }).catch((e: unknown) => e);

      expect(err).toMatchObject({ name: 'FilingError', step: 'sign', invoiceId: validated.id });
      expect(sends(sandbox, 'sign', validated.id)).toHaveLength(1);
      expect(sandbox.requests.at(-1)?.method).toBe('GET');
    });

    it('does nothing for an invoice already submitted', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const submitted = await draftThrough(client, sandbox, 'submitted');
      sandbox.clearRequests();

      const { invoice } = await client.invoices.resumeFiling(submitted.id);

      expect(invoice.status).toBe('SUBMITTED');
      expect(sandbox.requests.map((r) => r.method)).toEqual(['GET']);
    });

    it('returns at once, submitting nothing, while automatic recovery is in progress', async () => {
      sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
      const client = clientOf(sandbox);
      const submitted = await draftThrough(client, sandbox, 'submitted');
      sandbox.clock.advance(5_000);

      const { invoice, steps, failure } = await client.invoices.resumeFiling(submitted.id);

      expect(invoice.status).toBe('ERROR');
      expect(failure).toMatchObject({ recovery: 'in-progress', resubmitRequired: false });
      expect(steps.at(-1)).toMatchObject({ step: 'submit', outcome: 'skipped' });
      expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(1);
    });

    it('re-submits once an invoice in Error older than 24 hours', async () => {
      sandbox = await startSandbox();
      const client = clientOf(sandbox);
      const submitted = await draftThrough(client, sandbox, 'submitted');
      sandbox.invoices.update(submitted.id, {
        status: 'Error', errorMessage: 'Access points are offline', attempts: 1, updatedAt: sandbox.clock.now() - 25 * HOUR, automaticRetries: false,
      });

      const waited = await client.invoices.waitFor(submitted.id, { timeout: HOUR });
      expect(waited.failure?.resubmitRequired).toBe(true);
      const { invoice, steps } = await client.invoices.resumeFiling(submitted.id, { wait: { timeout: HOUR, clock: sandboxClock(sandbox) } });

      expect(invoice.rawStatus).toBe('Accepted');
      expect(steps.filter((s) => s.step === 'submit' && s.outcome === 'done')).toHaveLength(1);
      expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(2);
    });

    it('waits out recovery when asked, re-submits once, and never twice', async () => {
      sandbox = await startSandbox({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
      const client = clientOf(sandbox);
      const submitted = await draftThrough(client, sandbox, 'submitted');
      sandbox.clock.advance(5_000);

      const { invoice, failure } = await client.invoices.resumeFiling(submitted.id, {
        wait: { timeout: 2 * HOUR },
        clock: sandboxClock(sandbox),
      });

      // The re-submit failed the same way and its own recovery ran out: the call returns the failure.
      expect(invoice.status).toBe('ERROR');
      expect(failure).toMatchObject({ kind: 'access-points-offline', resubmitRequired: true });
      expect(sandbox.invoices.get(submitted.id)?.submissions).toBe(2);
    });

    it("stops at step 'read', sending nothing, when the record has no status it can read", async () => {
      sandbox = await startSandbox();
      const signed = await draftThrough(clientOf(sandbox), sandbox, 'signed');
      sandbox.clearRequests();

      const err = await clientOf(sandbox, { fieldMap: { status: ['workflowState'] } })
        .invoices.resumeFiling(signed.id, { clock: sandboxClock(sandbox) })
        .catch((e: unknown) => e);

      expect(err).toMatchObject({ name: 'FilingError', step: 'read', invoiceId: signed.id });
      expect((err as Error).message).not.toMatch(/create/);
      expect(sandbox.requests.map((r) => r.method)).toEqual(['GET']);
    });
  });
});
