// msw is an optional peer dependency: loaded only here, lazily, and not even its types are imported,
// so the declarations compile without msw.

/** One msw request handler, for `setupServer(...)`. Typed `any`: naming msw's types would break users without msw, and its `RequestHandler` class has private members no structural type can match. @example const handlers: SandboxMswHandler[] = sandbox.handlers; */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SandboxMswHandler = any;

interface Msw {
  http: {
    all(path: string, resolver: (info: { request: Request }) => Promise<Response>): SandboxMswHandler;
  };
}
type Handle = (request: Request) => Promise<Response>;

export type LoadedMswHandlers = { ok: true; handlers: SandboxMswHandler[] } | { ok: false; problem: string };

// `sync` for the `sandbox.handlers` getter of a sandbox that did not preload msw.
export function loadMswHandlers(origin: string, handle: Handle, sync: true): LoadedMswHandlers;
export function loadMswHandlers(origin: string, handle: Handle, sync: false): Promise<LoadedMswHandlers>;
export function loadMswHandlers(origin: string, handle: Handle, sync: boolean): LoadedMswHandlers | Promise<LoadedMswHandlers> {
  // Every path under the origin: the sandbox answers 404 for unknown routes, as the server does.
  const loaded = (msw: unknown): LoadedMswHandlers => ({ ok: true, handlers: [(msw as Msw).http.all(`${origin}/*`, ({ request }) => handle(request))] });
  if (!sync) return import('msw').then(loaded, notInstalled);
  const load = syncRequire();
  if (load === undefined) {
    return {
      ok: false,
      problem: 'sandbox.handlers cannot load msw synchronously in this runtime: create the sandbox with { msw: true } to load it at start',
    };
  }
  try {
    return loaded(load('msw'));
  } catch (error) {
    return notInstalled(error);
  }
}

// tsup defines this as `require` in the CommonJS build and `undefined` in the ESM one; a plain
// `require` would make esbuild add a shim chunk that every entry loads.
declare const __CJS_REQUIRE__: ((id: string) => unknown) | undefined;

// The ESM build reaches node:module through getBuiltinModule, so no static Node import keeps the
// sandbox out of browsers; `require('msw')` then gets the same instance `import 'msw/node'` does.
function syncRequire(): ((id: string) => unknown) | undefined {
  if (typeof __CJS_REQUIRE__ === 'function') return __CJS_REQUIRE__;
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (nodeModule === undefined) return undefined;
  // The try keeps esbuild from warning about import.meta in the CommonJS build (never reached there).
  try {
    return nodeModule.createRequire(import.meta.url);
  } catch {
    return undefined;
  }
}

function notInstalled(error: unknown): LoadedMswHandlers {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
  return { ok: false, problem: `sandbox.handlers needs msw, which could not be loaded (${reason}); install it: npm i -D msw` };
}
