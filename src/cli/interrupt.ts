/**
 * Ctrl-C during `invoicing file`: stop starting new invoices, let those in flight settle, then end.
 *
 * `fileMany`'s `signal` would abort the invoices in flight too, mid-request, leaving them created
 * but not submitted. So the first Ctrl-C only stops new work, at the one place where an invoice
 * starts to exist on the service: its create request. The client gets a `fetch` that lets a create
 * through while the run goes on, and holds (never sends) the create of any invoice whose create
 * was not sent before the stop. Invoices whose create was sent carry on through validate, sign,
 * submit (and the wait); once every one of them has settled, `signal` aborts: the held creates are
 * dropped unsent and the invoices not yet begun are not started. A second Ctrl-C aborts at once.
 *
 * Nothing here decides what is filed twice: each invoice's idempotency key is derived from its
 * content or its file and position, so a re-run gets the same keys and picks up what is done.
 */
import type { Fetch } from '../index.js';

const CREATE_PATH = /\/api\/v1\/invoices\/?$/;

/** The stop state of one `invoicing file` run. */
export class FilingInterrupt {
  readonly #controller = new AbortController();
  /** Idempotency keys of the creates sent (in flight or done). */
  readonly #sent = new Set<string>();
  /** Keys of the invoices whose filing ended, one way or another. */
  readonly #settled = new Set<string>();
  #stopping = false;
  readonly #base: Fetch;

  constructor(base: Fetch = (input, init) => globalThis.fetch(input, init)) {
    this.#base = base;
  }

  /** Aborts when the run must end: every invoice in flight has settled, or a second Ctrl-C. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether Ctrl-C was pressed. */
  get interrupted(): boolean {
    return this.#stopping;
  }

  /** Invoices whose create was sent and that have not settled yet. */
  get inFlight(): number {
    let n = 0;
    for (const key of this.#sent) if (!this.#settled.has(key)) n++;
    return n;
  }

  /** Whether the create of the invoice with this key was ever sent. */
  wasSent(key: string | undefined): boolean {
    return key !== undefined && this.#sent.has(key);
  }

  /** A Ctrl-C: the first stops new work; the second aborts what is in flight. */
  press(): 'stopping' | 'aborted' {
    if (this.#stopping) {
      this.#controller.abort(new Error('Interrupted twice (Ctrl-C): stopped at once.'));
      return 'aborted';
    }
    this.#stopping = true;
    this.#drained();
    return this.#controller.signal.aborted ? 'aborted' : 'stopping';
  }

  /** An invoice's filing ended (fileMany's onProgress). */
  settle(key: string | undefined): void {
    if (key === undefined) return;
    this.#settled.add(key);
    this.#drained();
  }

  #drained(): void {
    if (this.#stopping && this.inFlight === 0 && !this.#controller.signal.aborted) {
      this.#controller.abort(new Error('Interrupted (Ctrl-C): invoices not started were left for the next run.'));
    }
  }

  /** The client's `fetch`: sends everything, except, after Ctrl-C, the create of a new invoice. */
  readonly fetch: Fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const url = new URL(request?.url ?? String(input));
    if (method !== 'POST' || !CREATE_PATH.test(url.pathname)) return this.#base(input, init);
    const key = new Headers(init?.headers ?? request?.headers).get('idempotency-key') ?? undefined;
    if (key !== undefined && (this.#sent.has(key) || !this.#stopping)) {
      this.#sent.add(key);
      return this.#base(input, init);
    }
    // A new invoice after Ctrl-C: held unsent until the run ends (or the request is given up).
    const signals = [this.#controller.signal, init?.signal ?? request?.signal].filter((s): s is AbortSignal => s != null);
    return new Promise<Response>((_, reject) => {
      const give = (s: AbortSignal) => reject(s.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      for (const s of signals) {
        if (s.aborted) return give(s);
        s.addEventListener('abort', () => give(s), { once: true });
      }
    });
  };
}

/** `err`, or an error in its `cause` chain, is an abort (by name, as the SDK's guards read errors). */
export function isAbort(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e.name === 'APIUserAbortError' || e.name === 'AbortError') return true;
  }
  return false;
}

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
