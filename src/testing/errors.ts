// Error answers as NestJS gives them: `{ statusCode, message, error }`, outside the envelope.
import { statusText } from '../core/error-hints.js';

export const reasonPhrase = (status: number): string => statusText(status) ?? (status >= 500 ? 'Internal Server Error' : 'Error');

type NestErrorBody = { statusCode: number; message: string | string[]; error: string };
export const nestErrorBody = (status: number, message: string | string[]): NestErrorBody =>
  ({ statusCode: status, message, error: reasonPhrase(status) });

export class SandboxHttpError extends Error {
  constructor(readonly status: number, message: string | string[], readonly body: NestErrorBody = nestErrorBody(status, message)) {
    super(String(message));
  }
}

export const badRequest = (message: string | string[]): SandboxHttpError => new SandboxHttpError(400, message);
export const unauthorized = (message: string): SandboxHttpError => new SandboxHttpError(401, message);
export const forbidden = (message: string): SandboxHttpError => new SandboxHttpError(403, message);
export const notFound = (message: string): SandboxHttpError => new SandboxHttpError(404, message);
export const conflict = (message: string): SandboxHttpError => new SandboxHttpError(409, message);
