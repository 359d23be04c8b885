// The invoice state machine, evaluated lazily: every request and clock move applies, in time order,
// the events that became due. The recovery job runs on its own schedule ("every 10 minutes"), so a
// rescue lands at the first run after the failure, not a fixed 10 minutes later.
import type { FilingTransition } from '../model/status.js';
import { conflict } from './errors.js';
import type { ResolvedOptions } from './options.js';
import {
  attemptOutcome,
  resolveScenario,
  type ResolvedScenario,
  type Scenario,
  type ScenarioRule,
  type ScenarioSubject,
} from './scenarios.js';
import { spell, STEPS } from './statuses.js';
import type { InvoiceRecord, Store } from './store.js';

// The document's automatic recovery: every 10 minutes, up to 3 attempts, only invoices touched in the last 24 hours.
const RECOVERY = { intervalMs: 600_000, maxAttempts: 3, windowMs: 86_400_000 } as const;

/** The recovery job's first run strictly after `after`, on the interval's multiples shifted by `offsetMs`. */
function nextRecoveryRun(after: number, offsetMs: number): number {
  const interval = RECOVERY.intervalMs;
  return offsetMs + (Math.floor((after - offsetMs) / interval) + 1) * interval;
}

/** Automatic recovery as the service sees an invoice at `now`. */
export function recoveryOf(invoice: InvoiceRecord, now: number): 'in-progress' | 'over' | 'not-applicable' {
  if (invoice.status !== 'ERROR') return 'not-applicable';
  if (invoice.attempts >= RECOVERY.maxAttempts) return 'over';
  return now - invoice.updatedAt < RECOVERY.windowMs ? 'in-progress' : 'over';
}

const VERB: Record<FilingTransition, string> = { validate: 'validated', sign: 'signed', submit: 'submitted' };

/** What happens to an invoice on its own: the authority's answer, its verdict after processing, a job run. */
type EventKind = 'respond' | 'verdict' | 'retry';

