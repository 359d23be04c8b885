// Shared by the options and the transport, so neither imports the other.
import { InvoicingError } from './errors.js';

/** A `fetch` implementation (the global one, or a proxy-aware or instrumented one). @example const traced: Fetch = (input, init) => { console.log('fetch'); return fetch(input, init); }; */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** An integer from `min` to `max`, by default 2147483647, the per-call bounds too. */
export function boundedInteger(name: string, value: number | undefined, fallback: number, min: number, max = 2_147_483_647): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvoicingError(`${name} must be an integer from ${min} to ${max}; got ${String(value)}.`);
  }
  return value;
}
