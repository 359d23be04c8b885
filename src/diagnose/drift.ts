// The service's OpenAPI description (behind `/api/docs`) against the SDK's schemas, status reader and routes.
import { $ZodArray, $ZodEnum, $ZodLiteral, $ZodNullable, $ZodOptional, $ZodReadonly, type $ZodType } from 'zod/v4/core';
import { ROUTES } from '../core/routes.js';
import { ApiKeyCreateParamsSchema } from '../model/api-key.js';
import { BuyerSchema, InvoiceCreateParamsSchema, InvoiceLineSchema } from '../model/invoice-input.js';
import { normalizeStatus, UNKNOWN_STATUS } from '../model/status.js';
import type { ResolvedFieldMap } from '../model/field-map.js';
import { result, type DiagnosisCheck } from './types.js';

type Json = Record<string, any>;

/** Where the description was found (a path on the service's origin, and how it was reached), and the description. */
export type FoundDescription = { where: string; doc: Json };

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDescription = (v: unknown): v is Json => isObject(v) && (typeof v.openapi === 'string' || typeof v.swagger === 'string') && isObject(v.paths);

// Found as Swagger UI does (`/api/docs-json`, else the page's `url` or embedded spec), on the service's origin only.
export async function findDescription(get: (path: string) => Promise<unknown>, origin: string): Promise<FoundDescription | undefined> {
  const attempt = async (path: string): Promise<unknown> => get(path).catch(() => undefined);
  const json = await attempt('/api/docs-json');
  if (isDescription(json)) return { where: '/api/docs-json', doc: json };
  const page = (await attempt('/api/docs')) ?? (await attempt('/api/docs/'));
  if (isDescription(page)) return { where: '/api/docs', doc: page };
  const html = typeof page === 'string' ? page : '';
  const local = (ref: string | undefined): string | undefined => {
    const url = ref === undefined ? undefined : new URL(ref, `${origin}/api/docs/`);
    return url?.origin === new URL(origin).origin ? url.pathname + url.search : undefined;
  };
  const specPath = local(/\burl\s*:\s*["'`]([^"'`]+)["'`]/.exec(html)?.[1]);
  if (specPath !== undefined) {
    const spec = await attempt(specPath);
    if (isDescription(spec)) return { where: `${specPath} (the url in /api/docs's Swagger UI config)`, doc: spec };
  }
  const initPath = local(/<script[^>]+src=["']([^"']*swagger-ui-init\.js)["']/.exec(html)?.[1]) ?? '/api/docs/swagger-ui-init.js';
  const init = await attempt(initPath);
  const embedded = typeof init === 'string' ? embeddedSpec(init) : undefined;
  if (embedded !== undefined) return { where: `${initPath} (embedded in the Swagger UI page's script)`, doc: embedded };
  return undefined;
}

/** The `swaggerDoc` object literal in a NestJS `swagger-ui-init.js`, parsed as JSON. */
function embeddedSpec(js: string): Json | undefined {
  const at = js.indexOf('"swaggerDoc"');
  const start = at < 0 ? -1 : js.indexOf('{', at);
  if (start < 0) return undefined;
  let depth = 0;
  let quoted = false;
  for (let i = start; i < js.length; i++) {
    const c = js[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        const doc: unknown = JSON.parse(js.slice(start, i + 1));
        return isDescription(doc) ? doc : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** `$ref`, `allOf` (first member) and array items resolved: the schema a property really has. */
function resolve(doc: Json, schema: unknown, seen = 0): Json | undefined {
  if (!isObject(schema) || seen > 16) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
    return resolve(doc, target, seen + 1);
  }
  if (Array.isArray(schema.allOf) && schema.properties === undefined) return resolve(doc, schema.allOf[0], seen + 1);
  return schema;
}

const refName = (schema: unknown): string | undefined =>
  isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;

// Paths compared without the version prefix (a description may put it in `servers`) and with any parameter name.
const routeKey = (method: string, path: string): string =>
  `${method.toUpperCase()} ${path.replace(/^\/api\/v1(?=\/)/, '').replace(/\{[^}]*\}|:[^/]+|(?<=\/)ID(?=\/|$)/g, '{}')}`;

const ID = 'ID';
const WRAPPED: readonly [string, string][] = [
  ['POST', ROUTES.invoices], ['GET', ROUTES.invoices], ['GET', ROUTES.invoice(ID)],
  ...(['validate', 'sign', 'submit'] as const).map((step): [string, string] => ['POST', ROUTES.transition(ID, step)]),
  ['POST', ROUTES.apiKeys], ['GET', ROUTES.apiKeys], ['GET', ROUTES.apiKey(ID)], ['DELETE', ROUTES.apiKey(ID)], ['GET', ROUTES.apiKeyReveal(ID)],
  ['GET', ROUTES.hsCodes], ['GET', ROUTES.serviceCodes],
];

/** The request body of `method path` in the description, with its schema name. */
function requestBody(doc: Json, method: string, path: string): { name: string; schema: Json } | undefined {
  const key = routeKey(method, path);
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    const op = isObject(item) ? item[method.toLowerCase()] : undefined;
    if (routeKey(method, p) !== key || !isObject(op)) continue;
    // OpenAPI 3 `requestBody`, or Swagger 2's `in: body` parameter.
    const raw = op.requestBody?.content?.['application/json']?.schema ?? op.parameters?.find?.((p: Json) => p?.in === 'body')?.schema;
    const schema = resolve(doc, op.requestBody?.$ref === undefined ? raw : resolve(doc, op.requestBody)?.content?.['application/json']?.schema);
    if (schema !== undefined) return { name: refName(raw) ?? `${method} ${p} body`, schema };
  }
  return undefined;
}

/** The values an SDK field accepts when they are a closed set (an enum or literals), else undefined. */
function sdkEnum(schema: $ZodType): string[] | undefined {
  let s = schema;
  while (s instanceof $ZodOptional || s instanceof $ZodNullable || s instanceof $ZodReadonly || s instanceof $ZodArray) {
    s = s instanceof $ZodArray ? s._zod.def.element : s._zod.def.innerType;
  }
  return s instanceof $ZodEnum || s instanceof $ZodLiteral ? [...s._zod.values].map(String) : undefined;
}

function describedEnum(doc: Json, property: unknown): string[] | undefined {
  const p = resolve(doc, property);
  const values = p?.enum ?? resolve(doc, p?.items)?.enum;
  return Array.isArray(values) ? values.map(String) : undefined;
}

export function driftChecks(found: FoundDescription | undefined, fieldMap: ResolvedFieldMap): DiagnosisCheck[] {
  if (found === undefined) {
    return [result('api-description', 'warn', 'No API description found at /api/docs-json, /api/docs, its Swagger UI config or its swagger-ui-init.js', 'Drift between the service and the SDK was not checked; the other checks ran.')];
  }
  const { doc } = found;
  const checks = [result('api-description', 'pass', `API description (${doc.openapi ?? doc.swagger}) found at ${found.where}`)];

  // Statuses: every enum value of a status field in an invoice schema, read as the SDK reads it.
  const statuses: string[] = [];
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? doc.definitions ?? {})) {
    if (!/invoice/i.test(name)) continue;
    for (const alias of fieldMap.status) {
      for (const value of describedEnum(doc, resolve(doc, schema)?.properties?.[alias]) ?? []) {
        if (normalizeStatus(value) === UNKNOWN_STATUS && value.toLowerCase() !== 'unknown') statuses.push(`${name}.${alias}: '${value}'`);
      }
    }
  }
  checks.push(
    statuses.length === 0
      ? result('drift-statuses', 'pass', 'Every invoice status in the description is one the SDK knows')
      : result('drift-statuses', 'warn', `${statuses.length} invoice status(es) in the description the SDK does not know`,
          "They read as status 'UNKNOWN' (rawStatus keeps the spelling) and are never final: waitFor keeps polling. If one is final, name it in the client's finalStatuses.", statuses),
  );

  // Request fields and enums: the SDK's create schemas against the description's request bodies.
  const invoiceBody = requestBody(doc, 'POST', ROUTES.invoices);
  const nested = (field: string): { name: string; schema: Json } | undefined => {
    const raw = invoiceBody?.schema.properties?.[field];
    const items = resolve(doc, raw)?.type === 'array' ? resolve(doc, raw)?.items : undefined;
    const target = resolve(doc, items ?? raw);
    return target === undefined ? undefined : { name: refName(items ?? raw) ?? `${invoiceBody?.name}.${field}`, schema: target };
  };
  const pairs: [string, Record<string, $ZodType>, { name: string; schema: Json } | undefined][] = [
    ['InvoiceCreateParamsSchema', InvoiceCreateParamsSchema.shape, invoiceBody],
    ['BuyerSchema', BuyerSchema.shape, nested('buyer')],
    ['InvoiceLineSchema', InvoiceLineSchema.shape, nested('lines')],
    ['ApiKeyCreateParamsSchema', ApiKeyCreateParamsSchema.shape, requestBody(doc, 'POST', ROUTES.apiKeys)],
  ];
  const missing: string[] = [];
  const unknown: string[] = [];
  const enums: string[] = [];
  const quoted = (values: string[]): string => values.map((v) => `'${v}'`).join(', ');
  for (const [sdk, shape, described] of pairs) {
    if (described === undefined) continue;
    const props: Json = isObject(described.schema.properties) ? described.schema.properties : {};
    for (const field of Array.isArray(described.schema.required) ? described.schema.required : []) {
      if (typeof field === 'string' && !Object.hasOwn(shape, field)) missing.push(`${described.name}.${field} is required by the service; ${sdk} has no such field`);
    }
    for (const [field, schema] of Object.entries(shape)) {
      if (!Object.hasOwn(props, field)) {
        unknown.push(`${sdk}.${field} is sent by the SDK; ${described.name} has no such property`);
        continue;
      }
      const theirs = describedEnum(doc, props[field]);
      const ours = sdkEnum(schema);
      if (theirs === undefined || ours === undefined) continue;
      const extra = theirs.filter((v) => !ours.includes(v));
      const lacking = ours.filter((v) => !theirs.includes(v));
      if (extra.length > 0) enums.push(`${described.name}.${field} lists ${quoted(extra)}, which ${sdk}.${field} refuses`);
      if (lacking.length > 0) enums.push(`${sdk}.${field} accepts ${quoted(lacking)}, which ${described.name}.${field} does not list`);
    }
  }
  if (missing.length + unknown.length === 0) checks.push(result('drift-request-fields', 'pass', 'The request bodies the SDK sends match the description (required fields and properties)'));
  else {
    const hint = missing.length > 0
      ? 'The service rejects a body without a required field: pass it along with the invoice (unknown fields are sent as given) and report the drift.'
      : 'The service may ignore or reject a field its description lacks.';
    checks.push(result('drift-request-fields', missing.length > 0 ? 'fail' : 'warn',
      `${missing.length} required field(s) the SDK does not send, ${unknown.length} field(s) it sends that the description lacks`, hint, [...missing, ...unknown]));
  }
  checks.push(enums.length === 0 ? result('drift-enums', 'pass', 'The enums of the request bodies match the SDK’s') : result('drift-enums', 'warn', `${enums.length} enum difference(s)`, undefined, enums));

  // Routes the SDK wraps that the description does not have.
  const described = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths as Json)) for (const method of Object.keys(isObject(item) ? item : {})) described.add(routeKey(method, path));
  const absent = WRAPPED.filter(([m, p]) => !described.has(routeKey(m, p))).map(([m, p]) => `${m} ${p.replaceAll(ID, '{id}')}`);
  checks.push(
    absent.length === 0
      ? result('drift-routes', 'pass', `All ${WRAPPED.length} routes the SDK wraps are in the description`)
      : result('drift-routes', 'warn', `${absent.length} route(s) the SDK wraps are not in the description`,
          absent.includes('GET /api/v1/invoices/{id}') ? 'Without GET /api/v1/invoices/{id}, retrieve and waitFor read invoices through the list route.' : 'Calls to these routes may answer 404.', absent),
  );
  return checks;
}

/** The stored invoice's property names in the description (for the field-name check when no record is at hand). */
export function describedInvoiceFields(found: FoundDescription | undefined): Json | undefined {
  if (found === undefined) return undefined;
  const { doc } = found;
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    if (routeKey('GET', path) !== routeKey('GET', ROUTES.invoice(ID)) && routeKey('GET', path) !== routeKey('GET', ROUTES.invoices)) continue;
    let schema = resolve(doc, item?.get?.responses?.['200']?.content?.['application/json']?.schema);
    // The success envelope, where the description spells it out: the record is its `data`.
    if (isObject(schema?.properties?.data)) schema = resolve(doc, schema.properties.data);
    const record = schema?.type === 'array' ? resolve(doc, schema.items) : schema;
    if (isObject(record?.properties)) return record;
  }
  return resolve(doc, doc.components?.schemas?.Invoice);
}
