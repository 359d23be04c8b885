// What an error body says, its hint (only where the service document tells the cause) and the status's reason phrase.
import { isSessionRoute, requiredScope, ROUTES } from './routes.js';

// Long enough for any real message; bounds what a plain-text or HTML body can put in an error.
const MAX_TEXT = 500;
// A hostile body nested thousands deep must not exhaust the stack.
const MAX_MESSAGE_DEPTH = 8;

/** Reads an error body of any shape: the service's words and a machine-readable code, as far as they can be read. */
export function summarizeBody(body: unknown): { message: string | undefined; code: string | undefined } {
  if (typeof body === 'string') return { message: summarizeText(body), code: undefined };
  if (Array.isArray(body)) return { message: joinMessages(body), code: undefined };
  if (typeof body !== 'object' || body === null) return { message: undefined, code: undefined };
  return { message: messageOf(body as Record<string, unknown>), code: codeOf(body as Record<string, unknown>) };
}

function messageOf(record: Record<string, unknown>): string | undefined {
  const fromMessage = readMessage(record.message);
  const fromErrors = readMessage(record.errors);
  // NestJS puts the status text in `error` and the words in `message`; `errors[]` adds field problems.
  if (fromMessage !== undefined && fromErrors !== undefined && !fromMessage.includes(fromErrors)) return `${fromMessage}: ${fromErrors}`;
  return fromMessage ?? fromErrors ?? readMessage(record.error) ?? readMessage(record.detail) ?? readMessage(record.title);
}

function readMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return clean(value);
  if (depth >= MAX_MESSAGE_DEPTH) return undefined;
  if (Array.isArray(value)) return joinMessages(value, depth + 1);
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inner =
    readMessage(record.message, depth + 1) ?? readMessage(record.msg, depth + 1) ?? readMessage(record.detail, depth + 1);
  if (inner === undefined) return undefined;
  const field = fieldOf(record);
  return field === undefined || inner.includes(field) ? inner : `${field}: ${inner}`;
}

function joinMessages(items: unknown[], depth = 0): string | undefined {
  const parts: string[] = [];
  let length = 0;
  for (const item of items) {
    const message = readMessage(item, depth);
    if (message === undefined || message === '') continue;
    parts.push(message);
    length += message.length + 2;
    if (length > 8 * MAX_TEXT) break;
  }
  return parts.length === 0 ? undefined : parts.join('; ');
}

function fieldOf(record: Record<string, unknown>): string | undefined {
  for (const key of ['field', 'path', 'property', 'param', 'loc']) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
    if (Array.isArray(value) && value.length > 0) return value.join('.');
  }
  return undefined;
}

