// `invoicing demo`: files a sample invoice on the embedded sandbox and narrates it; recovery scenarios run the sandbox clock faster.
import {
  AUTOMATIC_RECOVERY,
  describeFailure,
  InvoiceStatus,
  isAfterSubmitted,
  type FilingResult,
  type FilingStepEvent,
  type Invoice,
  type InvoiceCreateParams,
} from '../index.js';
import { createSandbox, type Sandbox, type Scenario } from '../testing/index.js';
import { printable } from './escape.js';
import { formatSeconds } from './format.js';
import { colourEnabled, oneOf, parseCommand, printHelp, redactedRun, styles } from './context.js';
import type { CliContext, Output, Styles } from './context.js';

export const HELP = `Usage: invoicing demo [--scenario accepted|offline|field-error]

Files a sample invoice on the embedded sandbox (an in-memory emulation of the service on a loopback
port: no account, no network) with client.invoices.createAndFile(), printing each step and every
status change as it happens.

Scenarios:
  accepted      the tax authority accepts the invoice (default)
  offline       the buyer's access points are offline; the service retries on its own every
                10 minutes and the invoice goes through on the second retry: the SDK waits and
                never re-submits
  field-error   the tax authority rejects one field on every attempt; once automatic recovery is
                over the SDK says which field and that a deliberate re-submit is needed

In the offline and field-error scenarios the sandbox clock runs 600 times faster than real time,
so the service's 10-minute retries take a second.

Options:
  --scenario <name>  One of the scenarios above.
  --color, --no-color
                     Colour on or off (default: on a terminal, unless NO_COLOR is set).
  -h, --help         Show this help.

Exit codes: 0 the scenario ended as it should (including the recovery endings); 1 it did not;
2 usage error.
`;

const RECOVERY_TIME_SCALE = 600;

/** The demo's own document number: the idempotency key is derived from it. */
const EXTERNAL_REF = 'ORDER-2026-0042';

type DemoScenarioName = 'accepted' | 'offline' | 'field-error';

interface DemoScenario { sandbox: Scenario; story: string; expected: 'filed' | 'resubmit-required'; timeScale: number; }

const SCENARIOS: Readonly<Record<DemoScenarioName, DemoScenario>> = {
  accepted: { sandbox: 'accepted', story: 'The tax authority accepts the invoice a couple of seconds after it is submitted.', expected: 'filed', timeScale: 1 },
  offline: {
    sandbox: { name: 'offline', recoversOnAttempt: 2 },
    story:
      "The buyer's access points are offline when the invoice is submitted. The service retries on " +
      "its own every 10 minutes (up to 3 times); the buyer's provider is back for the second retry.",
    expected: 'filed', timeScale: RECOVERY_TIME_SCALE,
  },
  'field-error': {
    sandbox: { name: 'field-error', field: 'buyer.tin' },
    story:
      'The tax authority rejects one field (buyer.tin) on the submission and on every automatic ' +
      'retry, so automatic recovery runs out after 3 attempts.',
    expected: 'resubmit-required', timeScale: RECOVERY_TIME_SCALE,
  },
};

function sampleInvoice(businessId: string, now: number): InvoiceCreateParams {
  const due = new Date(now + 30 * 24 * 3600_000);
  due.setUTCHours(0, 0, 0, 0);
  return {
    businessId,
    buyer: { type: 'B2B', tin: '20456789-0001', name: 'Acme Ltd', email: 'accounts@acme.example' },
    dueDate: due.toISOString(),
    lines: [
      { description: 'Laptop, 14 inch', quantity: 2, unitPrice: 850.5, taxRate: 7.5, hsnCode: '8471.30' },
      { description: 'Setup and configuration', quantity: 3, unitPrice: 45, taxRate: 7.5, isicCode: '6201' },
    ],
  };
}

