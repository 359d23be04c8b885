/**
 * How the malformed-responses catalogue judges an outcome: a value, or an error that must be typed.
 */
import { isFilingError, isInvoicingError } from '../../../src/core/errors.js';

/** What a call came to. */
export type Outcome = { kind: 'value'; value: unknown } | { kind: 'error'; error: unknown };

/** Runs `call` and captures its outcome. */
export async function outcomeOf(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { kind: 'value', value: await call() };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/**
 * The problems with `error` as an SDK failure: it must be an `InvoicingError` (by name, as users'
 * guards check it) and not a built-in exception dressed up; a `FilingError` must wrap a typed error
 * in turn (a `TypeError` hidden as its cause is still a crash). Empty when all is well.
 */
export function expectTyped(error: unknown, where: string): string[] {
  const problems: string[] = [];
  const builtIn = error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError || error instanceof ReferenceError;
  if (!isInvoicingError(error) || builtIn) {
    problems.push(`${where}: ${describe(error)} is not a typed SDK error`);
    return problems;
  }
  // A FilingError wraps a cause that is not an SDK error in a plain InvoicingError: look through it.
  if ((isFilingError(error) || error.name === 'InvoicingError') && error.cause !== undefined) {
    problems.push(...expectTyped(error.cause, `${where} (cause of ${error.name})`));
  }
  return problems;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 200)}`;
  return String(error);
}
