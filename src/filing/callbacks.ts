import type { Logger } from '../core/logger.js';

/** Calls a caller's callback; what it throws or rejects with is logged and the work goes on. */
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
    // Unprintable value or throwing logger: nothing more to do.
  }
}
