import { Redactor } from './redact.js';

/** How much the SDK logs: `debug` (requests, headers redacted), `info` (retries), `warn`, `error` or `off`. @example const level: LogLevel = 'debug'; */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Where log lines go: `console`, pino, winston and most other loggers fit.
 * @example
 * ```ts
 * const client = new InvoicingClient({ logger: console, logLevel: 'info' });
 * ```
 */
export interface Logger {
  /** Every request and response. */ debug(message: string, ...args: unknown[]): void;
  /** Retries. */ info(message: string, ...args: unknown[]): void;
  /** Responses the SDK had to work around. */ warn(message: string, ...args: unknown[]): void;
  /** Failures the SDK reports without throwing. */ error(message: string, ...args: unknown[]): void;
}

/** The accepted levels, lowest first. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

export const isLogLevel = (value: unknown): value is LogLevel => (LOG_LEVELS as readonly unknown[]).includes(value);

/** Wraps `logger`: only lines at `level` or above, each prefixed with the SDK's name and scrubbed by the client's `redactor`. */
export function createLogger(logger: Logger, level: LogLevel, redactor: Redactor = new Redactor()): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const method =
    (name: Exclude<LogLevel, 'off'>) =>
    (message: string, ...args: unknown[]): void => {
      if (LOG_LEVELS.indexOf(name) < threshold) return;
      const line = `[invoicing-sdk] ${redactor.redact(String(message))}`;
      const safeArgs = args.map((arg) => redactor.redactDeep(arg));
      try {
        logger[name](line, ...safeArgs);
      } catch {
        // A broken logger must never break a request.
      }
    };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}
