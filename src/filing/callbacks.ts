/**
 * The caller's callbacks (`onStep`, `onProgress`, `onStatus`) report on work the SDK does; they are
 * never part of it. What one throws, or the promise it returns rejecting, is logged at `error` and
 * the work goes on: a broken progress bar must not stop a filing half-way, turn a filed invoice
 * into a failure, or lose the results of a batch.
 */
import type { Logger } from '../core/logger.js';

/**
 * Calls `fn` for callback `name` (e.g. `'onProgress'`), isolating the SDK from what it throws.
 *
 * @example
 * ```ts
 * notify('onProgress', logger, () => opts.onProgress?.(progress));
 * ```
 */
export function notify(name: string, logger: Logger | undefined, fn: () => unknown): void {
  try {
    const returned = fn();
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
      (returned as PromiseLike<unknown>).then(undefined, (err: unknown) => report(name, logger, err));
    }
  } catch (err) {
    report(name, logger, err);
  }
}

function report(name: string, logger: Logger | undefined, err: unknown): void {
  try {
    const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    (logger ?? console).error(`Your ${name} callback threw (${what}); the SDK carried on without it.`);
  } catch {
    // A value that cannot even be printed, or a logger that throws: nothing more to do.
  }
}