/** `1234567.5` → `1,234,567.50`; decimal strings stay strings (money is never a binary float). */
function money(value: string | undefined): string {
  if (value === undefined) return '?';
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (match === null) return value;
  const [, sign = '', whole = '', frac = ''] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac.padEnd(2, '0')}`;
}

function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

const status = (invoice: Invoice | undefined): string => printable(invoice?.rawStatus ?? invoice?.status ?? '?');

/** When the service last changed the record (its `updatedAt`), else when it was read. */
function eventTime(invoice: Invoice): number | undefined {
  return [invoice.updatedAt, invoice.observedAt].map((t) => (t === undefined ? Number.NaN : Date.parse(t))).find((ms) => !Number.isNaN(ms));
}

function narrator(out: Output, s: Styles) {
  let submittedAt: number | undefined;
  let lastStatus: string | undefined;
  const line = (text = ''): void => void out.write(`${text}\n`);
  // Status changes line up under the text of a step line (`  ✔ ` and a 10-wide label), after a 10-wide time.
  const pad = ' '.repeat(15);
  const coloured = (invoice: Invoice | undefined): string => {
    if (invoice === undefined) return '?';
    if (invoice.status === InvoiceStatus.ERROR) return s.red(status(invoice));
    return isAfterSubmitted(invoice.rawStatus ?? invoice.status) ? s.green(status(invoice)) : status(invoice);
  };
  return {
    line,
    step(event: FilingStepEvent): void {
      const label = event.step.padEnd(10);
      if (event.state === 'started') {
        if (event.step === 'wait') line(`  ${s.cyan('…')} ${s.bold(label)} following the tax authority's answer by reading the invoice (the service has no webhooks)`);
        return;
      }
      const mark = event.state === 'done' ? s.green('✔') : s.dim('↷');
      const invoice = event.invoice;
      const total = `${money(invoice?.subtotal)} + ${money(invoice?.taxTotal)} tax = ${s.bold(money(invoice?.total))}`;
      const texts: Partial<Record<FilingStepEvent['step'], string>> = {
        check: event.state === 'done' ? 'local checks passed: nothing the tax authority would reject or silently accept' : 'skipped',
        create: `${invoice?.id ?? '?'} · ${status(invoice)} · idempotency key derived from ${EXTERNAL_REF}`,
        reconcile: `the service's totals match the lines: ${total}`,
        wait: coloured(invoice),
      };
      const text = texts[event.step] ?? status(invoice);
      if (event.step === 'submit' && invoice !== undefined) {
        submittedAt = eventTime(invoice);
        lastStatus = invoice.status;
      }
      const detail = event.detail !== undefined && event.step !== 'check' ? s.dim(` (${event.detail})`) : '';
      line(`  ${mark} ${s.bold(label)} ${text}${detail}`);
    },
    /** A status change seen by `waitFor`. The first reading repeats the submit's unless it moved on. */
    status(invoice: Invoice): void {
      if (invoice.status === lastStatus && invoice.status === InvoiceStatus.SUBMITTED) return;
      lastStatus = invoice.status;
      const at = eventTime(invoice);
      const when = s.dim((at === undefined || submittedAt === undefined ? '' : `+${span(at - submittedAt)}`).padEnd(10));
      const failure = describeFailure(invoice);
      const attempts = invoice.attempts ?? 0;
      if (failure === undefined) {
        const after = attempts > 0 ? s.dim(` (went through on automatic retry ${attempts})`) : '';
        line(`${pad}${when}${s.green(status(invoice))}${after}`);
        return;
      }
      const which = attempts === 0 ? 'on submission' : `on automatic retry ${attempts} of ${AUTOMATIC_RECOVERY.maxAttempts}`;
      line(`${pad}${when}${s.yellow(status(invoice))} ${which}: ${printable(failure.message)}`);
      const next =
        failure.recovery === 'in-progress'
          ? `automatic recovery in progress: retry ${attempts + 1} of ${AUTOMATIC_RECOVERY.maxAttempts} is due 10 minutes later; waiting, not re-submitting`
          : 'automatic recovery is over';
      line(`${pad}${' '.repeat(10)}${s.dim(next)}`);
    },
  };
}

