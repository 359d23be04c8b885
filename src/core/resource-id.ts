// Not in routes.ts, which must not import errors.ts (errors.ts imports error-hints.ts, which reads routes).
import { InvoicingError } from './errors.js';

/** Refuses, before any request, an id that cannot name one resource. */
export function assertResourceId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || id.trim() === '') {
    throw new InvoicingError(`${what} must be a non-empty string; got ${JSON.stringify(id)}.`);
  }
  if (/^(?:\.|%2e){1,2}$/i.test(id)) {
    throw new InvoicingError(`${what} cannot be ${JSON.stringify(id)}: it is a path step, not an id.`);
  }
}
