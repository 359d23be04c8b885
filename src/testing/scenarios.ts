import { isLaterStatus } from './statuses.js';

/**
 * Scenario names, for `createSandbox({ scenario })`, `sandbox.setScenario()` and the demo's `--scenario`.
 *
 * @example
 * ```ts
 * const name: ScenarioName = 'offline';
 * ```
 */
export type ScenarioName = 'accepted' | 'rejected' | 'offline' | 'field-error' | 'pending';

/**
 * What the tax authority does with a submitted invoice; a name alone takes the defaults.
 *
 * @example
 * ```ts
 * const sandbox = await createSandbox({ scenario: { name: 'offline', recoversOnAttempt: 2 } });
 * ```
 */
export type Scenario =
  | ScenarioName
  | {
      /** The authority accepts. */
      name: 'accepted';
      /** Status reached (default: the sandbox's `acceptedStatus`). */
      status?: string | undefined;
    }
  | {
      /** The authority rejects the invoice (a final status). */
      name: 'rejected';
      /** Status reached (default: the sandbox's `rejectedStatus`). */
      status?: string | undefined;
      /** The `errorMessage` it carries (default `Rejected by the tax authority`). */
      reason?: string | undefined;
    }
  | {
      /** The buyer's access points are offline. */
      name: 'offline';
      /** The automatic retry (1-3) that succeeds; 0 means the submit itself; `'never'` none. Default 1. */
      recoversOnAttempt?: number | 'never' | undefined;
      /** Error message (default `Access points are offline`). */
      message?: string | undefined;
      /** Whether the service's retry job picks the invoice up (default true). */
      automaticRetries?: boolean | undefined;
    }
  | {
      /** The authority rejects one field, at every attempt. */
      name: 'field-error';
      /** The field named (default `buyer.tin`). */
      field?: string | undefined;
      /** Error message (default `Validation failed: <field> is invalid`). */
      message?: string | undefined;
      /** Whether the service's retry job picks the invoice up (default true). */
      automaticRetries?: boolean | undefined;
    }
  | {
      /** The authority never answers. */
      name: 'pending';
    };

/**
 * Chooses a scenario per invoice; `undefined` falls back to the sandbox's default scenario.
 *
 * @example
 * ```ts
 * const rule: ScenarioRule = (invoice) => (invoice.buyer.tin === 'OFFLINE' ? 'offline' : undefined);
 * ```
 */
export type ScenarioRule = (invoice: ScenarioSubject) => Scenario | undefined;

/**
 * What a scenario rule sees of the invoice (a copy).
 *
 * @example
 * ```ts
 * const tin = (invoice: ScenarioSubject) => invoice.buyer.tin;
 * ```
 */
export interface ScenarioSubject {
  /** Invoice id. */
  id: string;
  /** Its business. */
  businessId: string;
  /** The buyer as created. */
  buyer: {
    /** `B2B`, `B2C` or `B2G`. */
    type: 'B2B' | 'B2C' | 'B2G';
    /** Tax identification number, as sent. */
    tin?: string;
    /** Name, as sent. */
    name?: string;
    /** Email, as sent. */
    email?: string;
  };
  /** The lines as created. */
  lines: Record<string, unknown>[];
  /** The idempotency key it was created with. */
  idempotencyKey: string;
  /** Automatic-recovery attempts used so far. */
  attempts: number;
}

/** A scenario with every default filled in. */
export type ResolvedScenario =
  | { name: 'accepted'; status: string }
  | { name: 'rejected'; status: string; reason: string }
  | { name: 'offline'; recoversOnAttempt: number | 'never'; message: string; automaticRetries: boolean }
  | { name: 'field-error'; field: string; message: string; automaticRetries: boolean }
  | { name: 'pending' };

/**
 * The document's first failure message to recognise: the buyer's access points are offline.
 *
 * @example
 * ```ts
 * expect(sandbox.invoices.get(id)?.errorMessage).toBe(OFFLINE_MESSAGE);
 * ```
 */
export const OFFLINE_MESSAGE = 'Access points are offline';

