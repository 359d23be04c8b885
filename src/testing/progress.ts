/**
 * The invoice state machine of the sandbox: the three transitions a caller sends, and what happens
 * after submit without any caller action (the tax authority's answer, and the service's recovery
 * job). Progress is evaluated lazily from the sandbox clock: every request and every clock move
 * applies, in time order, the events that became due, so advancing the clock by 24 hours plays out
 * every job run in between without real time passing.
 *
 * The recovery job runs on its own schedule, as the document's "runs every 10 minutes" reads: at
 * every multiple of 10 minutes of sandbox time (since the Unix epoch, shifted by the
 * `recoveryJobOffsetMs` option). Each run re-submits every invoice in Error that it may pick up (fewer
 * than 3 attempts used, touched in the last 24 hours), so a rescue lands at the first run after the
 * failure: any moment within 10 minutes of it, not a fixed 10 minutes later.
 */
import { AUTOMATIC_RECOVERY, InvoiceStatus, TRANSITIONS, type FilingTransition } from '../model/status.js';
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
import { spell } from './statuses.js';
import type { InvoiceRecord, Store } from './store.js';

/**
 * The first run of the recovery job strictly after `after`: runs fall at every multiple of
 * `AUTOMATIC_RECOVERY.intervalMs` (10 minutes) of sandbox time, shifted by `offsetMs`.
 *
 * @example
 * ```ts
 * nextRecoveryRun(Date.parse('2026-01-01T10:03:00Z'), 0); // 10:10:00
 * nextRecoveryRun(Date.parse('2026-01-01T10:10:00Z'), 0); // 10:20:00 (a run at 10:10 has begun)
 * nextRecoveryRun(Date.parse('2026-01-01T10:03:00Z'), 5 * 60_000); // 10:05:00
 * ```
 */
export function nextRecoveryRun(after: number, offsetMs: number): number {
  const interval = AUTOMATIC_RECOVERY.intervalMs;
  return offsetMs + (Math.floor((after - offsetMs) / interval) + 1) * interval;
}

/**
 * Automatic recovery as the service sees an invoice at `now`: `in-progress` while the job will still
 * pick it up (in Error, fewer than 3 attempts used, touched in the last 24 hours), `over` for an
 * invoice in Error it no longer will, `not-applicable` outside Error.
 *
 * @example
 * ```ts
 * recoveryOf(record, clock.now()); // 'in-progress'
 * ```
 */
export function recoveryOf(invoice: InvoiceRecord, now: number): 'in-progress' | 'over' | 'not-applicable' {
  if (invoice.status !== InvoiceStatus.ERROR) return 'not-applicable';
  if (invoice.attempts >= AUTOMATIC_RECOVERY.maxAttempts) return 'over';
  return now - invoice.updatedAt < AUTOMATIC_RECOVERY.windowMs ? 'in-progress' : 'over';
}

const VERB: Record<FilingTransition, string> = { validate: 'validated', sign: 'signed', submit: 'submitted' };

/**
 * What happens to an invoice on its own: the authority's answer, its verdict after processing, a job run.
 *
 * @example
 * ```ts
 * progress.schedule(record, 'respond' satisfies EventKind, now + 2_000);
 * ```
 */
export type EventKind = 'respond' | 'verdict' | 'retry';

interface HeapEntry {
  at: number;
  seq: number;
  id: string;
  kind: EventKind;
}

/** A binary min-heap on (at, seq): events apply in time order, ties in scheduling order. */
class EventQueue {
  private readonly items: HeapEntry[] = [];
  private seq = 0;

