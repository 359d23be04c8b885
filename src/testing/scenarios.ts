// The document's statuses and what the tax authority does with a submitted invoice, stated here, never taken from the SDK.
import type { FilingTransition, KnownInvoiceStatus } from '../model/status.js';

// The five statuses the document names, as its transition table spells them.
const DOCUMENT_SPELLING: Readonly<Record<KnownInvoiceStatus, string>> = {
  DRAFT: 'draft', VALIDATED: 'Validated', SIGNED: 'Signed', SUBMITTED: 'Submitted', ERROR: 'Error',
};

export const DOCUMENTED_STATUSES = Object.keys(DOCUMENT_SPELLING) as readonly KnownInvoiceStatus[];

// The document's transitions; a submit from Error is a re-submit.
type Step = { from: readonly KnownInvoiceStatus[]; to: KnownInvoiceStatus; done: string };
export const STEPS: Readonly<Record<FilingTransition, Step>> = {
  validate: { from: ['DRAFT'], to: 'VALIDATED', done: 'validated' },
  sign: { from: ['VALIDATED'], to: 'SIGNED', done: 'signed' },
  submit: { from: ['SIGNED', 'ERROR'], to: 'SUBMITTED', done: 'submitted' },
};

// Case, spaces, `-` and `_` do not tell two spellings apart.
const fold = (value: string): string => value.trim().toLowerCase().replace(/[\s_-]+/g, '');
export const sameStatus = (a: string, b: string): boolean => fold(a) === fold(b);
const documentedStatus = (value: string): KnownInvoiceStatus | undefined => DOCUMENTED_STATUSES.find((s) => sameStatus(s, value));

/** A status as a record holds it: a documented one in canonical form, any other trimmed as given. */
export const recordStatus = (value: string): string => documentedStatus(value) ?? value.trim();

export const isLaterStatus = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && documentedStatus(value) === undefined;

/** How the five documented statuses are spelled on the wire: `document` (`draft`, `Validated`, …, as its transition table writes them), `capitalized`, `upper` or `lower`. Later statuses are sent as given. @example const sandbox = await createSandbox({ statusSpelling: 'upper' }); */
export type StatusSpelling = 'document' | 'capitalized' | 'upper' | 'lower';

const SPELL: Record<StatusSpelling, (status: KnownInvoiceStatus) => string> = {
  document: (status) => DOCUMENT_SPELLING[status],
  capitalized: (status) => status.charAt(0) + status.slice(1).toLowerCase(),
  upper: (status) => status,
  lower: (status) => status.toLowerCase(),
};
export const STATUS_SPELLINGS = Object.keys(SPELL) as readonly StatusSpelling[];

export const spell = (status: string, spelling: StatusSpelling = 'document'): string =>
  Object.hasOwn(DOCUMENT_SPELLING, status) ? SPELL[spelling](status as KnownInvoiceStatus) : status;

/** Scenario names, for `createSandbox({ scenario })`, `sandbox.setScenario()` and the demo's `--scenario`. @example const name: ScenarioName = 'offline'; */
export type ScenarioName = 'accepted' | 'rejected' | 'offline' | 'field-error' | 'pending';

/** What the tax authority does with a submitted invoice; a name alone takes the defaults. @example const sandbox = await createSandbox({ scenario: { name: 'offline', recoversOnAttempt: 2 } }); */
export type Scenario =
  | ScenarioName
  | {
      /** The authority accepts. */ name: 'accepted';
      /** Status reached (default: the sandbox's `acceptedStatus`). */ status?: string | undefined;
    }
  | {
      /** The authority rejects the invoice (a final status). */ name: 'rejected';
      /** Status reached (default: the sandbox's `rejectedStatus`). */ status?: string | undefined;
      /** The `errorMessage` it carries (default `Rejected by the tax authority`). */ reason?: string | undefined;
    }
  | {
      /** The buyer's access points are offline. */ name: 'offline';
      /** The retry (1-3) that succeeds; 0: the submit; `'never'` none (default 1). */ recoversOnAttempt?: number | 'never' | undefined;
      /** Error message (default `Access points are offline`). */ message?: string | undefined;
      /** Whether the service's retry job picks the invoice up (default true). */ automaticRetries?: boolean | undefined;
    }
  | {
      /** The authority rejects one field, at every attempt. */ name: 'field-error';
      /** The field named (default `buyer.tin`). */ field?: string | undefined;
      /** Error message (default `Validation failed: <field> is invalid`). */ message?: string | undefined;
      /** Whether the service's retry job picks the invoice up (default true). */ automaticRetries?: boolean | undefined;
    }
  | {
      /** The authority never answers. */ name: 'pending';
    };

