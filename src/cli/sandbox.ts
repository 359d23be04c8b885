// `invoicing sandbox`: serves the embedded sandbox on loopback until Ctrl-C; it prints its own throwaway credentials.
import { createSandbox } from '../testing/index.js';
import { colourEnabled, parseCommand, printHelp, styles, UsageError, wholeNumber, type CliContext } from './context.js';

export const HELP = `Usage: invoicing sandbox [--port N]

Serves the sandbox (an in-memory emulation of the whole service, the one the demo and
invoicing-sdk/testing use) on 127.0.0.1 until Ctrl-C, and prints its base URL, API key and
session token. Point the CLI, your code or curl at it to try them without an account.

The credentials it prints are the sandbox's own throwaway identities: they work only against this
sandbox, on this machine, and are gone when it stops. Everything is kept in memory.

Options:
  --port <N>         Port on 127.0.0.1 (default: a free one).
  --color, --no-color
                     Colour on or off (default: on a terminal, unless NO_COLOR is set).
  -h, --help         Show this help.

Exit codes: 0 stopped with Ctrl-C; 2 usage error or the port cannot be used.
`;

export async function run(ctx: CliContext): Promise<number> {
  const { values, color, help } = parseCommand(ctx.argv, { port: { type: 'string', short: 'p' } });
  if (help) return printHelp(ctx.stdout, HELP);
  const port = wholeNumber('port', values.port) ?? 0;
  if (port > 65_535) throw new UsageError(`--port takes a port number up to 65535, got "${port}"`);
  const { onInterrupt } = ctx;
  if (onInterrupt === undefined) throw new UsageError('the sandbox runs until Ctrl-C, which this context cannot observe');

  const sandbox = await createSandbox({ port }).catch((err: { code?: unknown }) => {
    if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
    const why = `port ${port} cannot be used (${String(err.code)})`;
    ctx.stderr.write(`invoicing sandbox: ${why}; choose another with --port, or leave it out for a free one.\n`);
  });
  if (sandbox === undefined) return 2;
  // The sandbox's server does not hold the process open; this timer does.
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1);
  // Listening for Ctrl-C before the credentials are printed.
  const stopped = new Promise<void>((resolve) => {
    const stop = onInterrupt(() => {
      stop();
      resolve();
    });
  });
  const s = styles(colourEnabled(ctx.stdout, ctx.env, color));
  ctx.stdout.write(
    [
      `${s.bold('invoicing sandbox')} on ${s.cyan(sandbox.baseUrl)} (127.0.0.1 only, everything in memory)`,
      '',
      s.dim("Its own throwaway credentials: they work only against this sandbox and are gone when it stops."),
      `  export INVOICING_BASE_URL=${sandbox.baseUrl}`,
      `  export INVOICING_API_KEY=${sandbox.apiKey}`,
      `  export INVOICING_SESSION_TOKEN=${sandbox.sessionToken}`,
      `  business id: ${sandbox.businessId}`,
      '',
      `In another terminal, run the export lines, then ${s.bold('npx invoicing file invoice.json')} for an invoice with "businessId": "${sandbox.businessId}".`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await stopped;
  clearInterval(keepAlive);
  await sandbox.close();
  ctx.stdout.write(`Stopped. ${sandbox.requests.length} request${sandbox.requests.length === 1 ? '' : 's'} served.\n`);
  return 0;
}