  push(entry: Omit<HeapEntry, 'seq'>): void {
    const items = this.items;
    items.push({ ...entry, seq: this.seq++ });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  peek(): HeapEntry | undefined {
    return this.items[0];
  }

  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && before(items[l]!, items[m]!)) m = l;
        if (r < items.length && before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Drives invoices through their statuses. */
export class Progress {
  private readonly queue = new EventQueue();
  /** The sandbox-wide scenario or rule; per-invoice choices live on the record. */
  scenario: Scenario | ScenarioRule;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedOptions,
  ) {
    this.scenario = options.scenario;
  }

  /** The scenario that applies to `invoice` now, defaults filled in. */
  scenarioFor(invoice: InvoiceRecord): ResolvedScenario {
    let chosen: Scenario | undefined = invoice.scenario;
    if (chosen === undefined) {
      chosen = typeof this.scenario === 'function' ? this.scenario(subjectOf(invoice)) : this.scenario;
    }
    return resolveScenario(chosen ?? 'accepted', this.options);
  }

  /** Applies, in time order, every event due at or before `now`. */
  runDue(now: number): void {
    for (let top = this.queue.peek(); top !== undefined && top.at <= now; top = this.queue.peek()) {
      this.queue.pop();
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

  /**
   * Performs `transition` on `invoice` at `now`, or throws 409 naming the current status. Submit
   * from Error is the deliberate re-submit once automatic recovery is over; while it is in play,
   * "another submit does not speed it up": accepted, with no effect on the invoice or its recovery.
   */
  transition(invoice: InvoiceRecord, transition: FilingTransition, now: number): void {
    const current = invoice.status;
    if (!(TRANSITIONS[transition].from as readonly string[]).includes(current)) {
      const spelling = this.options.statusSpelling;
      const needs = TRANSITIONS[transition].from
        .filter((s) => s !== InvoiceStatus.ERROR)
        .map((s) => spell(s, spelling))
        .join(' or ');
      throw conflict(
        `Invoice ${invoice.id} cannot be ${VERB[transition]}: its status is ${spell(current, spelling)} (${transition} requires ${needs})`,
      );
    }
    if (transition === 'submit' && current === InvoiceStatus.ERROR && recoveryOf(invoice, now) === 'in-progress') return;
    this.setStatus(invoice, TRANSITIONS[transition].to, now);
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
    this.queue.push({ at, id: invoice.id, kind });
  }

  /** Forgets every scheduled event (on reset). */
  clear(): void {
    this.queue.clear();
  }

  setStatus(invoice: InvoiceRecord, status: string, at: number): void {
    invoice.status = status;
    invoice.updatedAt = at;
    invoice.history.push({ status, at });
  }

  /** The tax authority answers the submit (attempt 0). */
  private respond(invoice: InvoiceRecord, at: number): void {
    if (invoice.status !== InvoiceStatus.SUBMITTED) return;
    const outcome = attemptOutcome(this.scenarioFor(invoice), 0, this.options.acceptedStatus);
    if (outcome.kind === 'answered') {
      this.answer(invoice, { status: outcome.status, errorMessage: outcome.errorMessage }, at);
    } else if (outcome.kind === 'failed') {
      this.fail(invoice, outcome.message, outcome.automaticRetries, at);
    }
  }

  /**
   * The authority's final answer (accepted or rejected) reaches the invoice: at once, or after
   * `processingMs` in `processingStatus` when that stage is on.
   */
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

  /** The end of the processing stage: the final status the authority decided. */
  private conclude(invoice: InvoiceRecord, at: number): void {
    const verdict = invoice.verdict;
    if (verdict === null) return;
    invoice.verdict = null;
    invoice.errorMessage = verdict.errorMessage;
    this.setStatus(invoice, verdict.status, at);
  }

  /**
   * Books `invoice` for the recovery job's first run after `after`, if that run will pick it up;
   * otherwise leaves it unbooked (recovery is over, or the job is kept away from it).
   */
  bookRecovery(invoice: InvoiceRecord, after: number): void {
    const run = nextRecoveryRun(after, this.options.recoveryJobOffsetMs);
    if (this.picksUp(invoice, run)) this.schedule(invoice, 'retry', run);
  }

  /** Whether the job's run at `run` re-submits `invoice`. */
  private picksUp(invoice: InvoiceRecord, run: number): boolean {
    return (
      invoice.status === InvoiceStatus.ERROR &&
      invoice.automaticRetries &&
      invoice.attempts < AUTOMATIC_RECOVERY.maxAttempts &&
      run - invoice.updatedAt < AUTOMATIC_RECOVERY.windowMs
    );
  }

  /** The recovery job's run at `at` re-submits an invoice in Error on its own. */
  private retry(invoice: InvoiceRecord, at: number): void {
    if (!this.picksUp(invoice, at)) return;
    invoice.attempts += 1;
    const outcome = attemptOutcome(this.scenarioFor(invoice), invoice.attempts, this.options.acceptedStatus);
    if (outcome.kind === 'answered') {
      this.answer(invoice, { status: outcome.status, errorMessage: outcome.errorMessage }, at);
    } else if (outcome.kind === 'failed') {
      this.fail(invoice, outcome.message, outcome.automaticRetries, at);
    } else {
      this.setStatus(invoice, InvoiceStatus.SUBMITTED, at);
    }
  }

  private fail(invoice: InvoiceRecord, message: string, automaticRetries: boolean, at: number): void {
    invoice.errorMessage = message;
    invoice.automaticRetries = automaticRetries;
    if (invoice.status === InvoiceStatus.ERROR) {
      // A failed retry touches the invoice without changing its status.
      invoice.updatedAt = at;
    } else {
      this.setStatus(invoice, InvoiceStatus.ERROR, at);
    }
    this.bookRecovery(invoice, at);
  }
}

/** A copy of the invoice for scenario rules. */
export function subjectOf(invoice: InvoiceRecord): ScenarioSubject {
  return structuredClone({
    id: invoice.id,
    businessId: invoice.businessId,
    buyer: invoice.buyer as ScenarioSubject['buyer'],
    lines: invoice.lines,
    idempotencyKey: invoice.idempotencyKey,
    attempts: invoice.attempts,
  });
}
