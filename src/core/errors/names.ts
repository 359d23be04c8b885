/**
 * The error family as data: each error's `name` and the name of its parent. The name-based guards
 * (`isAPIError`, `isRateLimitError`, …) walk this table instead of using `instanceof`, so they work
 * across realms and across duplicated copies of the SDK in one bundle.
 */
/**
 * The \`name\` of every error class the SDK defines.
 *
 * @example
 * ```ts
 * import type { InvoicingErrorName } from 'invoicing-sdk';
 * const name: InvoicingErrorName = 'RateLimitError';
 * ```
 */
export type InvoicingErrorName =
  | 'InvoicingError'
  | 'APIError'
  | 'BadRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'BusinessNotFoundError'
  | 'ConflictError'
  | 'IdempotencyConflictError'
  | 'RateLimitError'
  | 'InternalServerError'
  | 'InvalidResponseError'
  | 'ResponseTooLargeError'
  | 'APIConnectionError'
  | 'APIConnectionTimeoutError'
  | 'APIUserAbortError'
  | 'InvalidTransitionError'
  | 'InvoiceCheckError'
  | 'TotalsMismatchError'
  | 'FilingError'
  | 'WaitTimeoutError';

const PARENT: Readonly<Record<InvoicingErrorName, InvoicingErrorName | undefined>> = {
  InvoicingError: undefined,
  APIError: 'InvoicingError',
  BadRequestError: 'APIError',
  AuthenticationError: 'APIError',
  PermissionDeniedError: 'APIError',
  NotFoundError: 'APIError',
  BusinessNotFoundError: 'NotFoundError',
  ConflictError: 'APIError',
  IdempotencyConflictError: 'ConflictError',
  RateLimitError: 'APIError',
  InternalServerError: 'APIError',
  InvalidResponseError: 'APIError',
  ResponseTooLargeError: 'APIError',
  APIConnectionError: 'APIError',
  APIConnectionTimeoutError: 'APIConnectionError',
  APIUserAbortError: 'APIError',
  InvalidTransitionError: 'ConflictError',
  InvoiceCheckError: 'InvoicingError',
  TotalsMismatchError: 'InvoicingError',
  FilingError: 'InvoicingError',
  WaitTimeoutError: 'InvoicingError',
};

/** Every error name, for tests that must cover the whole family. */
export const ERROR_NAMES = /* @__PURE__ */ Object.keys(PARENT) as InvoicingErrorName[];

/**
 * True when `value` is an error whose `name` is `name` or a descendant of it in the family table.
 * Reads only `name`, so it is safe on any value.
 */
export function isErrorKind(value: unknown, name: InvoicingErrorName): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let current: unknown = (value as { name?: unknown }).name;
  while (typeof current === 'string') {
    if (current === name) return true;
    current = Object.hasOwn(PARENT, current) ? PARENT[current as InvoicingErrorName] : undefined;
  }
  return false;
}
