#!/usr/bin/env node
/**
 * `invoicing`: dispatches to the command table. Kept tiny so that start-up costs only what the
 * chosen command imports.
 */
import { COMMANDS } from './commands.js';
import { UsageError, type CliContext } from './context.js';

/**
 * The version, loaded only by `--version` and the help, through the package's main entry. Imported
 * any other way (statically, or `import('../version.js')`), version.ts would be reached by a set of
 * entries of its own and become a chunk of its own in the ESM build: one more module for every
 * `import 'invoicing-sdk'` to load, to spare `--version` a few milliseconds.
 */
async function version(): Promise<string> {
  return (await import('../index.js')).VERSION;
}

function mainHelp(VERSION: string): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    `invoicing ${VERSION}: the invoicing-sdk command line`,
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

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // A usage error, like an unknown command: `invoicing $CMD` with an empty variable must fail a CI
    // step, and the help must not land in what a script captures from stdout.
    process.stderr.write(`invoicing: no command given.\n\n${mainHelp(await version())}`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp(await version()));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    process.stderr.write(
      `invoicing: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.\nRun \`invoicing --help\` for usage.\n`,
    );
    return 2;
  }
  const ctx: CliContext = {
    argv: rest,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    readStdin,
  };
  try {
    const command = await entry.load();
    return await command.run(ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`invoicing ${name}: ${err.message}\nRun \`invoicing ${name} --help\` for usage.\n`);
      return 2;
    }
    process.stderr.write(`invoicing ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}

// exitCode rather than process.exit(): piped stdout is written asynchronously and must drain.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`invoicing: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