/** Prints the ending; returns whether it is the one the scenario predicts. */
function conclude(n: ReturnType<typeof narrator>, s: Styles, name: DemoScenarioName, result: FilingResult, sandbox: Sandbox): boolean {
  const { invoice, failure } = result;
  // The demo's proof that nothing was sent twice.
  const submits = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${invoice.id}/submit`)).length;
  const sent = `POST /submit was sent ${submits === 1 ? 'once' : `${submits} times`}`;
  n.line();
  if (failure === undefined && isAfterSubmitted(invoice.rawStatus ?? invoice.status)) {
    n.line(`${s.green('✔')} ${s.bold(`Filed: invoice ${invoice.id} is ${status(invoice)}.`)}`);
    if ((invoice.attempts ?? 0) > 0) n.line(`  The service's own retry ${invoice.attempts} went through. The SDK waited through the retries and never re-submitted (${sent}).`);
    else n.line(`  ${sent}; every step ran exactly once.`);
    return SCENARIOS[name].expected === 'filed';
  }
  if (failure !== undefined) {
    n.line(`${s.yellow('!')} ${s.bold(`Invoice ${invoice.id} is in ${status(invoice)}: ${printable(failure.message)}`)}`);
    if (failure.field !== undefined) n.line(`  Field rejected by the tax authority: ${s.bold(failure.field)}`);
    n.line(`  ${printable(failure.hint)}`);
    n.line(`  The SDK did not re-submit on its own (${sent}).`);
    if (failure.resubmitRequired) {
      // A rejected field cannot be corrected on the invoice: the corrected document is a new one.
      const next =
        failure.kind === 'field-validation'
          ? `Invoice ${invoice.id} stays in Error; the corrected document is filed as a new invoice with ` +
            'client.invoices.createAndFile(corrected, { externalRef, revision: 1 }).'
          : `client.invoices.resumeFiling('${invoice.id}') sends the one deliberate re-submit.`;
      n.line(s.dim(`  This is the ending the ${name} scenario sets out to show. ${next}`));
    }
    return SCENARIOS[name].expected === 'resubmit-required' && failure.resubmitRequired;
  }
  n.line(`${s.yellow('!')} Invoice ${invoice.id} is ${status(invoice)}; the tax authority has not answered yet.`);
  return false;
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const hint = (err as { hint?: unknown }).hint;
  return typeof hint === 'string' && hint !== '' ? `${printable(err.message)}\n  hint: ${printable(hint)}` : printable(err.message);
}

export async function run(given: CliContext): Promise<number> {
  const { values, color, help } = parseCommand(given.argv, { scenario: { type: 'string', short: 's' } });
  if (help) return printHelp(given.stdout, HELP);
  const name = oneOf('scenario', values.scenario, Object.keys(SCENARIOS) as DemoScenarioName[], 'accepted');
  const startedAt = performance.now();
  const sandbox = await createSandbox({ scenario: SCENARIOS[name].sandbox, timeScale: SCENARIOS[name].timeScale });
  try {
    // The sandbox's credentials are the ones this run uses: what it prints is scrubbed of them.
    return await redactedRun(given, (ctx) => narrate(ctx, name, color, sandbox, startedAt), [sandbox.apiKey, sandbox.sessionToken]);
  } finally {
    await sandbox.close();
  }
}

async function narrate(ctx: CliContext, name: DemoScenarioName, color: boolean | undefined, sandbox: Sandbox, startedAt: number) {
  const scenario = SCENARIOS[name];
  const s = styles(colourEnabled(ctx.stdout, ctx.env, color));
  const n = narrator(ctx.stdout, s);
  const sandboxStart = sandbox.clock.now();
  n.line(`${s.bold('invoicing demo')} · scenario ${s.cyan(name)}`);
  const pace = scenario.timeScale === 1 ? 'real time' : `${scenario.timeScale}× real time, so 10-minute retries take a second`;
  n.line(s.dim(`Embedded sandbox on ${sandbox.baseUrl} (no account, no network); its clock runs at ${pace}.`));
  n.line(scenario.story);
  n.line();

  const input = sampleInvoice(sandbox.businessId, sandbox.clock.now());
  n.line(`Filing a sample invoice to ${input.buyer.name ?? 'the buyer'} (${input.lines.length} lines) with client.invoices.createAndFile():`);
  const result = await sandbox.client().invoices.createAndFile(input, {
    externalRef: EXTERNAL_REF,
    onStep: (event) => n.step(event),
    // Bounded in real time; a whole recovery takes a few seconds here.
    wait: { timeout: 60_000, onStatus: (invoice) => n.status(invoice) },
  }).catch((err: unknown) => {
    n.line();
    ctx.stderr.write(`${s.red('✘')} The demo stopped: ${errorText(err)}\n`);
  });
  if (result === undefined) return 1;

  const asExpected = conclude(n, s, name, result, sandbox);
  n.line();
  n.line(s.dim(`Took ${formatSeconds(performance.now() - startedAt, 1)} of real time, ${span(sandbox.clock.now() - sandboxStart)} of sandbox time.`));
  if (name === 'accepted') n.line(s.dim('See the recovery paths too: --scenario offline, --scenario field-error.'));
  if (!asExpected) {
    ctx.stderr.write(`${s.red('✘')} The ${name} scenario did not end as it should; this is a bug, please report it.\n`);
    return 1;
  }
  return 0;
}
