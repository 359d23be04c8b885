// Errors the filing workflow throws or reports are scrubbed with the client's redactor.
import { redactError } from '../core/errors.js';
import type { Redactor } from '../core/redact.js';

export interface HasRedactor {
  readonly _redactor?: Redactor | undefined;
}

export function scrubbed<E>(api: HasRedactor, error: E): E {
  const redactor = api._redactor;
  return redactor === undefined ? error : redactError(error, redactor);
}
