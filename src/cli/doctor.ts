// `invoicing doctor`: `client.diagnose()` against the service in the environment, read-only, output scrubbed.
import { InvoicingClient, type Diagnosis, type DiagnosisStatus } from '../index.js';
import { baseUrlOf, colourEnabled, envCredentials, oneOf, parseCommand, printHelp, redactedRun, styles, wholeNumber } from './context.js';
import type { CliContext, Styles } from './context.js';
import { printable, safeJson } from './escape.js';
import { plural } from './format.js';

export const HELP = `Usage: invoicing doctor [options]

Checks a setup against the service, read-only: reachability (https, /api/v1, time to answer), the
API key and the scopes it lacks, the key's type (with INVOICING_SESSION_TOKEN), clock skew, the
single-invoice read route, the page size used, the stored invoice's field names against the SDK's
field map, and drift between the service's API description (behind /api/docs) and the SDK.
Nothing is created, no key is revealed, no secret is printed.

Options:
  --format <text|json>   Output format (default text).
  --strict               Count warnings as failures.
  --timeout <seconds>    Per request (default 10).
  --color, --no-color    Colour on or off (default: on a terminal, unless NO_COLOR is set).
  -h, --help             Show this help.

Environment: INVOICING_BASE_URL (the service's origin), INVOICING_API_KEY, and optionally
INVOICING_SESSION_TOKEN (to read the key's type and scopes).

Exit codes: 0 nothing failed; 1 a check failed (with --strict: or warned); 2 usage or configuration error.
`;

const AREAS = { reachability: 'Reachability', credentials: 'Credentials', clock: 'Clock', routes: 'Routes and shapes', drift: 'Drift' } as const;

export async function run(given: CliContext): Promise<number> {
  const options = { format: { type: 'string', short: 'f' }, strict: { type: 'boolean' }, timeout: { type: 'string' } } as const;
  const { values: v, color, help } = parseCommand(given.argv, options);
  if (help) return printHelp(given.stdout, HELP);
  const format = oneOf('format', v.format, ['text', 'json'], 'text');
  const timeout = (wholeNumber('timeout', v.timeout, 1) ?? 10) * 1000;
  const baseUrl = baseUrlOf(given.env);
  const [apiKey, sessionToken] = envCredentials(given.env).map((value) => value || undefined);
  return redactedRun(given, async (ctx) => {
    const client = new InvoicingClient({ baseUrl, apiKey, sessionToken, logLevel: 'off' });
    const diagnosis = await client.diagnose({ strict: v.strict === true, timeout });
    if (format === 'json') ctx.stdout.write(`${safeJson(diagnosis)}\n`);
    else ctx.stdout.write(renderText(diagnosis, styles(colourEnabled(ctx.stdout, ctx.env, color))));
    return diagnosis.ok ? 0 : 1;
  });
}

export function renderText(diagnosis: Diagnosis, s: Styles): string {
  const mark: Record<DiagnosisStatus, string> = { pass: s.green('✓'), warn: s.yellow('!'), fail: s.red('✗'), skip: s.dim('-') };
  const width = Math.max(...diagnosis.checks.map((c) => c.id.length));
  const out = [s.bold(`invoicing doctor: ${printable(diagnosis.baseUrl)}`), ''];
  let area: string | undefined;
  for (const check of diagnosis.checks) {
    if (check.area !== area) {
      area = check.area;
      out.push(s.bold(AREAS[check.area]));
    }
    const pad = ' '.repeat(width + 6);
    out.push(`  ${mark[check.status]} ${check.id.padEnd(width)}  ${printable(check.finding)}`);
    if (check.status !== 'pass') for (const line of check.details ?? []) out.push(`${pad}${s.dim('·')} ${printable(line)}`);
    if (check.hint !== undefined && check.status !== 'pass') out.push(`${pad}${s.cyan('→')} ${printable(check.hint)}`);
  }
  const { pass, warn, fail, skip } = diagnosis.counts;
  const verdict = diagnosis.ok ? s.green('OK') : s.red(diagnosis.strict && fail === 0 ? 'FAILED (--strict: warnings count)' : 'FAILED');
  out.push('', `${verdict}: ${plural(diagnosis.checks.length, 'check')}, ${pass} passed, ${plural(warn, 'warning')}, ${fail} failed, ${skip} skipped`, '');
  return out.join('\n');
}
