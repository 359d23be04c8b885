/**
 * The CLI's answer to "may this failure pass, so that the same command can succeed later?" (no
 * answer, a timeout, a 5xx or 408, a 429, an abort). `filingAdvice` in file.ts is its one caller.
 *
 * It reads errors by `name` and `status`, as the SDK's own guards do, instead of importing the
 * SDK's classifier: importing `src/filing/retry.ts` (or `src/core/retry.ts`) directly would bundle
 * the SDK's error classes and secret registry into the CLI a second time, while the CLI takes the
 * SDK from `index.js` (test/codes/bundle.test.ts). Once the one classifier (`src/core/retry.ts`,
 * e.g. `isRetryableError`) is exported from the package's main entry, this function's body becomes
 * a call to it through `../index.js`, and this copy goes.
 */

const PASSING = new Set([
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'APIUserAbortError',
  'InvalidResponseError',
  'InternalServerError',
  'RateLimitError',
]);

/** True when the same request may succeed later (see the module comment). */
export function mayPass(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (PASSING.has(err.name)) return true;
  const status = (err as { status?: unknown }).status;
  return err.name === 'APIError' && typeof status === 'number' && (status === 408 || status === 429 || status >= 500);
}
