/**
 * The outcome of one check: `skip` when an earlier check failed or a credential is not configured.
 * @example
 * ```ts
 * const s: DiagnosisStatus = 'fail';
 * ```
 */
export type DiagnosisStatus = 'pass' | 'warn' | 'fail' | 'skip';

/**
 * One check of `client.diagnose()`: what was found, and what to do about it.
 * @example
 * ```ts
 * for (const check of (await client.diagnose()).checks) console.log(check.status, check.finding);
 * ```
 */
export interface DiagnosisCheck {
  /** Stable id, such as `api-key` or `drift-routes`. */ id: string;
  /** What the check is about. */ area: 'reachability' | 'credentials' | 'clock' | 'routes' | 'drift';
  /** pass, warn, fail or skip. */ status: DiagnosisStatus;
  /** What was found, one sentence. Secrets are never part of it. */ finding: string;
  /** What to do, where there is something to do. */ hint?: string;
  /** One line per difference (drift) or per field (field names). */ details?: string[];
}

/**
 * What `client.diagnose()` gives.
 * @example
 * ```ts
 * if (!(await client.diagnose()).ok) process.exitCode = 1;
 * ```
 */
export interface Diagnosis {
  /** True when no check failed (with `strict`, and none warned). */ ok: boolean;
  /** Whether warnings counted as failures. */ strict: boolean;
  /** The service's origin as the client resolved it. */ baseUrl: string;
  /** When the diagnosis ran, ISO 8601 (this machine's clock). */ checkedAt: string;
  /** Every check, in order: reachability, credentials, clock, routes, drift. */ checks: DiagnosisCheck[];
  /** How many checks ended with each status. */ counts: Record<DiagnosisStatus, number>;
}

/**
 * Options of `client.diagnose()`.
 * @example
 * ```ts
 * const diagnosis = await client.diagnose({ timeout: 5_000, strict: true });
 * ```
 */
export interface DiagnoseOptions {
  /** Count warnings as failures (default false). */ strict?: boolean | undefined;
  /** Milliseconds per request (default: the client's `timeout`). Requests are not retried. */ timeout?: number | undefined;
  /** Aborts the diagnosis. */ signal?: AbortSignal | undefined;
}

const AREAS: Record<string, DiagnosisCheck['area']> = {
  https: 'reachability', 'base-url': 'reachability', 'api-prefix': 'reachability',
  'api-key': 'credentials', scopes: 'credentials', 'key-type': 'credentials',
  clock: 'clock', 'read-route': 'routes', 'page-size': 'routes', 'field-names': 'routes',
};

/** One check's result; the area follows from the id (every `drift`/`api-description` id is drift). */
export function result(id: string, status: DiagnosisStatus, finding: string, hint?: string, details?: string[]): DiagnosisCheck {
  return { id, area: AREAS[id] ?? 'drift', status, finding, ...(hint === undefined ? {} : { hint }), ...(details === undefined ? {} : { details }) };
}