export class Progress {
  // Sorted by time, ties in scheduling order.
  private readonly queue: { at: number; id: string; kind: EventKind }[] = [];
  /** The sandbox-wide scenario or rule; per-invoice choices live on the record. */
  scenario: Scenario | ScenarioRule;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedOptions,
  ) {
    this.scenario = options.scenario;
  }

  scenarioFor(invoice: InvoiceRecord): ResolvedScenario {
    let chosen: Scenario | undefined = invoice.scenario;
    if (chosen === undefined) {
      chosen = typeof this.scenario === 'function' ? this.scenario(subjectOf(invoice)) : this.scenario;
    }
    return resolveScenario(chosen ?? 'accepted', this.options);
  }

  /** Applies, in time order, every event due at or before `now`. */
  runDue(now: number): void {
    while (this.queue[0] !== undefined && this.queue[0].at <= now) {
      const top = this.queue.shift()!;
      const invoice = this.store.invoices.get(top.id);
      // An entry is stale when the invoice was re-submitted or deleted since it was scheduled.
      if (invoice?.next === null || invoice?.next === undefined) continue;
      if (invoice.next.at !== top.at || invoice.next.kind !== top.kind) continue;
      invoice.next = null;
      if (top.kind === 'respond') this.respond(invoice, top.at);
      else if (top.kind === 'verdict') this.conclude(invoice, top.at);
      else this.retry(invoice, top.at);
    }
  }

  /** Throws 409 naming the current status; a submit while recovery is in play is accepted with no effect. */
  transition(invoice: InvoiceRecord, transition: FilingTransition, now: number): void {
    const current = invoice.status;
    if (!(STEPS[transition].from as readonly string[]).includes(current)) {
      const spelling = this.options.statusSpelling;
      const needs = STEPS[transition].from
        .filter((s) => s !== 'ERROR')
        .map((s) => spell(s, spelling))
        .join(' or ');
      throw conflict(
        `Invoice ${invoice.id} cannot be ${VERB[transition]}: its status is ${spell(current, spelling)} (${transition} requires ${needs})`,
      );
    }
    if (transition === 'submit' && current === 'ERROR' && recoveryOf(invoice, now) === 'in-progress') return;
    this.setStatus(invoice, STEPS[transition].to, now);
    if (transition === 'submit') {
      invoice.attempts = 0;
      invoice.errorMessage = null;
      invoice.submittedAt = now;
      invoice.submissions += 1;
      this.schedule(invoice, 'respond', now + this.options.responseDelayMs);
    }
  }

  /** Schedules the next event of an invoice, replacing any pending one. */
  schedule(invoice: InvoiceRecord, kind: EventKind, at: number): void {
    invoice.next = { kind, at };
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.at > at) i--;
    this.queue.splice(i, 0, { at, id: invoice.id, kind });
  }

  clear(): void {
    this.queue.length = 0;
  }

  setStatus(invoice: InvoiceRecord, status: string, at: number): void {
    invoice.status = status;
    invoice.updatedAt = at;
    invoice.history.push({ status, at });
  }

  private respond(invoice: InvoiceRecord, at: number): void {
    if (invoice.status !== 'SUBMITTED') return;
    const outcome = attemptOutcome(this.scenarioFor(invoice), 0, this.options.acceptedStatus);
    if (outcome.kind === 'answered') {
      this.answer(invoice, { status: outcome.status, errorMessage: outcome.errorMessage }, at);
    } else if (outcome.kind === 'failed') {
      this.fail(invoice, outcome.message, outcome.automaticRetries, at);
    }
  }

  // The final answer lands at once, or after `processingMs` in `processingStatus`.
  private answer(invoice: InvoiceRecord, verdict: { status: string; errorMessage: string | null }, at: number): void {
    if (this.options.processingMs > 0) {
      invoice.errorMessage = null;
      invoice.verdict = verdict;
      this.setStatus(invoice, this.options.processingStatus, at);
      this.schedule(invoice, 'verdict', at + this.options.processingMs);
      return;
    }
    invoice.errorMessage = verdict.errorMessage;
    this.setStatus(invoice, verdict.status, at);
  }

  private conclude(invoice: InvoiceRecord, at: number): void {
    const verdict = invoice.verdict;
    if (verdict === null) return;
    invoice.verdict = null;
    invoice.errorMessage = verdict.errorMessage;
    this.setStatus(invoice, verdict.status, at);
  }

  /** Books `invoice` for the recovery job's first run after `after`, if that run will pick it up. */
  bookRecovery(invoice: InvoiceRecord, after: number): void {
    const run = nextRecoveryRun(after, this.options.recoveryJobOffsetMs);
    if (this.picksUp(invoice, run)) this.schedule(invoice, 'retry', run);
  }

  private picksUp(invoice: InvoiceRecord, run: number): boolean {
    return (
      invoice.status === 'ERROR' &&
      invoice.automaticRetries &&
      invoice.attempts < RECOVERY.maxAttempts &&
      run - invoice.updatedAt < RECOVERY.windowMs
    );
  }

  private retry(invoice: InvoiceRecord, at: number): void {
    if (!this.picksUp(invoice, at)) return;
    invoice.attempts += 1;
    const outcome = attemptOutcome(this.scenarioFor(invoice), invoice.attempts, this.options.acceptedStatus);
    if (outcome.kind === 'answered') {
      this.answer(invoice, { status: outcome.status, errorMessage: outcome.errorMessage }, at);
    } else if (outcome.kind === 'failed') {
      this.fail(invoice, outcome.message, outcome.automaticRetries, at);
    } else {
      this.setStatus(invoice, 'SUBMITTED', at);
    }
  }

  private fail(invoice: InvoiceRecord, message: string, automaticRetries: boolean, at: number): void {
    invoice.errorMessage = message;
    invoice.automaticRetries = automaticRetries;
    if (invoice.status === 'ERROR') {
      // A failed retry touches the invoice without changing its status.
      invoice.updatedAt = at;
    } else {
      this.setStatus(invoice, 'ERROR', at);
    }
    this.bookRecovery(invoice, at);
  }
}

function subjectOf(invoice: InvoiceRecord): ScenarioSubject {
  return structuredClone({
    id: invoice.id,
    businessId: invoice.businessId,
    buyer: invoice.buyer as ScenarioSubject['buyer'],
    lines: invoice.lines,
    idempotencyKey: invoice.idempotencyKey,
    attempts: invoice.attempts,
  });
}
