/**
 * Reading an error body of any shape. The service does not publish its error format, so this
 * accepts what NestJS-style services send (`{ statusCode, message, error }` with `message` a string
 * or an array), `{ error }` (a string or an object), `{ errors: [...] }`, RFC 7807 problem details,
 * plain text and HTML pages from proxies.
 */

/** What an error body says, as far as it can be read. */
export interface BodySummary {
  /** The service's own words, or `undefined` when the body says nothing readable. */
  message: string | undefined;
  /** A machine-readable code, where the body carries one. */
  code: string | undefined;
}

// Long enough for any real message; bounds what a plain-text or HTML body can put in an error.
const MAX_TEXT = 500;

export function summarizeBody(body: unknown): BodySummary {
  if (typeof body === 'string') return { message: summarizeText(body), code: undefined };
  if (Array.isArray(body)) return { message: joinMessages(body), code: undefined };
  if (typeof body !== 'object' || body === null) return { message: undefined, code: undefined };
  const record = body as Record<string, unknown>;
  return { message: messageOf(record), code: codeOf(record) };
}

function messageOf(record: Record<string, unknown>): string | undefined {
  const fromMessage = readMessage(record.message);
  const fromErrors = readMessage(record.errors);
  const fromError = readMessage(record.error);
  const fromProblem = readMessage(record.detail) ?? readMessage(record.title);
  // NestJS puts the status text ("Bad Request") in `error` and the real words in `message`, so
  // `message` wins; `errors[]` lists field problems that a generic `message` would hide.
  if (fromMessage !== undefined && fromErrors !== undefined && !fromMessage.includes(fromErrors)) {
    return `${fromMessage}: ${fromErrors}`;
  }
  return fromMessage ?? fromErrors ?? fromError ?? fromProblem;
}

// Real error bodies nest messages two or three levels deep; a broken or hostile body nested
// thousands deep must not exhaust the stack (a RangeError instead of the typed error).
const MAX_MESSAGE_DEPTH = 8;

function readMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return clean(value);
  if (typeof value === 'number' || typeof value === 'boolean') return undefined;
  if (depth >= MAX_MESSAGE_DEPTH) return undefined;
  if (Array.isArray(value)) return joinMessages(value, depth + 1);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const inner =
      readMessage(record.message, depth + 1) ?? readMessage(record.msg, depth + 1) ?? readMessage(record.detail, depth + 1);
    if (inner === undefined) return undefined;
    const field = fieldOf(record);
    return field === undefined || inner.includes(field) ? inner : `${field}: ${inner}`;
  }
  return undefined;
}

function joinMessages(items: unknown[], depth = 0): string | undefined {
  const parts = items.map((item) => readMessage(item, depth)).filter((m): m is string => m !== undefined && m !== '');
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
  const nested = typeof record.error === 'object' && record.error !== null ? record.error : undefined;
  for (const value of [record.code, record.errorCode, (nested as Record<string, unknown> | undefined)?.code]) {
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
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed === '') return undefined;
  return collapsed.length > MAX_TEXT ? `${collapsed.slice(0, MAX_TEXT)}…` : collapsed;
}
