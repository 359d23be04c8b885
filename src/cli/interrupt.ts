/** The stop state of one `invoicing file` run: the first Ctrl-C aborts fileMany's `stopSignal`, the second its `signal`. */
export class FilingInterrupt {
  readonly #stop = new AbortController();
  readonly #abort = new AbortController();
  /** Inputs started (fileMany's onStep) and not finished yet (onProgress). */
  readonly #inFlight = new Set<number>();
  readonly stopSignal = this.#stop.signal;
  readonly signal = this.#abort.signal;

  get interrupted(): boolean { return this.stopSignal.aborted; }

  get inFlight(): number { return this.#inFlight.size; }

  start(index: number): void {
    this.#inFlight.add(index);
  }

  settle(index: number): void {
    this.#inFlight.delete(index);
  }

  press(): 'stopping' | 'aborted' {
    if (!this.interrupted) {
      this.#stop.abort(new Error('Interrupted (Ctrl-C): invoices not started are left for the next run.'));
      return 'stopping';
    }
    this.#abort.abort(new Error('Interrupted twice (Ctrl-C): stopped at once.'));
    return 'aborted';
  }
}

// As a POSIX shell reads it back.
export const shellQuote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
