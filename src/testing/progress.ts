/**
 * The invoice state machine of the sandbox: the three transitions a caller sends, and what happens
 * after submit without any caller action (the tax authority's answer, the automatic retry every 10
 * minutes, up to 3 attempts, within 24 hours). Progress is evaluated lazily from the sandbox clock:
 * every request and every clock move applies, in time order, the events that became due, so
 * advancing the clock by 24 hours plays out every retry in between without real time passing.
 */
import {
  AUTOMATIC_RECOVERY,
  InvoiceStatus,
  SERVICE_STATUS_SPELLING,
  TRANSITIONS,
  canTransition,
  isKnownStatus,
  recoveryState,
  type FilingTransition,
} from '../model/status.js';
import { conflict } from './errors.js';
import type { ResolvedOptions, StatusSpelling } from './options.js';
import {
  attemptOutcome,
  resolveScenario,
  type ResolvedScenario,
  type Scenario,
  type ScenarioRule,
  type ScenarioSubject,
} from './scenarios.js';
import type { InvoiceRecord, Store } from './store.js';

/**
 * The wire spelling of a canonical status under `spelling` (`DRAFT` gives `draft` by default);
 * later statuses as stored.
 */
export function spell(status: string, spelling: StatusSpelling = 'document'): string {
  if (!isKnownStatus(status)) return status;
  switch (spelling) {
    case 'upper':
      return status;
    case 'lower':
      return status.toLowerCase();
    case 'capitalized':
      return status.charAt(0) + status.slice(1).toLowerCase();
    default:
      return SERVICE_STATUS_SPELLING[status];
  }
}

const VERB: Record<FilingTransition, string> = { validate: 'validated', sign: 'signed', submit: 'submitted' };

interface HeapEntry {
  at: number;
  seq: number;
  id: string;
  kind: 'respond' | 'retry';
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
    return resolveScenario(chosen ?? 'accepted', this.options.acceptedStatus);
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
      else this.retry(invoice, top.at);
    }
  }

  /**
   * Performs `transition` on `invoice` at `now`, or throws 409 naming the current status. Submit
   * from Error is the deliberate re-submit, allowed only once automatic recovery is over.
   */
  transition(invoice: InvoiceRecord, transition: FilingTransition, now: number): void {
    const current = invoice.status;
    if (!canTransition(current, transition)) {
      const spelling = this.options.statusSpelling;
      const needs = TRANSITIONS[transition].from
        .filter((s) => s !== InvoiceStatus.ERROR)
        .map((s) => spell(s, spelling))
        .join(' or ');
      throw conflict(
        `Invoice ${invoice.id} cannot be ${VERB[transition]}: its status is ${spell(current, spelling)} (${transition} requires ${needs})`,
      );
    }
    if (transition === 'submit' && current === InvoiceStatus.ERROR) {
      const state = recoveryState({ status: current, updatedAt: new Date(invoice.updatedAt), attempts: invoice.attempts }, now);
      if (state === 'in-progress') {
        throw conflict(
          `Invoice ${invoice.id} is in Error and automatic recovery is in progress ` +
            `(${invoice.attempts} of ${AUTOMATIC_RECOVERY.maxAttempts} attempts used); ` +
            'another submit does not speed it up. Read the invoice instead.',
        );
      }
    }
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
  schedule(invoice: InvoiceRecord, kind: 'respond' | 'retry', at: number): void {
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
    if (outcome.kind === 'accepted') {
      this.setStatus(invoice, outcome.status, at);
    } else if (outcome.kind === 'failed') {
      this.fail(invoice, outcome.message, outcome.automaticRetries, at);
    }
  }

  /** One automatic retry: the service re-submits an invoice in Error on its own. */
  private retry(invoice: InvoiceRecord, at: number): void {
    const eligible =
      invoice.status === InvoiceStatus.ERROR &&
      invoice.automaticRetries &&
      invoice.attempts < AUTOMATIC_RECOVERY.maxAttempts &&
      at - invoice.updatedAt < AUTOMATIC_RECOVERY.windowMs;
    if (!eligible) return;
    invoice.attempts += 1;
    const outcome = attemptOutcome(this.scenarioFor(invoice), invoice.attempts, this.options.acceptedStatus);
    if (outcome.kind === 'accepted') {
      invoice.errorMessage = null;
      this.setStatus(invoice, outcome.status, at);
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
    if (automaticRetries && invoice.attempts < AUTOMATIC_RECOVERY.maxAttempts) {
      this.schedule(invoice, 'retry', at + AUTOMATIC_RECOVERY.intervalMs);
    }
  }
}

/** A copy of the invoice for scenario rules. */
export function subjectOf(invoice: InvoiceRecord): ScenarioSubject {
  return structuredClone({
    id: invoice.id,
    businessId: invoice.businessId,
    buyer: invoice.buyer,
    lines: invoice.lines,
    idempotencyKey: invoice.idempotencyKey,
    attempts: invoice.attempts,
  });
}
