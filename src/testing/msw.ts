/**
 * The msw adapter: request handlers that pass every request under the sandbox's origin to its one
 * handler. msw is an optional peer dependency, so it is only ever loaded here, and lazily: a sandbox
 * that only listens on loopback never needs it installed.
 */
import type { RequestHandler } from 'msw';

/**
 * Loads msw and builds the handlers, or returns the reason it could not (msw not installed).
 *
 * @example
 * ```ts
 * const loaded = await loadMswHandlers('http://sandbox.invoicing.test', (r) => handler.handle(r));
 * if (loaded.ok) server.use(...loaded.handlers);
 * ```
 */
export async function loadMswHandlers(
  origin: string,
  handle: (request: Request) => Promise<Response>,
): Promise<{ ok: true; handlers: RequestHandler[] } | { ok: false; reason: string }> {
  let msw: typeof import('msw');
  try {
    msw = await import('msw');
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  // Every method, every path under the origin: the sandbox itself answers 404 for unknown routes,
  // exactly as the loopback server does.
  return { ok: true, handlers: [msw.http.all(`${origin}/*`, ({ request }) => handle(request))] };
}
