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

const LOOKUPS =
  `Valid codes: GET ${ROUTES.hsCodes} for goods (hsnCode, NNNN.NN; client.codes.hsCodes()) and ` +
  `GET ${ROUTES.serviceCodes} for services (isicCode, four digits; client.codes.serviceCodes()). ` +
  'Never pad a four-digit code to NNNN.00, never send the placeholders 0000 or 0000.00, and never ' +
  'send both codes with different values.';

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

export function isBusinessNotFound(message: string | undefined): boolean {
  return /business\s+not\s+found/i.test(message ?? '');
}

export function isIdempotencyConflict(message: string | undefined): boolean {
  return /idempoten/i.test(message ?? '');
}

/**
 * Names the line and field when the message does (`lines.2.hsnCode`, `lines[2]`, `line 3`), and the
 * lookup endpoints either way.
 */
function classificationHint(message: string): string {
  const field = /\b(hsnCode|isicCode)\b/i.exec(message)?.[1];
  const indexed = /\blines?\s*(?:\[\s*(\d+)\s*\]|\.(\d+))/i.exec(message);
  const counted = /\bline\s+(?:#|no\.?\s*)?(\d+)\b/i.exec(message);
  let index: number | undefined;
  if (indexed) index = Number(indexed[1] ?? indexed[2]);
  else if (counted) index = Math.max(0, Number(counted[1]) - 1);
  const where =
    index === undefined
      ? 'The message does not say which line: run checkInvoice(input) to list every line with a ' +
        'classification problem at once.'
      : `Line ${index + 1} (lines[${index}]${field === undefined ? '' : `.${field}`}) has an invalid or missing classification code.`;
  return `${where} A good needs hsnCode, a service needs isicCode. ${LOOKUPS}`;
}
