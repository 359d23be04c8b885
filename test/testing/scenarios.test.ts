import { afterEach, describe, expect, it, vi } from 'vitest';
import { recoveryState } from '../../src/model/status.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { caller, fileInvoice, HOUR, MINUTE, type Call } from './helpers.js';

const open: Sandbox[] = [];
async function start(options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; call: Call }> {
  const sandbox = await createSandbox({ listen: false, msw: false, ...options });
  open.push(sandbox);
  return { sandbox, call: caller(sandbox, sandbox.fetch) };
}
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function read(call: Call, id: string) {
  const res = await call('GET', `/api/v1/invoices/${id}`);
  return { ...res.body.data, timestamp: res.body.timestamp } as Record<string, unknown>;
}

describe('testing/sandbox scenarios after submit', () => {
  it('accepted: Submitted until the authority answers 2 s of sandbox time later, then Accepted', async () => {
    const { sandbox, call } = await start({ now: '2026-03-01T10:00:00Z', timeScale: 0 });
    const id = await fileInvoice(call, sandbox.businessId);
    const submittedAt = sandbox.invoices.get(id)!.submittedAt!;
    sandbox.clock.set(Date.parse(submittedAt) + 1999);
    expect((await read(call, id)).status).toBe('Submitted');
    sandbox.clock.set(Date.parse(submittedAt) + 2000);
    const after = await read(call, id);
    expect(after.status).toBe('Accepted');
    expect(after.updatedAt).toBe(new Date(Date.parse(submittedAt) + 2000).toISOString());
  });

  it('uses acceptedStatus and responseDelayMs', async () => {
    const { sandbox, call } = await start({ acceptedStatus: 'REGISTERED', responseDelayMs: 60_000 });
    const id = await fileInvoice(call, sandbox.businessId);
    sandbox.clock.advance(59_000);
    expect((await read(call, id)).status).toBe('Submitted');
    sandbox.clock.advance(1_000);
    expect((await read(call, id)).status).toBe('REGISTERED');
  });

  it('refuses an acceptedStatus that is not after Submitted, and an unknown scenario', async () => {
    await expect(createSandbox({ listen: false, msw: false, acceptedStatus: 'submitted' })).rejects.toThrow(/after Submitted/);
    await expect(createSandbox({ listen: false, msw: false, scenario: 'bogus' as never })).rejects.toThrow(/Unknown scenario/);
  });

  it('pending: the invoice stays Submitted', async () => {
    const { sandbox, call } = await start({ scenario: 'pending' });
    const id = await fileInvoice(call, sandbox.businessId);
    sandbox.clock.advance(48 * HOUR);
    expect((await read(call, id)).status).toBe('Submitted');
  });

  describe('statuses after Submitted', () => {
    it('passes through processingStatus for processingMs before the final status', async () => {
      const { sandbox, call } = await start({ now: '2026-03-01T10:00:00Z', timeScale: 0, processingMs: 5 * MINUTE });
      const id = await fileInvoice(call, sandbox.businessId);
      const seen: unknown[] = [];
      for (const at of ['10:00:01.999', '10:00:02', '10:05:01.999', '10:05:02']) {
        sandbox.clock.set(`2026-03-01T${at}Z`);
        const record = await read(call, id);
        seen.push([record.status, record.updatedAt, sandbox.invoices.get(id)?.nextChangeAt]);
      }
      expect(seen).toEqual([
        ['Submitted', '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:02.000Z'],
        ['Processing', '2026-03-01T10:00:02.000Z', '2026-03-01T10:05:02.000Z'],
        ['Processing', '2026-03-01T10:00:02.000Z', '2026-03-01T10:05:02.000Z'],
        ['Accepted', '2026-03-01T10:05:02.000Z', null],
      ]);
      expect(sandbox.invoices.get(id)?.history.map((h) => h.status).slice(-3)).toEqual(['Submitted', 'Processing', 'Accepted']);
      const listed = await call('GET', '/api/v1/invoices?status=accepted');
      expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    });

    it('rejected: reaches rejectedStatus with the reason in errorMessage, and nothing moves it on', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'rejected', reason: 'Duplicate invoice number' }, timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      expect(await read(call, id)).toMatchObject({ status: 'Rejected', errorMessage: 'Duplicate invoice number', attempts: 0 });
      sandbox.clock.advance(48 * HOUR);
      expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Rejected', recovery: 'not-applicable', nextChangeAt: null });
      const again = await call('POST', `/api/v1/invoices/${id}/submit`);
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/its status is Rejected/);
    });

    it('rejected by default names the tax authority, through the processing stage when it is on', async () => {
      const { sandbox, call } = await start({ scenario: 'rejected', processingMs: MINUTE, timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      expect(await read(call, id)).toMatchObject({ status: 'Processing', errorMessage: null });
      sandbox.clock.advance(MINUTE);
      expect(await read(call, id)).toMatchObject({ status: 'Rejected', errorMessage: 'Rejected by the tax authority' });
    });

    it('spells the later statuses as acceptedStatus, processingStatus and rejectedStatus say', async () => {
      const spelled = { acceptedStatus: 'ACCEPTED', processingStatus: 'AWAITING_AUTHORITY', rejectedStatus: 'declined', processingMs: MINUTE, timeScale: 0 };
      const { sandbox, call } = await start(spelled);
      const a = await fileInvoice(call, sandbox.businessId);
      const r = await fileInvoice(call, sandbox.businessId);
      sandbox.setScenario(r, 'rejected');
      sandbox.clock.advance(2_000);
      expect([(await read(call, a)).status, (await read(call, r)).status]).toEqual(['AWAITING_AUTHORITY', 'AWAITING_AUTHORITY']);
      sandbox.clock.advance(MINUTE);
      expect([(await read(call, a)).status, (await read(call, r)).status]).toEqual(['ACCEPTED', 'declined']);
      // A client sees the unknown status verbatim, and keeps it apart from the final ones.
      const client = sandbox.client({ logLevel: 'error' });
      expect((await client.invoices.retrieve(r)).rawStatus).toBe('declined');
    });

    it('an offline invoice the recovery job rescues goes through processing too', async () => {
      const { sandbox, call } = await start({ scenario: 'offline', processingMs: MINUTE, now: '2026-03-01T10:00:00Z', timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.set('2026-03-01T10:10:00Z');
      expect(await read(call, id)).toMatchObject({ status: 'Processing', attempts: 1, errorMessage: null });
      sandbox.clock.advance(MINUTE);
      expect(sandbox.invoices.get(id)?.history.map((h) => [h.status, h.at.slice(11, 19)])).toEqual([
        ['draft', '10:00:00'], ['Validated', '10:00:00'], ['Signed', '10:00:00'], ['Submitted', '10:00:00'],
        ['Error', '10:00:02'], ['Processing', '10:10:00'], ['Accepted', '10:11:00'],
      ]);
    });

    it('refuses later statuses that spell a documented one, and a negative processingMs', async () => {
      const bad: SandboxOptions[] = [
        { rejectedStatus: 'error' },
        { processingStatus: 'SUBMITTED' },
        { processingStatus: ' ' },
        { scenario: { name: 'rejected', status: 'Draft' } },
        { processingMs: -1 },
      ];
      for (const options of bad) {
        await expect(createSandbox({ listen: false, msw: false, ...options })).rejects.toThrow(/after Submitted|processingMs/);
      }
      const { sandbox } = await start();
      expect(() => sandbox.setScenario({ name: 'accepted', status: 'validated' })).toThrow(/after Submitted/);
    });
  });

  describe('offline', () => {
    it('goes to Error with the document’s message, and the recovery job’s next run recovers it', async () => {
      // Submitted at 10:00:00, failed at 10:00:02: the job runs at 10:10:00, not at 10:10:02.
      const { sandbox, call } = await start({ scenario: 'offline', now: '2026-03-01T10:00:00Z', timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      const failed = await read(call, id);
      expect(failed).toMatchObject({ status: 'Error', errorMessage: 'Access points are offline', attempts: 0 });
      expect(sandbox.invoices.get(id)?.nextChangeAt).toBe('2026-03-01T10:10:00.000Z');
      sandbox.clock.set('2026-03-01T10:09:59.999Z');
      expect((await read(call, id)).status).toBe('Error');
      sandbox.clock.advance(1);
      expect(await read(call, id)).toMatchObject({ status: 'Accepted', attempts: 1, errorMessage: null, updatedAt: '2026-03-01T10:10:00.000Z' });
    });

    describe('the recovery job runs on its own 10-minute schedule', () => {
      const failedAt = async (options: SandboxOptions, failAt: string) => {
        const { sandbox, call } = await start({ scenario: 'offline', timeScale: 0, responseDelayMs: 0, ...options, now: failAt });
        const id = await fileInvoice(call, sandbox.businessId);
        return { sandbox, call, id };
      };

      it('picks an invoice up at the first run after its failure, wherever in the 10 minutes it failed', async () => {
        const cases = [
          ['2026-03-01T10:00:00.001Z', '2026-03-01T10:10:00.000Z'],
          ['2026-03-01T10:03:00.000Z', '2026-03-01T10:10:00.000Z'],
          ['2026-03-01T10:09:59.999Z', '2026-03-01T10:10:00.000Z'],
          // A failure at the very moment of a run waits for the next one.
          ['2026-03-01T10:10:00.000Z', '2026-03-01T10:20:00.000Z'],
        ];
        const rescues: Record<string, unknown> = {};
        for (const [failAt, expected] of cases) {
          const { sandbox, id } = await failedAt({}, failAt!);
          expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Error', nextChangeAt: expected });
          sandbox.clock.advance(HOUR);
          const stored = sandbox.invoices.get(id)!;
          rescues[failAt!] = stored.history.at(-1);
          expect(stored).toMatchObject({ status: 'Accepted', attempts: 1 });
        }
        expect(rescues).toEqual(Object.fromEntries(cases.map(([failAt, at]) => [failAt, { status: 'Accepted', at }])));
      });

      it('so the rescue lands anywhere from a moment to 10 minutes after the failure', async () => {
        const delays: number[] = [];
        for (const failAt of ['2026-03-01T10:09:59.000Z', '2026-03-01T10:05:00.000Z', '2026-03-01T10:00:01.000Z']) {
          const { sandbox, id } = await failedAt({}, failAt);
          sandbox.clock.advance(HOUR);
          const { history } = sandbox.invoices.get(id)!;
          delays.push(Date.parse(history.at(-1)!.at) - Date.parse(history.at(-2)!.at));
        }
        expect(delays).toEqual([1_000, 5 * MINUTE, 10 * MINUTE - 1_000]);
      });

      it('shifts every run by recoveryJobOffsetMs', async () => {
        const { sandbox, id } = await failedAt({ recoveryJobOffsetMs: 4 * MINUTE, scenario: { name: 'offline', recoversOnAttempt: 'never' } }, '2026-03-01T10:03:00.000Z');
        expect(sandbox.invoices.get(id)?.nextChangeAt).toBe('2026-03-01T10:04:00.000Z');
        const runs: string[] = [];
        for (let i = 0; i < 4; i++) {
          const next = sandbox.invoices.get(id)?.nextChangeAt;
          if (next === null || next === undefined) break;
          runs.push(next);
          sandbox.clock.set(next);
        }
        expect(runs).toEqual(['2026-03-01T10:04:00.000Z', '2026-03-01T10:14:00.000Z', '2026-03-01T10:24:00.000Z']);
        expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Error', attempts: 3, recovery: 'over', nextChangeAt: null });
      });

      it('refuses an offset outside the job’s 10 minutes', async () => {
        for (const recoveryJobOffsetMs of [-1, 10 * MINUTE, 1.5]) {
          await expect(createSandbox({ listen: false, msw: false, recoveryJobOffsetMs })).rejects.toThrow(/recoveryJobOffsetMs must be/);
        }
      });
    });

    it('retries every 10 minutes, up to 3 attempts, then recovery is over', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', recoversOnAttempt: 'never' }, now: '2026-03-01T10:04:00Z', timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      const attempts: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        attempts.push((await read(call, id)).attempts);
        sandbox.clock.advance(10 * MINUTE);
      }
      expect(attempts).toEqual([0, 1, 2, 3]);
      sandbox.clock.advance(5 * HOUR);
      const last = await read(call, id);
      expect(last).toMatchObject({ status: 'Error', attempts: 3 });
      expect(sandbox.invoices.get(id)?.recovery).toBe('over');
      expect(sandbox.invoices.get(id)?.nextChangeAt).toBeNull();
    });

    it('succeeds on the attempt recoversOnAttempt names', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', recoversOnAttempt: 3 }, now: '2026-03-01T10:04:00Z', timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      // One jump plays every retry in between, in order.
      sandbox.clock.advance(24 * HOUR);
      const stored = sandbox.invoices.get(id)!;
      expect(stored.status).toBe('Accepted');
      expect(stored.attempts).toBe(3);
      const times = stored.history.map((h) => Date.parse(h.at) - Date.parse(stored.submittedAt!));
      expect(stored.history.map((h) => h.status).slice(-3)).toEqual(['Submitted', 'Error', 'Accepted']);
      // Failed at 10:04:02; the job's third run after that is at 10:30.
      expect(times.slice(-2)).toEqual([2_000, 26 * MINUTE]);
    });

    it('accepts a submit while automatic recovery is in progress with no effect on the invoice or its recovery', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', recoversOnAttempt: 'never' }, timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000 + 10 * MINUTE);
      const before = sandbox.invoices.get(id);
      const res = await call('POST', `/api/v1/invoices/${id}/submit`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'Error', attempts: 1 });
      expect(sandbox.invoices.get(id)).toEqual(before);
      // The recovery runs on as before: attempts 2 and 3 at the next two runs, then over.
      sandbox.clock.advance(20 * MINUTE);
      expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Error', attempts: 3, submissions: 1, recovery: 'over' });
    });

    it('accepts a deliberate re-submit once three attempts are used, starting a fresh attempt count', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000 + 30 * MINUTE);
      expect(sandbox.invoices.get(id)?.recovery).toBe('over');
      sandbox.setScenario(id, 'accepted');
      const res = await call('POST', `/api/v1/invoices/${id}/submit`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'Submitted', attempts: 0, errorMessage: null });
      sandbox.clock.advance(2_000);
      expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Accepted', submissions: 2 });
    });

    it('with automaticRetries false, stays in recovery for 24 hours, then accepts a re-submit', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', automaticRetries: false }, timeScale: 0 });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000 + 24 * HOUR - 1);
      expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Error', attempts: 0, recovery: 'in-progress' });
      const early = await call('POST', `/api/v1/invoices/${id}/submit`);
      expect(early.status).toBe(200);
      expect(early.body.data).toMatchObject({ status: 'Error' });
      sandbox.clock.advance(1);
      expect(sandbox.invoices.get(id)?.recovery).toBe('over');
      const res = await call('POST', `/api/v1/invoices/${id}/submit`);
      expect(res.body.data).toMatchObject({ status: 'Submitted' });
      expect(sandbox.invoices.get(id)?.submissions).toBe(2);
    });
  });

  describe('attemptCount: false', () => {
    it('serves records without the attempt count, while still counting the retries', async () => {
      const { sandbox, call } = await start({ attemptCount: false, timeScale: 0, scenario: { name: 'offline', recoversOnAttempt: 'never' } });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000 + 30 * MINUTE);
      const record = await read(call, id);
      expect(record).not.toHaveProperty('attempts');
      expect(record).toMatchObject({ status: 'Error', errorMessage: 'Access points are offline' });
      expect(sandbox.invoices.get(id)).toMatchObject({ attempts: 3, recovery: 'over' });
    });
  });

  describe('field-error', () => {
    it('goes to Error naming one field; every retry fails the same way', async () => {
      const { sandbox, call } = await start({ scenario: 'field-error' });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      expect(await read(call, id)).toMatchObject({ status: 'Error', errorMessage: 'Validation failed: buyer.tin is invalid' });
      sandbox.clock.advance(30 * MINUTE);
      expect(await read(call, id)).toMatchObject({ status: 'Error', attempts: 3, errorMessage: 'Validation failed: buyer.tin is invalid' });
    });

    it('names the field it is given', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'field-error', field: 'lines[0].hsnCode' } });
      const id = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      expect((await read(call, id)).errorMessage).toBe('Validation failed: lines[0].hsnCode is invalid');
    });
  });

  describe('choosing a scenario', () => {
    it('per invoice, overriding the sandbox’s, and the change applies at the next retry', async () => {
      const { sandbox, call } = await start();
      const a = await fileInvoice(call, sandbox.businessId, ['validate', 'sign']);
      const b = await fileInvoice(call, sandbox.businessId, ['validate', 'sign']);
      sandbox.setScenario(a, { name: 'offline', recoversOnAttempt: 'never' });
      await call('POST', `/api/v1/invoices/${a}/submit`);
      await call('POST', `/api/v1/invoices/${b}/submit`);
      sandbox.clock.advance(2_000);
      expect(sandbox.invoices.get(a)?.status).toBe('Error');
      expect(sandbox.invoices.get(b)?.status).toBe('Accepted');
      sandbox.setScenario(a, undefined); // back to the sandbox's: accepted
      sandbox.clock.advance(10 * MINUTE);
      expect(sandbox.invoices.get(a)).toMatchObject({ status: 'Accepted', attempts: 1 });
    });

    it('sandbox-wide through setScenario, and by a rule function', async () => {
      const { sandbox, call } = await start();
      sandbox.setScenario('field-error');
      const a = await fileInvoice(call, sandbox.businessId);
      sandbox.setScenario((invoice) => (invoice.lines.length > 1 ? 'pending' : undefined));
      const b = await fileInvoice(call, sandbox.businessId);
      sandbox.clock.advance(2_000);
      expect(sandbox.invoices.get(a)?.status).toBe('Submitted'); // the rule applies at its answer too
      expect(sandbox.invoices.get(b)?.status).toBe('Submitted');
      sandbox.setScenario('accepted');
      expect(() => sandbox.setScenario('nope' as never)).toThrow(/Unknown scenario/);
    });
  });

  describe('recovery as the SDK reads it', () => {
    it('agrees with recoveryState() at every step', async () => {
      const { sandbox, call } = await start({ scenario: { name: 'offline', recoversOnAttempt: 'never' } });
      const id = await fileInvoice(call, sandbox.businessId);
      for (const step of [2_000, 10 * MINUTE, 10 * MINUTE, 10 * MINUTE, HOUR]) {
        sandbox.clock.advance(step);
        const wire = await read(call, id);
        const state = recoveryState(
          { status: 'ERROR', updatedAt: wire.updatedAt as string, attempts: wire.attempts as number },
          Date.parse(wire.timestamp as string),
        );
        expect(state).toBe(sandbox.invoices.get(id)?.recovery);
      }
    });

    it('lets a test put an invoice in Error untouched for 25 hours with invoices.update()', async () => {
      const { sandbox, call } = await start();
      const id = await fileInvoice(call, sandbox.businessId, ['validate', 'sign']);
      sandbox.invoices.update(id, {
        status: 'Error',
        errorMessage: 'Access points are offline',
        attempts: 1,
        updatedAt: sandbox.clock.now() - 25 * HOUR,
      });
      expect(sandbox.invoices.get(id)).toMatchObject({ status: 'Error', recovery: 'over', nextChangeAt: null });
      expect((await call('POST', `/api/v1/invoices/${id}/submit`)).status).toBe(200);
    });
  });

  describe('the clock', () => {
    it('follows fake timers, since it reads Date.now()', async () => {
      vi.useFakeTimers();
      const { sandbox, call } = await start();
      const id = await fileInvoice(call, sandbox.businessId);
      vi.advanceTimersByTime(2_000);
      expect((await read(call, id)).status).toBe('Accepted');
    });

    it('runs timeScale times faster than real time', async () => {
      vi.useFakeTimers();
      const { sandbox, call } = await start({ timeScale: 600, scenario: 'offline' });
      const id = await fileInvoice(call, sandbox.businessId);
      vi.advanceTimersByTime(5); // 3 s of sandbox time
      expect((await read(call, id)).status).toBe('Error');
      vi.advanceTimersByTime(1_000); // 10 sandbox minutes
      expect((await read(call, id)).status).toBe('Accepted');
      sandbox.clock.timeScale = 1;
      const before = sandbox.clock.now();
      vi.advanceTimersByTime(1_000);
      expect(sandbox.clock.now() - before).toBe(1_000);
    });

    it('sets, advances and stamps the envelope with sandbox time', async () => {
      const { sandbox, call } = await start({ now: '2026-01-01T00:00:00Z' });
      sandbox.clock.set('2030-06-01T12:00:00Z');
      sandbox.clock.advance(1_000);
      const res = await call('GET', '/api/v1/invoices');
      expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(Date.parse('2030-06-01T12:00:01Z'));
      expect(Date.parse(res.body.timestamp)).toBeLessThan(Date.parse('2030-06-01T12:01:00Z'));
      expect(() => sandbox.clock.advance(-1)).toThrow(RangeError);
      expect(() => { sandbox.clock.timeScale = -1; }).toThrow(RangeError);
      sandbox.clock.timeScale = 0;
      const frozen = sandbox.clock.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(sandbox.clock.now()).toBe(frozen);
    });
  });
});
