import { defineInspect } from '../inspect.js';
import { redactCause, redactDeep, redactSecrets } from '../redact.js';
import { isErrorKind, type InvoicingErrorName } from './names.js';

/**
 * Options every SDK error accepts.
 *
 * @example
 * ```ts
 * import { InvoicingError } from 'invoicing-sdk';
 * throw new InvoicingError('Nothing to do', { hint: 'Pass at least one invoice.' });
 * ```
 */
export interface InvoicingErrorOptions {
  /** What to do about it, where the service document tells the cause. */
  hint?: string | undefined;
  /**
   * The underlying error. An SDK error is kept as it is; anything else is kept as a copy scrubbed of
   * secrets (name, message, stack, primitive fields and cause chain; no object-valued fields).
   */
  cause?: unknown;
}

/**
 * The root of every error the SDK throws. Secrets (API key, session token, keys created over the
 * session) never appear in its `message`, `toString()`, `JSON.stringify()` or `util.inspect()`
 * output.
 *
 * @example
 * ```ts
 * import { InvoicingError, isInvoicingError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.retrieve('inv_123');
 * } catch (err) {
 *   if (isInvoicingError(err)) console.error(err.message, err.hint);
 * }
 * ```
 */
export class InvoicingError extends Error {
  /** A stable name (`InvoicingError` here, each subclass its own), read by the name-based guards. */
  override readonly name: InvoicingErrorName = 'InvoicingError';
  /** What to do about it, where the service document tells the cause. */
  readonly hint: string | undefined;

  constructor(message: string, options: InvoicingErrorOptions = {}) {
    // An SDK error as cause was scrubbed when it was built; anything else (a custom fetch's error, a
    // signal's reason) may hold a secret anywhere, so what is kept is a scrubbed copy.
    super(
      redactSecrets(message),
      options.cause === undefined
        ? undefined
        : { cause: options.cause instanceof InvoicingError ? options.cause : redactCause(options.cause) },
    );
    this.hint = options.hint === undefined ? undefined : redactSecrets(options.hint);
    defineInspect(InvoicingError.prototype, inspectError);
  }

  /**
   * Extra fields shown by `toJSON()` and `util.inspect()`; subclasses add theirs. Values are
   * scrubbed of secrets by the caller.
   */
  protected details(): Record<string, unknown> {
    return {};
  }

  /**
   * A plain, secret-free summary: `name`, `message`, `hint`, the subclass's fields and the cause's
   * name and message.
   *
   * @example
   * ```ts
   * console.log(JSON.stringify(err)); // {"name":"RateLimitError","message":"…","status":429,…}
   * ```
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    if (this.hint !== undefined) out.hint = this.hint;
    Object.assign(out, this.details());
    if (this.cause !== undefined) out.cause = summarizeCause(this.cause);
    return redactDeep(out);
  }
}

/**
 * What `util.inspect` and `console.log` show for an SDK error: the stack (secrets scrubbed) and the
 * same fields as `toJSON()`, never the raw cause. On `InvoicingError.prototype` (src/core/inspect.ts).
 */
function inspectError(this: InvoicingError, _depth: number, options: object, inspect?: (value: unknown, options?: object) => string): string {
  const stack = redactSecrets(this.stack ?? `${this.name}: ${this.message}`);
  const { name: _name, message: _message, ...fields } = this.toJSON();
  if (Object.keys(fields).length === 0) return stack;
  const shown = typeof inspect === 'function' ? inspect(fields, options) : JSON.stringify(fields);
  return `${stack} ${shown}`;
}

/** The cause as `{ name, message }` (an error) or a string: never its own properties. */
function summarizeCause(cause: unknown): unknown {
  if (cause instanceof Error || (typeof cause === 'object' && cause !== null && 'message' in cause)) {
    const err = cause as { name?: unknown; message?: unknown };
    return { name: String(err.name ?? 'Error'), message: redactSecrets(String(err.message ?? '')) };
  }
  return redactSecrets(String(cause));
}

/**
 * True for any error thrown by the SDK. Checks `name`, so it also works across realms and across
 * two copies of the SDK.
 *
 * @example
 * ```ts
 * import { isInvoicingError } from 'invoicing-sdk';
 * if (isInvoicingError(err)) console.error(err.hint);
 * ```
 */
export function isInvoicingError(value: unknown): value is InvoicingError {
  return isErrorKind(value, 'InvoicingError');
}
