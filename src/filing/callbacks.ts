// What every filing helper shares: callers' callbacks, scrubbed errors, a small worker pool.
import { redactError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Redactor } from '../core/redact.js';

/** Calls a caller's callback, if any; what it throws or rejects with is logged and the work goes on. */
export function notify<A extends unknown[]>(name: string, logger: Logger | undefined, fn?: (...a: A) => unknown, ...args: A): void {
  if (fn === undefined) return;
  const report = (err: unknown): void => {
    try {
      const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      (logger ?? console).error(`Your ${name} callback threw (${what}); the SDK carried on without it.`);
    } catch {
      // Unprintable value or throwing logger: nothing more to do.
    }
  };
  try {
    const returned = fn(...args);
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') (returned as PromiseLike<unknown>).then(undefined, report);
  } catch (err) {
    report(err);
  }
}

type Scrubbable = { readonly _redactor?: Redactor | undefined };

/** Errors the filing workflow throws or reports, scrubbed with the client's redactor. */
export function scrubbed<E>(api: Scrubbable, error: E): E {
  return api._redactor === undefined ? error : redactError(error, api._redactor);
}

/** `fn` with what it throws or rejects with scrubbed with the redactor of the client (its first argument). */
export function scrubbing<A extends [Scrubbable, ...unknown[]], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    const scrub = (err: unknown): never => {
      throw scrubbed(args[0], err);
    };
    try {
      const result = fn(...args);
      return (result instanceof Promise ? result.catch(scrub) : result) as R;
    } catch (err) {
      return scrub(err);
    }
  };
}

/** Runs `work(0 … count-1)` on at most `concurrency` workers, in index order. */
export async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
