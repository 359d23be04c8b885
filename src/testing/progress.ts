// The invoice state machine, evaluated lazily: every request and clock move applies the events that became due.
import type { FilingTransition } from '../model/status.js';
import { conflict } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { resolveScenario, spell, STEPS, type ResolvedScenario, type Scenario, type ScenarioRule, type ScenarioSubject } from './scenarios.js';
import type { InvoiceRecord, Store } from './store.js';

// The document's automatic recovery: every 10 minutes, up to 3 attempts, only invoices touched in the last 24 hours.
const RECOVERY = { intervalMs: 600_000, maxAttempts: 3, windowMs: 86_400_000 } as const;

export function recoveryOf(invoice: InvoiceRecord, now: number): 'in-progress' | 'over' | 'not-applicable' {
  if (invoice.status !== 'ERROR') return 'not-applicable';
  return invoice.attempts < RECOVERY.maxAttempts && now - invoice.updatedAt < RECOVERY.windowMs ? 'in-progress' : 'over';
}

/** What happens to an invoice on its own: the authority's answer, its verdict after processing, a job run. */
type EventKind = 'respond' | 'verdict' | 'retry';

export class Progress {
  // Sorted by time, ties in scheduling order.
  private readonly queue: { at: number; id: string; kind: EventKind }[] = [];
  /** The sandbox-wide scenario or rule; per-invoice choices live on the record. */ scenario: Scenario | ScenarioRule;

  constructor(private readonly store: Store, private readonly options: ResolvedOptions) {
    this.scenario = options.scenario;
  }

  runDue(now: number): void {
    while (this.queue[0] !== undefined && this.queue[0].at <= now) {
      const { at, id, kind } = this.queue.shift()!;
      const invoice = this.store.invoices.get(id);
      // Stale when the invoice was re-submitted or edited since it was scheduled.
      if (invoice?.next?.at !== at || invoice.next.kind !== kind) continue;
      invoice.next = null;
      if (kind === 'respond') this.attempt(invoice, 0, at);
      else if (kind === 'verdict') this.conclude(invoice, invoice.verdict!, at);
      else if (this.picksUp(invoice, at)) {
        invoice.attempts += 1;
        this.attempt(invoice, invoice.attempts, at);
      }
    }
  }

  /** Throws 409 naming the current status; a submit while recovery is in play is accepted with no effect. */
  transition(invoice: InvoiceRecord, transition: FilingTransition, now: number): void {
    const { from, to, done } = STEPS[transition];
    if (!(from as readonly string[]).includes(invoice.status)) {
      const spelling = this.options.statusSpelling;
      const needs = from.filter((s) => s !== 'ERROR').map((s) => spell(s, spelling)).join(' or ');
      const is = spell(invoice.status, spelling);
      throw conflict(`Invoice ${invoice.id} cannot be ${done}: its status is ${is} (${transition} requires ${needs})`);
    }
    if (transition === 'submit' && recoveryOf(invoice, now) === 'in-progress') return;
    this.setStatus(invoice, to, now);
    if (transition === 'submit') {
      Object.assign(invoice, { attempts: 0, errorMessage: null, submittedAt: now, submissions: invoice.submissions + 1 });
      this.schedule(invoice, 'respond', now + this.options.responseDelayMs);
    }
  }

  schedule(invoice: InvoiceRecord, kind: EventKind, at: number): void {
    invoice.next = { kind, at };
    this.queue.push({ at, id: invoice.id, kind });
    this.queue.sort((a, b) => a.at - b.at);
  }

  setStatus(invoice: InvoiceRecord, status: string, at: number): void {
    invoice.status = status;
    invoice.updatedAt = at;
    invoice.history.push({ status, at });
  }

  /** Books `invoice` for the recovery job's first run after `after`, if that run will pick it up. */
  bookRecovery(invoice: InvoiceRecord, after: number): void {
    const { intervalMs } = RECOVERY;
    const offset = this.options.recoveryJobOffsetMs;
    const run = offset + (Math.floor((after - offset) / intervalMs) + 1) * intervalMs;
    if (this.picksUp(invoice, run)) this.schedule(invoice, 'retry', run);
  }

  private scenarioFor(invoice: InvoiceRecord): ResolvedScenario {
    const { id, businessId, buyer, lines, idempotencyKey, attempts } = invoice;
    const subject = (): ScenarioSubject =>
      structuredClone({ id, businessId, buyer: buyer as ScenarioSubject['buyer'], lines, idempotencyKey, attempts });
    const chosen = invoice.scenario ?? (typeof this.scenario === 'function' ? this.scenario(subject()) : this.scenario);
    return resolveScenario(chosen ?? 'accepted', this.options);
  }

  private readonly picksUp = (invoice: InvoiceRecord, run: number): boolean =>
    invoice.automaticRetries && recoveryOf(invoice, run) === 'in-progress';

  // Attempt 0 is the submit itself, 1-3 the automatic retries.
  private attempt(invoice: InvoiceRecord, attempt: number, at: number): void {
    const { status, errorMessage, failure } = this.scenarioFor(invoice);
    if (failure !== undefined && (failure.recoversOnAttempt === 'never' || attempt < failure.recoversOnAttempt)) {
      invoice.errorMessage = failure.message;
      invoice.automaticRetries = failure.automaticRetries;
      // A failed retry touches the invoice without changing its status.
      if (invoice.status === 'ERROR') invoice.updatedAt = at;
      else this.setStatus(invoice, 'ERROR', at);
      this.bookRecovery(invoice, at);
    } else if (status === undefined) {
      if (attempt > 0) this.setStatus(invoice, 'SUBMITTED', at);
    } else if (this.options.processingMs > 0) {
      invoice.errorMessage = null;
      invoice.verdict = { status, errorMessage };
      this.setStatus(invoice, this.options.processingStatus, at);
      this.schedule(invoice, 'verdict', at + this.options.processingMs);
    } else {
      this.conclude(invoice, { status, errorMessage }, at);
    }
  }

  private conclude(invoice: InvoiceRecord, verdict: { status: string; errorMessage: string | null }, at: number): void {
    invoice.verdict = null;
    invoice.errorMessage = verdict.errorMessage;
    this.setStatus(invoice, verdict.status, at);
  }
}
