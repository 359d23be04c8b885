/**
 * The fault campaign's engine: a schedule of faults on the routes of the filing flow, run against
 * the sandbox's real loopback server, then judged from the sandbox's own records (its request log
 * and stored invoices), not from what the SDK says about itself.
 */
import fc from 'fast-check';
import type { InvoicingClient } from '../../../src/client.js';
import { isFilingError } from '../../../src/core/errors.js';
import type { FilingResult } from '../../../src/filing/file.js';
import { hasPassed, isAfterSubmitted, normalizeStatus, InvoiceStatus, type FilingTransition } from '../../../src/model/status.js';
import type { InvoiceCreateParams } from '../../../src/model/invoice-input.js';
import type { FaultSpec, RequestLogEntry, Sandbox } from '../../../src/testing/index.js';
import { sandboxWaitClock } from './filing.js';

/**
 * Per-attempt timeout of the campaign's clients: short, so "slower than the timeout" is cheap. On a
 * busy machine an ordinary answer may miss it too; that is one more fault the SDK must survive.
 */
export const TIMEOUT_MS = 100;
/** A delay well past the timeout: the server acts (or answers) after the caller gave up. */
const LATE_MS = TIMEOUT_MS + 150;

/** The routes of the filing flow. */
export const ROUTES = ['create', 'read', 'validate', 'sign', 'submit'] as const;
export type Route = (typeof ROUTES)[number];

const ROUTE_MATCH: Record<Route, Pick<FaultSpec, 'method' | 'path'>> = {
  create: { method: 'POST', path: '/invoices' },
  read: { method: 'GET', path: '/invoices/:id' },
  validate: { method: 'POST', path: '/invoices/:id/validate' },
  sign: { method: 'POST', path: '/invoices/:id/sign' },
  submit: { method: 'POST', path: '/invoices/:id/submit' },
};

/** One fault of a schedule, before it is bound to a route. */
export type Fault =
  | { kind: 'drop-before' }
  | { kind: 'drop-after' }
  | { kind: 'status'; status: 429 | 503; retryAfter: 0 | 1; afterCommit: boolean }
  | { kind: 'delay'; ms: number; afterCommit: boolean }
  | { kind: 'stall-body' }
  | { kind: 'malformed'; variant: 'truncated-json' | 'html'; status: 200 | 502 | undefined };

/** The name a fault is counted under in the report. */
export function faultLabel(f: Fault): string {
  switch (f.kind) {
    case 'status':
      return `${f.status} Retry-After ${f.retryAfter}${f.afterCommit ? ' after commit' : ''}`;
    case 'delay':
      return f.ms > TIMEOUT_MS ? `slower than the timeout${f.afterCommit ? ' (after commit)' : ' (before acting)'}` : 'slow but in time';
    case 'malformed':
      return `${f.variant} body${f.status ? ` ${f.status}` : ''}`;
    default:
      return f.kind;
  }
}

/** A fault on a route: let `skip` matching requests through, then spoil the next `times`. */
export interface ScheduledFault {
  route: Route;
  fault: Fault;
  skip: number;
  times: number;
}

/** A whole schedule: the faults, how a stop is resumed, and the sandbox variant it runs on. */
export interface Schedule {
  faults: ScheduledFault[];
  /** After a FilingError: `resumeFiling(err.invoiceId)`, or run `createAndFile` again with the same `externalRef`. */
  resume: 'resumeFiling' | 'createAndFile';
  /** Wait for the tax authority's answer after submitting (more reads, faulted too). */
  wait: boolean;
  /** Index into the sandbox variants (answer bodies of transitions, record field names). */
  variant: number;
  /** The filing helpers' retry budget per step (default 2); lower budgets make stops, and resumes, more frequent. */
  maxRetries: number;
}

