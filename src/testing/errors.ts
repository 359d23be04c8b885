/**
 * Error answers the way a NestJS service gives them: `{ statusCode, message, error }`, outside the
 * success envelope; `message` is a string, or an array of strings for field validation
 * (class-validator's wording). Routes throw `SandboxHttpError`; the core turns it into a response.
 */

import { statusText } from '../core/status-text.js';

/** The reason phrase NestJS puts in `error` for a status. */
export function reasonPhrase(status: number): string {
  return statusText(status) ?? (status >= 500 ? 'Internal Server Error' : 'Error');
}

/** A NestJS-style error body. */
export interface NestErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

/** Builds the body NestJS sends for an `HttpException`. */
export function nestErrorBody(status: number, message: string | string[]): NestErrorBody {
  return { statusCode: status, message, error: reasonPhrase(status) };
}

/** Thrown by a route to answer with an error; `headers` are added to the response. */
export class SandboxHttpError extends Error {
  override readonly name = 'SandboxHttpError';
  readonly status: number;
  readonly body: NestErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string | string[], headers: Record<string, string> = {}) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.status = status;
    this.body = nestErrorBody(status, message);
    this.headers = headers;
  }
}

/** Shorthands, so routes read like the document's Errors table. */
export const badRequest = (message: string | string[]): SandboxHttpError => new SandboxHttpError(400, message);
export const unauthorized = (message: string): SandboxHttpError => new SandboxHttpError(401, message);
export const forbidden = (message: string): SandboxHttpError => new SandboxHttpError(403, message);
export const notFound = (message: string): SandboxHttpError => new SandboxHttpError(404, message);
export const conflict = (message: string): SandboxHttpError => new SandboxHttpError(409, message);
