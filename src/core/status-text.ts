// HTTP reason phrases for the error factory and the sandbox; no imports, so the sandbox loads neither transport nor zod.

/** The reason phrase of each status the service document (or a gateway in front of it) can answer. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of `status`, or `undefined` for a status outside the table. */
export function statusText(status: number): string | undefined {
  return STATUS_TEXT[status];
}
