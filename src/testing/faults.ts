/** How a `malformed` fault spoils the body. @example sandbox.faults.inject({ path: '/invoices/:id', kind: 'malformed', variant: 'truncated-json' }); */
export type MalformedVariant = 'html' | 'truncated-json' | 'empty' | 'wrong-envelope' | 'success-false' | 'missing-data' | 'huge';

/** The kinds of fault (see `FaultSpec`). @example const kind: FaultKind = 'drop-after'; */
export type FaultKind = 'drop-before' | 'drop-after' | 'status' | 'delay' | 'stall-body' | 'malformed';

/** What a fault's `match` predicate sees of the request. @example sandbox.faults.inject({ kind: 'drop-after', path: '/invoices', match: (req: FaultRequestInfo) => req.idempotencyKey === 'k-1' }); */
export interface FaultRequestInfo {
  /** Upper-case HTTP method. */ method: string;
  /** Path without the query, e.g. `/api/v1/invoices/inv_1/sign`. */ path: string;
  /** Values of the pattern's `:name` segments. */ params: Record<string, string>;
  /** Request headers (secrets included: the predicate runs inside the sandbox). */ headers: Headers;
  /** The parsed JSON body, or the raw text when it is not JSON. */ body: unknown;
  /** The `idempotency-key` header, if sent. */ idempotencyKey: string | undefined;
}

/** Which requests a fault applies to. @example const match: FaultMatch = { method: 'POST', path: '/invoices/:id/submit', times: 2, skip: 1 }; */
export interface FaultMatch {
  /** HTTP method to match, any case (default: every method). */ method?: string | undefined;
  /** A pattern (`/invoices/:id/sign`, `*`; `/api/v1` added when missing) or a RegExp (default: every path). */
  path?: string | RegExp | undefined;
  /** How many matching requests the fault applies to (default 1; `Infinity` for all). */ times?: number | undefined;
  /** Matching requests to let through untouched before the fault starts (default 0). */ skip?: number | undefined;
  /** Further condition on the request; return false to let it through (it then does not count). */
  match?: ((request: FaultRequestInfo) => boolean) | undefined;
}

/** A fault to inject. The server acts before the fault, except for `drop-before`, `status` and `delay` (these two act first only with `afterCommit`). @example sandbox.faults.inject({ method: 'POST', path: '/invoices', kind: 'status', status: 429, retryAfter: 1 }); */
export type FaultSpec = FaultMatch &
  (
    | {
        /** The connection drops before the server acts. */ kind: 'drop-before';
      }
    | {
        /** The server acts, then the connection drops without a response. */ kind: 'drop-after';
      }
    | {
        /** Answers an HTTP error instead of the real answer. */ kind: 'status';
        /** The HTTP status, 200-599 (e.g. 429, 503). */ status: number;
        /** Sent as `Retry-After`: seconds, or an HTTP date. */ retryAfter?: number | string | undefined;
        /** Body to send instead of the NestJS-style one (a string is sent as is). */ body?: unknown;
        /** Let the server act first (a 5xx after the write). */ afterCommit?: boolean | undefined;
      }
    | {
        /** Answers late. */ kind: 'delay';
        /** Real milliseconds to wait (fake timers move them). */ ms: number;
        /** Act at once and delay only the answer (default: wait, then act). */ afterCommit?: boolean | undefined;
      }
    | {
        /** Sends part of the body, then stalls. */ kind: 'stall-body';
        /** Bytes sent before the stall (default: half the body). */ bytes?: number | undefined;
      }
    | {
        /** Spoils the body of the real answer. */ kind: 'malformed';
        /** How (see {@link MalformedVariant}). */ variant: MalformedVariant;
        /** Status to send instead of the real one. */ status?: number | undefined;
        /** Size of a `huge` body (default 5 MiB). */ bytes?: number | undefined;
      }
  );

/** A fault in force: how often it fired, how often it still will, and a way to take it out. @example const fault = sandbox.faults.inject({ path: '/invoices/:id/submit', kind: 'drop-before' }); expect(fault.hits).toBe(0); */
export interface InjectedFault {
  /** Sequence number of the fault in this sandbox. */ readonly id: number;
  /** The spec it was injected with. */ readonly spec: Readonly<FaultSpec>;
  /** Requests it applied to. */ readonly hits: number;
  /** Applications left (`Infinity` when unbounded). */ readonly remaining: number;
  /** Takes the fault out; requests pass untouched from now on. */ remove(): void;
}