function codeOf(record: Record<string, unknown>): string | undefined {
  for (const value of [record.code, record.errorCode, (record.error as { code?: unknown } | null | undefined)?.code]) {
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

function summarizeText(text: string): string | undefined {
  if (/<\s*(!doctype|html|head|body)\b/i.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
    const words = title === undefined ? undefined : clean(title.replace(/<[^>]*>/g, ' '));
    return words ? `${words} (HTML response)` : 'HTML response';
  }
  return clean(text);
}

function clean(text: string): string | undefined {
  const collapsed = text.slice(0, 16 * MAX_TEXT).replace(/\s+/g, ' ').trim();
  if (collapsed === '') return undefined;
  return collapsed.length > MAX_TEXT ? `${collapsed.slice(0, MAX_TEXT)}…` : collapsed;
}

export function requestIdOf(headers: Headers | undefined): string | undefined {
  return headers?.get('x-request-id') ?? headers?.get('request-id') ?? headers?.get('x-correlation-id') ?? undefined;
}

const lookups = (): string =>
  `Valid codes: GET ${ROUTES.hsCodes} for goods (hsnCode, NNNN.NN; client.codes.hsCodes()) and ` +
  `GET ${ROUTES.serviceCodes} for services (isicCode, four digits; client.codes.serviceCodes()). ` +
  'Never pad a four-digit code to NNNN.00, never send the placeholders 0000 or 0000.00, and never ' +
  'send both codes with different values.';

const CLASSIFICATION = /classification|hsn\s*code|isic\s*code|hsnCode|isicCode|hs code/i;
const CLASSIFICATION_RULE = 'A good needs hsnCode, a service needs isicCode.';
const PLACEHOLDERS = new Set(['0000', '0000.00']);

/** The hint of an error response, where the service document tells its cause (the Errors table of the SDK design). */
export function hintFor(ctx: { status: number; message: string | undefined; method: string; path: string }): string | undefined {
  const message = ctx.message ?? '';
  switch (ctx.status) {
    case 400:
    case 422:
      if (/idempotency/i.test(message)) {
        return `POST ${ROUTES.invoices} requires an idempotency-key header. The SDK always sends one; ` +
          'check that a custom fetch or proxy does not strip it.';
      }
      return CLASSIFICATION.test(message) ? classificationHint(message) : undefined;
    case 401:
      if (isSessionRoute(ctx.path)) {
        return 'Key-management routes need a signed-in session token (option sessionToken or ' +
          'INVOICING_SESSION_TOKEN), sent as Authorization: Bearer. An API key cannot manage keys.';
      }
      return 'Only the X-API-Key header authenticates (the SDK sends it; Authorization: ApiKey and an ' +
        'apiKey query parameter are rejected). Check the key (option apiKey or INVOICING_API_KEY). ' +
        'Creating a key revokes the existing key of the same type at once: if a newer key was ' +
        'created, use that one (client.apiKeys.list() and reveal(id) from a signed-in session).';
    case 403: {
      const required = requiredScope(ctx.method, ctx.path);
      const needs =
        required === undefined
          ? 'a scope this key does not hold'
          : required.documented
            ? `the scope ${required.scope}`
            : `probably the scope ${required.scope} (the service does not document this route's scope)`;
      return `This call needs ${needs}. Create a key whose scopes include it (or ['*']) from a signed-in ` +
        'session with client.apiKeys.create({ ..., scopes }); note that creating a key revokes the ' +
        'existing key of the same type at once.';
    }
    case 404:
      if (!BUSINESS_NOT_FOUND.test(message)) return undefined;
      return "The business is not owned by the key's user, or the key is a BUSINESS key: the service " +
        'has a known defect where a BUSINESS key fails on POST /api/v1/invoices with "Business not ' +
        'found". Use a USER key (keyableType USER), which acts for every business the user owns.';
    case 409:
      if (!IDEMPOTENCY.test(message)) return undefined;
      return 'This idempotency-key was already used with a different request body. Send exactly the same body ' +
        'to get the invoice created the first time; file a corrected version of a failed document under ' +
        'its next revision: createAndFile(corrected, { externalRef, revision: 1 }), or deriveIdempotencyKey(businessId, externalRef, 1).';
    default:
      return undefined;
  }
}

export const redirectHint = (baseUrl: string): string =>
  'The SDK never follows redirects, so credentials never go elsewhere (nor should a custom fetch). ' +
  `Check baseUrl (${baseUrl}): http for https? a proxy? a path prefix?`;

export const BUSINESS_NOT_FOUND = /business\s+not\s+found/i;
export const IDEMPOTENCY = /idempoten/i;

/** The line (from 0) and field a classification message names, if it names one. */
function lineNamedIn(message: string): { index: number | undefined; field: string | undefined } {
  const field = /\b(hsnCode|isicCode)\b/i.exec(message)?.[1];
  const indexed = /\blines?\s*(?:\[\s*(\d+)\s*\]|\.(\d+))/i.exec(message);
  const counted = /\bline\s+(?:#|no\.?\s*)?(\d+)\b/i.exec(message);
  const index = indexed ? Number(indexed[1] ?? indexed[2]) : counted ? Math.max(0, Number(counted[1]) - 1) : undefined;
  return { index, field };
}

function classificationHint(message: string): string {
  const { index, field } = lineNamedIn(message);
  const where =
    index === undefined
      ? 'The message does not say which line: run checkInvoice(input) to list every line with a ' +
        'classification problem at once.'
      : `Line ${index + 1} (lines[${index}]${field === undefined ? '' : `.${field}`}) has an invalid or missing classification code.`;
  return `${where} ${CLASSIFICATION_RULE} ${lookups()}`;
}

const sentCode = (value: unknown): string | undefined => (value === undefined || value === null ? '' : String(value).trim()) || undefined;

/** The classification hint for a 400 whose message names no line, worked out from the lines sent; `undefined` when none shows a fault. */
export function sentLinesClassificationHint(message: string | undefined, lines: unknown): string | undefined {
  if (message === undefined || !CLASSIFICATION.test(message)) return undefined;
  if (lineNamedIn(message).index !== undefined || !Array.isArray(lines)) return undefined;
  const faults: string[] = [];
  lines.forEach((line: unknown, i) => {
    const hsn = sentCode((line as { hsnCode?: unknown } | null)?.hsnCode);
    const isic = sentCode((line as { isicCode?: unknown } | null)?.isicCode);
    const at = (...fields: string[]) => `line ${i + 1} (${fields.map((f) => `lines[${i}].${f}`).join(', ')})`;
    if (hsn === undefined && isic === undefined) {
      faults.push(`${at('hsnCode', 'isicCode')} has neither code`);
    } else if (hsn !== undefined && isic !== undefined && hsn !== isic) {
      faults.push(`${at('hsnCode', 'isicCode')} sends both codes with different values`);
    } else {
      if (hsn !== undefined && PLACEHOLDERS.has(hsn)) faults.push(`${at('hsnCode')} is the placeholder ${hsn}`);
      if (isic !== undefined && PLACEHOLDERS.has(isic)) faults.push(`${at('isicCode')} is the placeholder ${isic}`);
    }
  });
  if (faults.length === 0) return undefined;
  return `From the lines sent: ${faults.join('; ')}. ${CLASSIFICATION_RULE} ${lookups()}`;
}

// The reason phrase of each status the service document (or a gateway in front of it) can answer.
const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export const statusText = (status: number): string | undefined => STATUS_TEXT[status];
