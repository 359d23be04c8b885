/**
 * The msw adapter: request handlers that pass every request under the sandbox's origin to its one
 * handler. msw is an optional peer dependency, so it is only ever loaded here, and lazily: a sandbox
 * that only listens on loopback never needs it installed, nor loads it unless `sandbox.handlers`
 * is read. Not even msw's types are imported: the declarations of
 * `invoicing-sdk/testing` must compile for a user without msw (test/testing/declarations.test.ts).
 */

/**
 * One msw request handler, as `sandbox.handlers` holds them: what msw's `http.all()` returns, an
 * instance of its `RequestHandler` class, ready for `setupServer(...)`, `server.use(...)` or
 * `setupWorker(...)`.
 *
 * Typed as `any` on purpose. msw is an optional peer dependency, so these declarations cannot name
 * its types (a user without msw would get TS2307, cannot find module 'msw'); and msw's
 * `RequestHandler` is a class with private members, so no structural type is assignable to it: a
 * structural type here would make `setupServer(...sandbox.handlers)` fail to compile for the users
 * who do have msw.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createSandbox, type SandboxMswHandler } from 'invoicing-sdk/testing';
 *
 * const sandbox = await createSandbox({ listen: false });
 * const handlers: SandboxMswHandler[] = sandbox.handlers;
 * const server = setupServer(...handlers);
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SandboxMswHandler = any;

/** The part of msw the adapter uses, described here rather than imported (see {@link SandboxMswHandler}). */
interface Msw {
  http: {
    all(path: string, resolver: (info: { request: Request }) => Promise<Response>): SandboxMswHandler;
  };
}
type Handle = (request: Request) => Promise<Response>;

/** What loading msw gave: the handlers, or the error `sandbox.handlers` throws (saying what to do). */
export type LoadedMswHandlers = { ok: true; handlers: SandboxMswHandler[] } | { ok: false; problem: string };

/**
 * Loads msw and builds the handlers, or says why it could not (msw not installed).
 *
 * @example
 * ```ts
 * const loaded = await loadMswHandlers('http://sandbox.invoicing.test', (r) => handler.handle(r));
 * if (loaded.ok) server.use(...loaded.handlers);
 * ```
 */
export async function loadMswHandlers(origin: string, handle: Handle): Promise<LoadedMswHandlers> {
  let msw: Msw;
  try {
    msw = (await import('msw')) as Msw;
  } catch (error) {
    return notInstalled(error);
  }
  return { ok: true, handlers: buildHandlers(msw, origin, handle) };
}

/**
 * Loads msw synchronously (for the `sandbox.handlers` getter of a sandbox that did not preload it)
 * and builds the handlers, or says why it could not: msw not installed, or no synchronous `require`
 * in this runtime (a browser; Node before 20.16 running the ESM build).
 *
 * @example
 * ```ts
 * const loaded = loadMswHandlersSync('http://127.0.0.1:4010', (r) => handler.handle(r));
 * if (!loaded.ok) throw new Error(loaded.problem);
 * ```
 */
export function loadMswHandlersSync(origin: string, handle: Handle): LoadedMswHandlers {
  const load = syncRequire();
  if (load === undefined) {
    return {
      ok: false,
      problem: 'sandbox.handlers cannot load msw synchronously in this runtime: create the sandbox with { msw: true } to load it at start',
    };
  }
  let msw: Msw;
  try {
    msw = load('msw') as Msw;
  } catch (error) {
    return notInstalled(error);
  }
  return { ok: true, handlers: buildHandlers(msw, origin, handle) };
}

function buildHandlers(msw: Msw, origin: string, handle: Handle): SandboxMswHandler[] {
  // Every method, every path under the origin: the sandbox itself answers 404 for unknown routes,
  // exactly as the loopback server does.
  return [msw.http.all(`${origin}/*`, ({ request }) => handle(request))];
}

/**
 * The CommonJS build's own `require`: tsup defines `__CJS_REQUIRE__` as `require` there and as
 * `undefined` in the ESM build. Written as a plain `require`, esbuild would give the ESM build a
 * `__require` shim, in a chunk that every entry (`import 'invoicing-sdk'` too) then loads.
 */
declare const __CJS_REQUIRE__: ((id: string) => unknown) | undefined;

/**
 * A `require` resolving from this package. The CommonJS build has its own; the ESM build makes one
 * from node:module, reached through process.getBuiltinModule so that no static import of a Node
 * builtin keeps the sandbox out of browsers and workers. On Node 20.19+ `require('msw')` takes
 * msw's `module-sync` export, the very ESM instance that `import 'msw/node'` uses.
 */
function syncRequire(): ((id: string) => unknown) | undefined {
  // `typeof` of an undeclared name is 'undefined': run from source (tests), this takes the ESM path.
  if (typeof __CJS_REQUIRE__ === 'function') return __CJS_REQUIRE__;
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (nodeModule === undefined) return undefined;
  // Only the ESM build gets here. The try keeps esbuild from warning about import.meta in the
  // CommonJS build, where it is empty (and never reached).
  try {
    return nodeModule.createRequire(import.meta.url);
  } catch {
    return undefined;
  }
}

function notInstalled(error: unknown): LoadedMswHandlers {
  // The first line: Node's require adds its require stack below it.
  const reason = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
  return { ok: false, problem: `sandbox.handlers needs msw, which could not be loaded (${reason}); install it: npm i -D msw` };
}
