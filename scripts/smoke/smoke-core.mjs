// The one smoke scenario every runtime of the matrix runs (Node 20, Node 22, Bun, Deno, and
// Chromium through a bundle). It uses no runtime-specific API (no `node:` imports, no `process`),
// so the very same file is loaded by each runtime and bundled for the browser; each entry point
// (smoke.mjs, browser.mjs) only supplies the SDK module and the settings.
//
// What it proves, per runtime: the built package loads, the client files one invoice end to end
// against the sandbox's loopback server over a real socket, and the offline checks report the
// expected rule codes for a deliberately broken invoice.

/** Codes `checkInvoice` must report for {@link badInvoice}, one per planted mistake. */
export const EXPECTED_CHECK_CODES = [
  'LINE_TAX_RATE_FRACTION',
  'HSN_CODE_FOUR_DIGITS',
  'DUE_DATE_NOT_DATE_TIME',
  'BUYER_TIN_PLACEHOLDER',
];

/** Totals of {@link goodInvoice}, to the cent: 2 × 850.50 + 3 × 0.10 = 1701.30 net, tax 7.5 % per line. */
export const EXPECTED_TOTALS = { subtotal: '1701.30', taxTotal: '127.60', total: '1828.90' };

/** An invoice that passes every local check: one good (HS code) and one service (ISIC class). */
export function goodInvoice(businessId) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: 'Smoke Test Buyer Ltd', email: 'ap@buyer.example' },
    dueDate: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
    lines: [
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Setup and configuration', quantity: 3, unitPrice: 0.1, taxRate: 7.5, isicCode: '6201' },
    ],
  };
}

/**
 * An invoice with four mistakes the tax authority would not all report (it stops at the first,
 * and accepts some of them silently): a tax rate written as a fraction, a four-digit service code
 * in `hsnCode`, a bare date where a date-time is required, and a placeholder TIN.
 */
export function badInvoice(businessId) {
  return {
    businessId,
    buyer: { type: 'B2B', tin: '00000000' },
    dueDate: '2026-12-31',
    lines: [{ description: 'Consulting', quantity: 1, unitPrice: 100, taxRate: 0.075, hsnCode: '6201' }],
  };
}

function fail(message) {
  throw new Error(`smoke: ${message}`);
}

/**
 * The local checks and exact totals, no network: every planted mistake is reported at once. Run by
 * {@link runSmoke} on the main entry and alone on `invoicing-sdk/check`. Returns the totals.
 *
 * @param {Pick<typeof import('invoicing-sdk'), 'checkInvoice' | 'computeTotals'>} check
 * @param {string} businessId
 */
export function runChecks(check, businessId) {
  const report = check.checkInvoice(badInvoice(businessId));
  const codes = [...report.errors, ...report.warnings].map((issue) => issue.code);
  if (report.ok) fail('checkInvoice accepted the deliberately bad invoice');
  const missing = EXPECTED_CHECK_CODES.filter((code) => !codes.includes(code));
  if (missing.length > 0) fail(`checkInvoice did not report ${missing.join(', ')} (got ${codes.join(', ')})`);
  if (!check.checkInvoice(goodInvoice(businessId)).ok) fail('checkInvoice rejected the good invoice');

  // Exact decimal arithmetic, whatever the runtime: 3 × 0.10 is 0.30, not 0.30000000000000004.
  const totals = check.computeTotals(goodInvoice(businessId).lines);
  if (totals.subtotal !== EXPECTED_TOTALS.subtotal || totals.taxTotal !== EXPECTED_TOTALS.taxTotal || totals.total !== EXPECTED_TOTALS.total) {
    fail(`computeTotals gave ${JSON.stringify([totals.subtotal, totals.taxTotal, totals.total])}, expected ${JSON.stringify(Object.values(EXPECTED_TOTALS))}`);
  }
  return totals;
}

/**
 * Runs the scenario and returns a one-line summary; throws with a precise message on any deviation.
 *
 * @param {typeof import('invoicing-sdk')} sdk the package under test
 * @param {{ baseUrl: string, apiKey: string, businessId: string, dangerouslyAllowBrowser?: boolean,
 *           waitTimeoutMs?: number, log?: (line: string) => void }} settings
 */
export async function runSmoke(sdk, settings) {
  const log = settings.log ?? (() => {});
  const { baseUrl, apiKey, businessId } = settings;
  if (!baseUrl || !apiKey || !businessId) fail('baseUrl, apiKey and businessId are required');

  // 1. Local checks, no network.
  const totals = runChecks(sdk, businessId);
  log(`check: ${EXPECTED_CHECK_CODES.length} expected codes reported`);

  // 2. File one invoice over the network, end to end, and wait for the tax authority's answer.
  const client = new sdk.InvoicingClient({
    baseUrl,
    apiKey,
    maxRetries: 1,
    logLevel: 'error',
    ...(settings.dangerouslyAllowBrowser ? { dangerouslyAllowBrowser: true } : {}),
  });
  const { invoice, steps } = await client.invoices.createAndFile(goodInvoice(businessId), {
    wait: { timeout: settings.waitTimeoutMs ?? 30_000, interval: 50, maxInterval: 250 },
  });
  if (!invoice?.id) fail('createAndFile returned no invoice id');
  const done = steps.filter((s) => s.outcome === 'done').map((s) => s.step);
  const missingSteps = ['create', 'validate', 'sign', 'submit'].filter((step) => !done.includes(step));
  if (missingSteps.length > 0) fail(`steps ${missingSteps.join(', ')} were not done (steps: ${JSON.stringify(steps)})`);
  if (!sdk.isTerminalStatus(invoice.status)) fail(`invoice ${invoice.id} ended in non-final status ${invoice.rawStatus}`);
  if (invoice.status === 'ERROR') fail(`invoice ${invoice.id} ended in Error: ${invoice.errorMessage ?? ''}`);
  if (invoice.total !== undefined && !sdk.decimalEquals(invoice.total, EXPECTED_TOTALS.total)) {
    fail(`the service's total ${invoice.total} differs from ${EXPECTED_TOTALS.total}`);
  }
  log(`file: invoice ${invoice.id}: ${steps.map((s) => s.step).join(' > ')} -> ${invoice.rawStatus}`);

  // 3. Read it back, and an unknown id: the error class keeps its name in every build and bundle.
  const read = await client.invoices.retrieve(invoice.id);
  if (read.id !== invoice.id || read.status !== invoice.status) {
    fail(`retrieve read ${read.id} ${read.rawStatus}, expected ${invoice.id} ${invoice.rawStatus}`);
  }
  const missing404 = await client.invoices.retrieve('inv_smoke_missing').then(() => undefined, (error) => error);
  if (!(missing404 instanceof sdk.NotFoundError) || missing404.constructor.name !== 'NotFoundError') {
    fail(`retrieve of an unknown id gave ${missing404?.constructor?.name ?? missing404}, expected a NotFoundError`);
  }
  log(`read: invoice ${read.id} -> ${read.rawStatus}; unknown id -> ${missing404.constructor.name}`);
  return `invoice ${invoice.id} ${steps.map((s) => s.step).join('>')} -> ${invoice.rawStatus}, total ${totals.total}; ` +
    `check codes ${EXPECTED_CHECK_CODES.join(', ')}`;
}
