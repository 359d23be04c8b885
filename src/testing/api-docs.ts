// The reference at `/api/docs`: an OpenAPI description from the document's tables, served the way NestJS does.
import type { RouteContext, RouteResult } from './context.js';
import { notFound } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { DOCUMENTED_STATUSES, spell } from './scenarios.js';
import { KNOWN_SCOPES } from './store.js';
import { BUYER_FIELDS, BUYER_TYPES, LINE_FIELDS, REQUIRED_LINE_FIELDS } from './validation.js';

const [str, num, int] = ['string', 'number', 'integer'].map((type) => ({ type }));
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const typed = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }]));
const idParam = { name: 'id', in: 'path', required: true, schema: str };
const pageParams = ['page', 'limit'].map((name) => ({ name, in: 'query', required: false, schema: int }));
const op = (operationId: string, extra: Record<string, unknown> = {}) => ({ operationId, responses: { 200: { description: 'OK' } }, ...extra });

function storedInvoice(options: ResolvedOptions): Record<string, unknown> {
  const statuses = [...DOCUMENTED_STATUSES.map((s) => spell(s, options.statusSpelling)), options.acceptedStatus, options.rejectedStatus];
  if (options.processingMs > 0) statuses.push(options.processingStatus);
  const status = { type: 'string', enum: [...new Set(statuses)] };
  const common = { businessId: str, buyer: ref('BuyerDto'), dueDate: str, lines: { type: 'array', items: ref('InvoiceLineDto') } };
  const time = { type: 'string', format: 'date-time', nullable: true };
  if (options.recordStyle === 'alternate') {
    const totals = object({ subtotal: num, tax: num, [options.totalField ?? 'total']: num });
    return object({ _id: str, invoiceStatus: status, ...common, totals, failureReason: str, retryCount: int, createdAt: time, lastModified: time, submittedAt: time });
  }
  return object({
    id: str, status, ...common, subtotal: num, taxAmount: num, [options.totalField ?? 'totalAmount']: num,
    errorMessage: str, attempts: int, createdAt: time, updatedAt: time, submittedAt: time,
  });
}

export function apiDescription(options: ResolvedOptions): Record<string, unknown> {
  const withId = (operationId: string, extra: Record<string, unknown> = {}) => op(operationId, { parameters: [idParam], ...extra });
  const transition = (step: string) => ({ post: withId(`InvoicesController_${step}`, { security: [{ 'X-API-Key': [] }] }) });
  const invoice = { 200: { description: 'The invoice', ...json(ref('Invoice')) } };
  const paths: Record<string, unknown> = {
    '/api/v1/invoices': {
      post: op('InvoicesController_create', {
        parameters: [{ name: 'idempotency-key', in: 'header', required: true, schema: str }],
        requestBody: { required: true, ...json(ref('CreateInvoiceDto')) },
        responses: { 201: { description: 'The created invoice', ...json(ref('Invoice')) } },
      }),
      get: op('InvoicesController_list', {
        parameters: [...pageParams, { name: 'status', in: 'query', required: false, schema: str }],
        responses: { 200: { description: 'A page of invoices', ...json({ type: 'array', items: ref('Invoice') }) } },
      }),
    },
    ...(options.routes.retrieve ? { '/api/v1/invoices/{id}': { get: withId('InvoicesController_findOne', { responses: invoice }) } } : {}),
    ...Object.fromEntries(['validate', 'sign', 'submit'].map((step) => [`/api/v1/invoices/{id}/${step}`, transition(step)])),
    '/api/v1/api-key': {
      post: op('ApiKeyController_create', { requestBody: { required: true, ...json(ref('CreateApiKeyDto')) } }),
      get: op('ApiKeyController_findAll'),
    },
    '/api/v1/api-key/{id}': { get: withId('ApiKeyController_findOne'), delete: withId('ApiKeyController_remove') },
    '/api/v1/api-key/{id}/reveal': { get: withId('ApiKeyController_reveal') },
    '/api/v1/taxauth/hs-codes': { get: op('TaxauthController_hsCodes', { parameters: pageParams }) },
    '/api/v1/taxauth/service-codes': { get: op('TaxauthController_serviceCodes', { parameters: pageParams }) },
  };
  const description = {
    openapi: '3.0.0',
    info: { title: 'Invoicing Service', version: 'v1', description: 'Sandbox emulation of the invoicing service' },
    paths,
    components: {
      securitySchemes: { 'X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' }, bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        CreateInvoiceDto: object(
          { businessId: str, buyer: ref('BuyerDto'), dueDate: { type: 'string', format: 'date-time' }, lines: { type: 'array', minItems: 1, items: ref('InvoiceLineDto') } },
          ['businessId', 'buyer', 'dueDate', 'lines'],
        ),
        BuyerDto: object({ ...typed(BUYER_FIELDS), type: { type: 'string', enum: BUYER_TYPES } }, ['type']),
        InvoiceLineDto: object(typed(LINE_FIELDS), REQUIRED_LINE_FIELDS),
        Invoice: storedInvoice(options),
        CreateApiKeyDto: object(
          {
            name: str, type: { type: 'string', enum: ['LIVE'] }, keyableType: { type: 'string', enum: ['USER', 'BUSINESS'] },
            businessId: str, scopes: { type: 'array', items: { type: 'string', enum: [...KNOWN_SCOPES] } },
          },
          ['name', 'type', 'keyableType'],
        ),
      },
    },
  };
  return options.apiDescription?.(structuredClone(description)) ?? description;
}

const page = (config: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><title>Swagger UI</title>
<link rel="stylesheet" type="text/css" href="./swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="./swagger-ui-bundle.js"></script>
${config}
</body></html>
`;

export function apiDocs(ctx: RouteContext): RouteResult {
  const { options } = ctx.state;
  const mode = options.apiDocs;
  const path = ctx.url.pathname.replace(/\/$/, '');
  const text = (body: string, type: string): RouteResult => ({ status: 200, body: undefined, text: body, headers: { 'content-type': type } });
  if (path === '/api/docs' && mode !== 'none') {
    const config =
      mode === 'url'
        ? `<script>window.onload = () => { window.ui = SwaggerUIBundle({ url: "/api/docs/openapi.json", dom_id: '#swagger-ui' }); };</script>`
        : '<script src="./swagger-ui-init.js"></script>';
    return text(page(config), 'text/html; charset=utf-8');
  }
  if (path === '/api/docs/swagger-ui-init.js' && (mode === 'json' || mode === 'embedded')) {
    const init = { swaggerDoc: apiDescription(options), customOptions: {} };
    return text(
      `\nwindow.onload = function() {\n  let url = window.location.search.match(/url=([^&]+)/);\n  let options = ${JSON.stringify(init, null, 2)};\n  url = options.swaggerUrl || url;\n  window.ui = SwaggerUIBundle({ spec: options.swaggerDoc, dom_id: '#swagger-ui' });\n};\n`,
      'application/javascript; charset=utf-8',
    );
  }
  if ((path === '/api/docs-json' && mode === 'json') || (path === '/api/docs/openapi.json' && mode === 'url')) {
    return { status: 200, body: apiDescription(options) };
  }
  throw notFound(`Cannot ${ctx.method} ${ctx.url.pathname}`);
}