// Faults that cost real time (a timeout each) are drawn less often, to keep a campaign fast.
const fault: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'drop-before' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'drop-after' as const }) },
  {
    weight: 3,
    arbitrary: fc
      .record({ kind: fc.constant('status' as const), status: fc.constantFrom(429 as const, 503 as const), retryAfter: fc.constantFrom(0 as const, 1 as const), afterCommit: fc.boolean() })
      // A 429 is a refusal: the server does not act before it.
      .map((f) => (f.status === 429 ? { ...f, afterCommit: false } : f)),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delay' as const), ms: fc.constantFrom(30, LATE_MS, LATE_MS), afterCommit: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'stall-body' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('malformed' as const), variant: fc.constantFrom('truncated-json' as const, 'html' as const), status: fc.constantFrom(200 as const, 502 as const, undefined) }),
  },
);

/** Random schedules: up to eight faults over the five routes, each firing up to three times. */
export function scheduleArbitrary(variants: number): fc.Arbitrary<Schedule> {
  return fc.record({
    faults: fc.array(
      fc.record({ route: fc.constantFrom(...ROUTES), fault, skip: fc.integer({ min: 0, max: 2 }), times: fc.integer({ min: 1, max: 3 }) }),
      { maxLength: 8 },
    ),
    resume: fc.constantFrom('resumeFiling' as const, 'createAndFile' as const),
    wait: fc.boolean(),
    variant: fc.integer({ min: 0, max: variants - 1 }),
    maxRetries: fc.integer({ min: 0, max: 2 }),
  });
}

/** What one schedule came to. */
export interface ScheduleOutcome {
  /** Broken promises; empty when the schedule passed. */
  violations: string[];
  /** FilingErrors thrown along the way (each followed by a resume). */
  filingErrors: number;
  resumedWithResumeFiling: number;
  resumedWithCreateAndFile: number;
  /** Faults that fired, by label. */
  fired: Map<string, number>;
  invoices: number;
  acceptedSubmits: number;
  /** Transitions the SDK sent to an invoice already past that step. */
  blindTransitions: number;
}

/** The longest a schedule may keep resuming before it counts as stuck. */
const MAX_ATTEMPTS = 40;

const TRANSITION_PATH = /^\/api\/v1\/invoices\/[^/]+\/(validate|sign|submit)$/;

