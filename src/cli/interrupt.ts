// Ctrl-C during `invoicing file`: the first aborts fileMany's `stopSignal`, the second its `signal`.

/** The stop state of one `invoicing file` run. */
export class FilingInterrupt {
  readonly #stop = new AbortController();
  readonly #abort = new AbortController();
  /** Inputs started (their first step seen, fileMany's onStep) and not finished yet (onProgress). */
  readonly #inFlight = new Set<number>();
  readonly stopSignal = this.#stop.signal;
  readonly signal = this.#abort.signal;

  /** Whether Ctrl-C was pressed. */
  get interrupted(): boolean { return this.stopSignal.aborted; }

  get inFlight(): number { return this.#inFlight.size; }

  start(index: number): void {
    this.#inFlight.add(index);
  }

  settle(index: number): void {
    this.#inFlight.delete(index);
  }

  /** A Ctrl-C: the first stops new work; the second aborts what is in flight. */
  press(): 'stopping' | 'aborted' {
    if (!this.interrupted) {
      this.#stop.abort(new Error('Interrupted (Ctrl-C): invoices not started are left for the next run.'));
      return 'stopping';
    }
    this.#abort.abort(new Error('Interrupted twice (Ctrl-C): stopped at once.'));
    return 'aborted';
  }
}

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
