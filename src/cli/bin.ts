#!/usr/bin/env node
// `invoicing`: dispatches to the command table; start-up costs only what the chosen command imports.
import { UsageError, type CliContext } from './context.js';
import { printable } from './escape.js';

const COMMANDS: Readonly<Record<string, { summary: string; load(): Promise<{ run(ctx: CliContext): Promise<number> }> }>> = {
  check: { summary: 'Check invoice files locally, offline, before filing (for CI)', load: () => import('./check.js') },
  demo: { summary: 'File a sample invoice on the embedded sandbox, step by step (--scenario offline|field-error)', load: () => import('./demo.js') },
  doctor: { summary: 'Check a setup against the service, read-only: reachability, key, clock, routes, drift (exit 1 on a failure)', load: () => import('./doctor.js') },
  file: { summary: 'File invoice files with the service, exactly once each (INVOICING_BASE_URL, INVOICING_API_KEY)', load: () => import('./file.js') },
  sandbox: { summary: 'Serve the sandbox on 127.0.0.1 until Ctrl-C, printing its throwaway credentials (--port N)', load: () => import('./sandbox.js') },
};

// VERSION through the main entry, so version.ts does not become a chunk of its own.
const version = async (): Promise<string> => (await import('../index.js')).VERSION;

async function mainHelp(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    `invoicing ${await version()}: the invoicing-sdk command line`,
    '',
    'Usage: invoicing <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]?.summary ?? ''}`),
    '',
    'Run `invoicing <command> --help` for the options of a command.',
    '',
  ].join('\n');
}

async function readStdin(maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: no more is read.
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) break;
  }
  return Buffer.concat(chunks);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // A usage error: an empty `$CMD` must fail a CI step, and the help must stay off stdout.
    process.stderr.write(`invoicing: no command given.\n\n${await mainHelp()}`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(await mainHelp());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    process.stderr.write(
      `invoicing: unknown command "${printable(name)}". Commands: ${Object.keys(COMMANDS).join(', ')}.\nRun \`invoicing --help\` for usage.\n`,
    );
    return 2;
  }
  const ctx: CliContext = {
    argv: rest, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), readStdin,
    onInterrupt: (handler) => {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
  try {
    return await (await entry.load()).run(ctx);
  } catch (err) {
    const usage = err instanceof UsageError ? `\nRun \`invoicing ${name} --help\` for usage.` : '';
    process.stderr.write(`invoicing ${name}: ${message(err)}${usage}\n`);
    return 2;
  }
}

const message = (err: unknown): string => printable(err instanceof Error ? err.message : String(err));

// exitCode rather than process.exit(): piped stdout is written asynchronously and must drain.
process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`invoicing: ${message(err)}\n`);
  return 2;
});