/** The fault registry of a sandbox. @example sandbox.faults.clear(); */
export interface SandboxFaults {
  /** Adds a fault; the first matching fault in insertion order applies to a request. */ inject(spec: FaultSpec): InjectedFault;
  /** Faults still in force. */ list(): InjectedFault[];
  /** Removes every fault. */ clear(): void;
}

type Pattern = { regex: RegExp; names: string[] };
interface Entry {
  spec: FaultSpec; method: string | undefined; pattern: Pattern | undefined; hits: number; skipped: number; handle: InjectedFault;
}

const KINDS: readonly FaultKind[] = ['drop-before', 'drop-after', 'status', 'delay', 'stall-body', 'malformed'];
const VARIANTS: readonly MalformedVariant[] = ['html', 'truncated-json', 'empty', 'wrong-envelope', 'success-false', 'missing-data', 'huge'];

/** `:name` matches one segment, `*` anything; `/api/v1` is prefixed unless the pattern starts with `/api/`. */
export function compilePattern(pattern: string): Pattern {
  if (pattern === '*') return { regex: /^.*$/, names: [] };
  const full = pattern.startsWith('/api/') ? pattern : `/api/v1${pattern.startsWith('/') ? '' : '/'}${pattern}`;
  const names: string[] = [];
  const segment = (part: string): string => {
    if (part === '*') return '.*';
    if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(part.slice(1));
    return '([^/]+)';
  };
  return { regex: new RegExp(`^${full.replace(/\/+$/, '').split('/').map(segment).join('/')}/?$`), names };
}

export function matchPattern(pattern: Pattern, path: string): Record<string, string> | undefined {
  const m = pattern.regex.exec(path);
  if (m === null) return undefined;
  return Object.fromEntries(pattern.names.map((name, i) => [name, safeDecode(m[i + 1] ?? '')]));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class FaultRegistry implements SandboxFaults {
  private entries: Entry[] = [];
  private nextId = 1;

  inject(spec: FaultSpec): InjectedFault {
    checkSpec(spec);
    const entry: Entry = {
      spec: { ...spec }, method: spec.method?.toUpperCase(), hits: 0, skipped: 0,
      pattern: typeof spec.path === 'string' ? compilePattern(spec.path) : spec.path && { regex: spec.path, names: [] },
      handle: {
        id: this.nextId++,
        get spec() { return entry.spec; },
        get hits() { return entry.hits; },
        get remaining() { return Math.max(0, (entry.spec.times ?? 1) - entry.hits); },
        remove: () => void (this.entries = this.entries.filter((e) => e !== entry)),
      },
    };
    this.entries.push(entry);
    return entry.handle;
  }

  readonly list = (): InjectedFault[] => this.entries.map((e) => e.handle);
  readonly clear = (): void => void this.entries.splice(0);

  take(info: FaultRequestInfo): FaultSpec | undefined {
    for (const entry of this.entries) {
      const { spec } = entry;
      if (entry.method !== undefined && entry.method !== '*' && entry.method !== info.method) continue;
      const params = entry.pattern ? matchPattern(entry.pattern, info.path) : {};
      if (params === undefined || (spec.match !== undefined && !spec.match({ ...info, params }))) continue;
      if (entry.skipped < (spec.skip ?? 0)) {
        entry.skipped += 1;
        continue;
      }
      entry.hits += 1;
      if (entry.hits >= (spec.times ?? 1)) entry.handle.remove();
      return spec;
    }
    return undefined;
  }
}

function checkSpec(spec: FaultSpec): void {
  const times = spec.times ?? 1;
  let problem: string | undefined;
  if (!KINDS.includes(spec.kind)) problem = `Unknown fault kind ${JSON.stringify(spec.kind)}; use one of ${KINDS.join(', ')}`;
  else if (!(times > 0) || (!Number.isInteger(times) && times !== Infinity)) problem = `times must be a positive integer or Infinity, got ${times}`;
  else if (spec.kind === 'status' && !(Number.isInteger(spec.status) && spec.status >= 200 && spec.status <= 599)) {
    problem = `status must be an HTTP status 200-599, got ${spec.status}`;
  } else if (spec.kind === 'delay' && !(Number.isFinite(spec.ms) && spec.ms >= 0)) problem = `delay needs ms >= 0, got ${spec.ms}`;
  else if (spec.kind === 'malformed' && !VARIANTS.includes(spec.variant)) {
    problem = `Unknown malformed variant ${JSON.stringify(spec.variant)}; use one of ${VARIANTS.join(', ')}`;
  }
  if (problem !== undefined) throw new RangeError(problem);
}