/**
 * The `errorMessage` of an invoice the `rejected` scenario turns down, unless it names a `reason`.
 *
 * @example
 * ```ts
 * expect(sandbox.invoices.get(id)?.errorMessage).toBe(REJECTED_MESSAGE);
 * ```
 */
export const REJECTED_MESSAGE = 'Rejected by the tax authority';

const NAMES: readonly ScenarioName[] = ['accepted', 'rejected', 'offline', 'field-error', 'pending'];

/** Fills in a scenario's defaults; throws on an unknown name so a typo fails at once. */
export function resolveScenario(scenario: Scenario, statuses: { acceptedStatus: string; rejectedStatus: string }): ResolvedScenario {
  const s = typeof scenario === 'string' ? { name: scenario } : scenario;
  switch (s.name) {
    case 'accepted':
      return { name: 'accepted', status: laterStatus(('status' in s && s.status) || statuses.acceptedStatus) };
    case 'rejected': {
      const r = s as Extract<Scenario, { name: 'rejected' }>;
      return { name: 'rejected', status: laterStatus(r.status || statuses.rejectedStatus), reason: r.reason ?? REJECTED_MESSAGE };
    }
    case 'offline': {
      const o = s as Extract<Scenario, { name: 'offline' }>;
      const on = o.recoversOnAttempt ?? 1;
      if (on !== 'never' && (!Number.isInteger(on) || on < 0)) {
        throw new RangeError(`recoversOnAttempt must be an integer >= 0 or 'never', got ${String(on)}`);
      }
      return {
        name: 'offline',
        recoversOnAttempt: on,
        message: o.message ?? OFFLINE_MESSAGE,
        automaticRetries: o.automaticRetries ?? true,
      };
    }
    case 'field-error': {
      const f = s as Extract<Scenario, { name: 'field-error' }>;
      const field = f.field ?? 'buyer.tin';
      return {
        name: 'field-error',
        field,
        message: f.message ?? `Validation failed: ${field} is invalid`,
        automaticRetries: f.automaticRetries ?? true,
      };
    }
    case 'pending':
      return { name: 'pending' };
    default:
      throw new RangeError(`Unknown scenario ${JSON.stringify((s as { name: unknown }).name)}; use one of ${NAMES.join(', ')}`);
  }
}

// A status before or at Submitted would leave clients waiting forever.
function laterStatus(status: string): string {
  if (!isLaterStatus(status)) {
    throw new RangeError(`A scenario's status must be a status after Submitted (such as 'Accepted'), got ${JSON.stringify(status)}`);
  }
  return status;
}

/**
 * Checks a scenario name given as text (the CLI's `--scenario`).
 *
 * @example
 * ```ts
 * const scenario = isScenarioName(flag) ? flag : 'accepted';
 * ```
 */
export function isScenarioName(value: string): value is ScenarioName {
  return (NAMES as readonly string[]).includes(value);
}

/** One submit attempt's result: attempt 0 is the submit itself, 1-3 the automatic retries. */
export type AttemptOutcome =
  | { kind: 'answered'; status: string; errorMessage: string | null }
  | { kind: 'failed'; message: string; automaticRetries: boolean }
  | { kind: 'no-answer' };

export function attemptOutcome(scenario: ResolvedScenario, attempt: number, acceptedStatus: string): AttemptOutcome {
  switch (scenario.name) {
    case 'accepted':
      return { kind: 'answered', status: scenario.status, errorMessage: null };
    case 'rejected':
      return { kind: 'answered', status: scenario.status, errorMessage: scenario.reason };
    case 'pending':
      return { kind: 'no-answer' };
    case 'offline':
      if (scenario.recoversOnAttempt !== 'never' && attempt >= scenario.recoversOnAttempt) {
        return { kind: 'answered', status: acceptedStatus, errorMessage: null };
      }
      return { kind: 'failed', message: scenario.message, automaticRetries: scenario.automaticRetries };
    case 'field-error':
      return { kind: 'failed', message: scenario.message, automaticRetries: scenario.automaticRetries };
  }
}
