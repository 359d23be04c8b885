/**
 * What the filing workflow throws (and reports in `fileMany` results) is scrubbed with the client's
 * redactor, like every error leaving the transport: a `FilingError`'s message and hint quote the
 * cause, a `WaitTimeoutError` or `RecoveryInProgressError` carries the last record read, and either
 * may hold what the service echoed back.
 */
import { redactError } from '../core/errors.js';
import type { Redactor } from '../core/redact.js';

/** The part of `client.invoices` the filing workflow scrubs with. */
export interface HasRedactor {
  /** The client's redactor (absent for a hand-made API object: nothing is scrubbed then). */
  readonly _redactor?: Redactor | undefined;
}

/**
 * `error` scrubbed in place of the secrets of `api`'s client, and returned.
 *
 * @example
 * ```ts
 * try { … } catch (err) { throw scrubbed(api, err); }
 * ```
 */
export function scrubbed<E>(api: HasRedactor, error: E): E {
  const redactor = api._redactor;
  return redactor === undefined ? error : redactError(error, redactor);
}
