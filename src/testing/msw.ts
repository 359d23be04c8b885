// msw is an optional peer dependency: loaded lazily, its types never imported, so the declarations compile without it.

/** One msw request handler, for `setupServer(...)`. Typed `any`: naming msw's types would break users without msw, and its `RequestHandler` class has private members no structural type can match. @example const handlers: SandboxMswHandler[] = sandbox.handlers; */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SandboxMswHandler = any;

type Msw = { http: { all(path: string, resolver: (info: { request: Request }) => Promise<Response>): SandboxMswHandler } };
type Handle = (request: Request) => Promise<Response>;

export type LoadedMswHandlers = { ok: true; handlers: SandboxMswHandler[] } | { ok: false; problem: string };

const NO_SYNC_LOAD =
  'sandbox.handlers cannot load msw synchronously in this runtime: create the sandbox with { msw: true } to load it at start';

// `sync` for the `sandbox.handlers` getter of a sandbox that did not preload msw.
export function loadMswHandlers(origin: string, handle: Handle, sync: true): LoadedMswHandlers;
export function loadMswHandlers(origin: string, handle: Handle, sync: false): Promise<LoadedMswHandlers>;
export function loadMswHandlers(origin: string, handle: Handle, sync: boolean): LoadedMswHandlers | Promise<LoadedMswHandlers> {
  // Every path under the origin: the sandbox answers 404 for unknown routes, as the server does.
  const loaded = (msw: unknown): LoadedMswHandlers => ({ ok: true, handlers: [(msw as Msw).http.all(`${origin}/*`, ({ request }) => handle(request))] });
  if (!sync) return import('msw').then(loaded, notInstalled);
  const load = syncRequire();
  if (load === undefined) return { ok: false, problem: NO_SYNC_LOAD };
  try {
    return loaded(load('msw'));
  } catch (error) {
    return notInstalled(error);
  }
}

// `require` in tsup's CommonJS build, `undefined` in the ESM one (a plain `require` adds a shim chunk to every entry).
declare const __CJS_REQUIRE__: ((id: string) => unknown) | undefined;

// No static Node import, so browsers can load the sandbox; `require('msw')` gets the instance `import 'msw/node'` does.
function syncRequire(): ((id: string) => unknown) | undefined {
  if (typeof __CJS_REQUIRE__ === 'function') return __CJS_REQUIRE__;
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (nodeModule === undefined) return undefined;
  // The try keeps esbuild from warning about import.meta in the CommonJS build.
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
