/**
 * The wording of every hint, in one place. A hint says what the service document tells about the
 * cause of an error, and what to do.
 */
import { isSessionRoute, requiredScope, ROUTES } from '../routes.js';

/** What a hint is chosen from. */
export interface HintContext {
  status: number;
  /** The service's message, as read from the body. */
  message: string | undefined;
  method: string;
  path: string;
}

// Built by a call marked pure: the routes are read as properties, which a bundler would otherwise
// keep (with the text) in every bundle of the module that holds them.
const LOOKUPS = /* @__PURE__ */ (() =>
  `Valid codes: GET ${ROUTES.hsCodes} for goods (hsnCode, NNNN.NN; client.codes.hsCodes()) and ` +
  `GET ${ROUTES.serviceCodes} for services (isicCode, four digits; client.codes.serviceCodes()). ` +
  'Never pad a four-digit code to NNNN.00, never send the placeholders 0000 or 0000.00, and never ' +
  'send both codes with different values.')();

const CLASSIFICATION = /classification|hsn\s*code|isic\s*code|hsnCode|isicCode|hs code/i;

export function hintFor(ctx: HintContext): string | undefined {
  const message = ctx.message ?? '';
  switch (ctx.status) {
    case 400:
    case 422:
      if (/idempotency/i.test(message)) {
        return (
          `POST ${ROUTES.invoices} requires an idempotency-key header. The SDK always sends one; ` +
          'check that a custom fetch or proxy does not strip it.'
        );
      }
      if (CLASSIFICATION.test(message)) return classificationHint(message);
      return undefined;
    case 401:
      if (isSessionRoute(ctx.path)) {
        return (
          'Key-management routes need a signed-in session token (option sessionToken or ' +
          'INVOICING_SESSION_TOKEN), sent as Authorization: Bearer. An API key cannot manage keys.'
        );
      }
      return (
        'Only the X-API-Key header authenticates (the SDK sends it; Authorization: ApiKey and an ' +
        'apiKey query parameter are rejected). Check the key (option apiKey or INVOICING_API_KEY). ' +
        'Creating a key revokes the existing key of the same type at once: if a newer key was ' +
        'created, use that one (client.apiKeys.list() and reveal(id) from a signed-in session).'
      );
    case 403: {
      const required = requiredScope(ctx.method, ctx.path);
      const needs =
        required === undefined
          ? 'a scope this key does not hold'
          : required.documented
            ? `the scope ${required.scope}`
            : `probably the scope ${required.scope} (the service does not document this route's scope)`;
      return (
        `This call needs ${needs}. Create a key whose scopes include it (or ['*']) from a signed-in ` +
        'session with client.apiKeys.create({ ..., scopes }); note that creating a key revokes the ' +
        'existing key of the same type at once.'
      );
    }
    case 404:
      if (isBusinessNotFound(message)) {
        return (
          "The business is not owned by the key's user, or the key is a BUSINESS key: the service " +
          'has a known defect where a BUSINESS key fails on POST /api/v1/invoices with "Business not ' +
          'found". Use a USER key (keyableType USER), which acts for every business the user owns.'
        );
      }
      return undefined;
    case 409:
      if (isIdempotencyConflict(message)) {
        return (
          'This idempotency-key was already used with a different request body. Use a new key for a ' +
          'different invoice (deriveIdempotencyKey(businessId, externalRef) gives one per document), ' +
          'or send exactly the same body to get the invoice created the first time.'
        );
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The hint of a refused redirect (also one a custom fetch followed although asked not to). */
export function redirectHint(baseUrl: string): string {
  return (
    'The SDK never follows redirects, so credentials never go elsewhere (nor should a custom fetch). ' +
    `Check baseUrl (${baseUrl}): http for https? a proxy? a path prefix?`
  );
}

export function isBusinessNotFound(message: string | undefined): boolean {
  return /business\s+not\s+found/i.test(message ?? '');
}

export function isIdempotencyConflict(message: string | undefined): boolean {
  return /idempoten/i.test(message ?? '');
}

/** The line (from 0) and field a classification message names, if it names one. */
function lineNamedIn(message: string): { index: number | undefined; field: string | undefined } {
  const field = /\b(hsnCode|isicCode)\b/i.exec(message)?.[1];
  const indexed = /\blines?\s*(?:\[\s*(\d+)\s*\]|\.(\d+))/i.exec(message);
  const counted = /\bline\s+(?:#|no\.?\s*)?(\d+)\b/i.exec(message);
  let index: number | undefined;
  if (indexed) index = Number(indexed[1] ?? indexed[2]);
  else if (counted) index = Math.max(0, Number(counted[1]) - 1);
  return { index, field };
}

/**
 * Names the line and field when the message does (`lines.2.hsnCode`, `lines[2]`, `line 3`), and the
 * lookup endpoints either way.
 */
function classificationHint(message: string): string {
  const { index, field } = lineNamedIn(message);
  const where =
    index === undefined
      ? 'The message does not say which line: run checkInvoice(input) to list every line with a ' +
        'classification problem at once.'
      : `Line ${index + 1} (lines[${index}]${field === undefined ? '' : `.${field}`}) has an invalid or missing classification code.`;
  return `${where} ${CLASSIFICATION_RULE} ${LOOKUPS}`;
}

const CLASSIFICATION_RULE = 'A good needs hsnCode, a service needs isicCode.';

const PLACEHOLDERS = new Set(['0000', '0000.00']);

/** A code as sent: the trimmed string, or `undefined` for a missing or blank one. */
function sentCode(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/**
 * The classification hint for a 400 on `POST /invoices` whose message names no line (the service
 * answers only "... has an invalid or missing classification code"), worked out from the lines that
 * were sent: a line with neither `hsnCode` nor `isicCode`, a placeholder (`0000.00`, `0000`), or both
 * codes with different values. `undefined` when the message is not about classification, already
 * names a line, or no sent line shows one of those faults (then the generic hint stands).
 *
 * @example
 * ```ts
 * sentLinesClassificationHint('Line has an invalid or missing classification code', [
 *   { description: 'Widget', quantity: 1, unitPrice: 5, taxRate: 7.5, hsnCode: '0000.00' },
 * ]);
 * // 'From the lines sent: line 1 (lines[0].hsnCode) is the placeholder 0000.00. …'
 * ```
 */
export function sentLinesClassificationHint(message: string | undefined, lines: unknown): string | undefined {
  if (message === undefined || !CLASSIFICATION.test(message)) return undefined;
  if (lineNamedIn(message).index !== undefined || !Array.isArray(lines)) return undefined;
  const faults: string[] = [];
  lines.forEach((line: unknown, i) => {
    const record = typeof line === 'object' && line !== null ? (line as Record<string, unknown>) : {};
    const hsn = sentCode(record.hsnCode);
    const isic = sentCode(record.isicCode);
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
  return `From the lines sent: ${faults.join('; ')}. ${CLASSIFICATION_RULE} ${LOOKUPS}`;
}