/** Waits until the sandbox has finished every request it received (delayed ones act late). */
async function drain(sandbox: Sandbox): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (sandbox.requests.some((r) => r.outcome === 'response' && r.status === undefined)) {
    if (Date.now() > deadline) throw new Error('the sandbox still has requests in flight after 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Transitions the SDK sent to an invoice that had already passed that step: the sandbox refused
 * them (409) without any fault involved. A refusal is excused only when an earlier request for the
 * same step was held up by a delay fault and acted late (after the SDK had read the invoice and
 * rightly sent again), which no client can see coming.
 */
function blindTransitions(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((entry, i) => {
    const step = TRANSITION_PATH.exec(entry.path)?.[1];
    if (entry.method !== 'POST' || step === undefined) return false;
    if (entry.fault !== undefined || entry.status !== 409) return false;
    const lateEarlier = log
      .slice(0, i)
      .some((e) => e.path === entry.path && e.fault === 'delay' && e.committed);
    return !lateEarlier;
  });
}

/** Runs `schedule` on `sandbox` (reset first) and judges it. */
export async function runSchedule(sandbox: Sandbox, schedule: Schedule, input: InvoiceCreateParams, externalRef: string): Promise<ScheduleOutcome> {
  sandbox.reset();
  const injected = schedule.faults.map((f) => ({
    label: faultLabel(f.fault),
    handle: sandbox.faults.inject({ ...ROUTE_MATCH[f.route], ...f.fault, skip: f.skip, times: f.times } as FaultSpec),
  }));
  const clock = sandboxWaitClock(sandbox);
  const client: InvoicingClient = sandbox.client({ timeout: TIMEOUT_MS, logLevel: 'off' });
  const wait = schedule.wait ? { timeout: 3_600_000, clock } : undefined;
  const outcome: ScheduleOutcome = {
    violations: [],
    filingErrors: 0,
    resumedWithResumeFiling: 0,
    resumedWithCreateAndFile: 0,
    fired: new Map(),
    invoices: 0,
    acceptedSubmits: 0,
    blindTransitions: 0,
  };
  const errorIds = new Set<string>();

  let result: FilingResult | undefined;
  let next: { how: 'createAndFile' } | { how: 'resumeFiling'; id: string } = { how: 'createAndFile' };
  for (let attempt = 1; result === undefined; attempt += 1) {
    if (attempt > MAX_ATTEMPTS) {
      outcome.violations.push(`not filed after ${MAX_ATTEMPTS} attempts`);
      break;
    }
    try {
      result =
        next.how === 'createAndFile'
          ? await client.invoices.createAndFile(input, { externalRef, clock, wait, maxRetries: schedule.maxRetries })
          : await client.invoices.resumeFiling(next.id, { clock, wait, maxRetries: schedule.maxRetries });
    } catch (error) {
      if (!isFilingError(error)) {
        outcome.violations.push(`${next.how} threw ${(error as Error)?.name}: ${(error as Error)?.message} (not a FilingError)`);
        break;
      }
      outcome.filingErrors += 1;
      if (error.invoiceId === undefined && error.step !== 'create') {
        outcome.violations.push(`a FilingError at ${error.step} names no invoice: ${error.message}`);
      }
      if (error.invoiceId !== undefined) errorIds.add(error.invoiceId);
      if (schedule.resume === 'resumeFiling' && error.invoiceId !== undefined) {
        next = { how: 'resumeFiling', id: error.invoiceId };
        outcome.resumedWithResumeFiling += 1;
      } else {
        next = { how: 'createAndFile' };
        outcome.resumedWithCreateAndFile += 1;
      }
    }
  }

  await drain(sandbox);
  for (const { label, handle } of injected) {
    if (handle.hits > 0) outcome.fired.set(label, (outcome.fired.get(label) ?? 0) + handle.hits);
  }
  const log = sandbox.requests;
  const stored = sandbox.invoices.list();
  outcome.invoices = stored.length;
  outcome.acceptedSubmits = log.filter((e) => e.method === 'POST' && e.path.endsWith('/submit') && e.committed).length;
  const blind = blindTransitions(log);
  outcome.blindTransitions = blind.length;

  if (stored.length !== 1) outcome.violations.push(`${stored.length} invoices stored, expected exactly one`);
  if (outcome.acceptedSubmits !== 1) outcome.violations.push(`${outcome.acceptedSubmits} accepted submits, expected exactly one`);
  if (stored[0] !== undefined && stored[0].submissions !== 1) outcome.violations.push(`the invoice counts ${stored[0].submissions} submissions`);
  for (const e of blind) outcome.violations.push(`blind ${e.path.split('/').at(-1)} answered ${JSON.stringify(e.responseBody)}`);
  const keys = new Set(log.filter((e) => e.method === 'POST' && e.path === '/api/v1/invoices').map((e) => e.idempotencyKey));
  if (keys.size !== 1) outcome.violations.push(`creates carried ${keys.size} idempotency keys`);
  for (const id of errorIds) if (stored[0] !== undefined && id !== stored[0].id) outcome.violations.push(`a FilingError named ${id}, not the stored invoice`);
  if (result !== undefined) {
    const status = result.invoice.status;
    if (status !== InvoiceStatus.SUBMITTED && !isAfterSubmitted(status)) outcome.violations.push(`ended in ${String(status)}, not filed`);
    if (schedule.wait && status === InvoiceStatus.SUBMITTED) outcome.violations.push('waited, yet still Submitted');
    const server = stored[0] === undefined ? undefined : normalizeStatus(stored[0].status);
    if (server !== undefined && !hasPassed(server, 'submit' as FilingTransition)) outcome.violations.push(`the sandbox holds it as ${stored[0]?.status}`);
  }
  return outcome;
}
