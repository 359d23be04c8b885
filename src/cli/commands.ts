// The CLI's command table; a command is loaded only when it runs. To add one: a file exporting `run(ctx)` and a line here.
import type { CliContext } from './context.js';

/** One row: a one-line summary for `invoicing --help` and a lazy loader of a module whose `run` resolves to the exit code. */
export const COMMANDS: Readonly<Record<string, { summary: string; load(): Promise<{ run(ctx: CliContext): Promise<number> }> }>> = {
  check: { summary: 'Check invoice files locally, offline, before filing (for CI)', load: () => import('./check.js') },
  demo: { summary: 'File a sample invoice on the embedded sandbox, step by step (--scenario offline|field-error)', load: () => import('./demo.js') },
  doctor: { summary: 'Check a setup against the service, read-only: reachability, key, clock, routes, drift (exit 1 on a failure)', load: () => import('./doctor.js') },
  file: { summary: 'File invoice files with the service, exactly once each (INVOICING_BASE_URL, INVOICING_API_KEY)', load: () => import('./file.js') },
  sandbox: { summary: 'Serve the sandbox on 127.0.0.1 until Ctrl-C, printing its throwaway credentials (--port N)', load: () => import('./sandbox.js') },
};