/** Chooses a scenario per invoice; `undefined` falls back to the sandbox's default scenario. @example const rule: ScenarioRule = (invoice) => (invoice.buyer.tin === 'OFFLINE' ? 'offline' : undefined); */
export type ScenarioRule = (invoice: ScenarioSubject) => Scenario | undefined;

/** What a scenario rule sees of the invoice (a copy). @example const tin = (invoice: ScenarioSubject) => invoice.buyer.tin; */
export interface ScenarioSubject {
  /** Invoice id. */ id: string;
  /** Its business. */ businessId: string;
  /** The buyer as created. */
  buyer: {
    /** `B2B`, `B2C` or `B2G`. */ type: 'B2B' | 'B2C' | 'B2G';
    /** Tax identification number, as sent. */ tin?: string;
    /** Name, as sent. */ name?: string;
    /** Email, as sent. */ email?: string;
  };
  /** The lines as created. */ lines: Record<string, unknown>[];
  /** The idempotency key it was created with. */ idempotencyKey: string;
  /** Automatic-recovery attempts used so far. */ attempts: number;
}

/** The document's first failure message to recognise: the buyer's access points are offline. @example expect(sandbox.invoices.get(id)?.errorMessage).toBe(OFFLINE_MESSAGE); */
export const OFFLINE_MESSAGE = 'Access points are offline';

/** The `errorMessage` of an invoice the `rejected` scenario turns down, unless it names a `reason`. @example expect(sandbox.invoices.get(id)?.errorMessage).toBe(REJECTED_MESSAGE); */
export const REJECTED_MESSAGE = 'Rejected by the tax authority';

const NAMES: readonly ScenarioName[] = ['accepted', 'rejected', 'offline', 'field-error', 'pending'];

/** A scenario with its defaults: the answer it reaches (none when pending), or the failure it reports until it recovers. */
export interface ResolvedScenario {
  status?: string;
  errorMessage: string | null;
  failure?: { message: string; automaticRetries: boolean; recoversOnAttempt: number | 'never' };
}

/** Fills in a scenario's defaults; throws on an unknown name so a typo fails at once. */
export function resolveScenario(scenario: Scenario, statuses: { acceptedStatus: string; rejectedStatus: string }): ResolvedScenario {
  const s = (typeof scenario === 'string' ? { name: scenario } : scenario) as Record<string, string | undefined> & { name: string };
  if (!isScenarioName(s.name)) throw new RangeError(`Unknown scenario ${JSON.stringify(s.name)}; use one of ${NAMES.join(', ')}`);
  if (s.name === 'pending') return { errorMessage: null };
  if (s.name === 'accepted' || s.name === 'rejected') {
    const status = s.status || (s.name === 'accepted' ? statuses.acceptedStatus : statuses.rejectedStatus);
    if (!isLaterStatus(status)) {
      throw new RangeError(`A scenario's status must be a status after Submitted (such as 'Accepted'), got ${JSON.stringify(status)}`);
    }
    return { status, errorMessage: s.name === 'accepted' ? null : (s.reason ?? REJECTED_MESSAGE) };
  }
  const on = s.name === 'offline' ? ((s as { recoversOnAttempt?: number | 'never' }).recoversOnAttempt ?? 1) : 'never';
  if (on !== 'never' && (!Number.isInteger(on) || on < 0)) {
    throw new RangeError(`recoversOnAttempt must be an integer >= 0 or 'never', got ${String(on)}`);
  }
  const message = s.message ?? (s.name === 'offline' ? OFFLINE_MESSAGE : `Validation failed: ${s.field ?? 'buyer.tin'} is invalid`);
  const automaticRetries = (s as { automaticRetries?: boolean }).automaticRetries ?? true;
  return { status: statuses.acceptedStatus, errorMessage: null, failure: { message, automaticRetries, recoversOnAttempt: on } };
}

/** Checks a scenario name given as text (the CLI's `--scenario`). @example const scenario = isScenarioName(flag) ? flag : 'accepted'; */
export function isScenarioName(value: string): value is ScenarioName {
  return (NAMES as readonly string[]).includes(value);
}
