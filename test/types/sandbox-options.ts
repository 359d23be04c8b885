// Compiled by `npm run typecheck` with exactOptionalPropertyTypes (test/types/tsconfig.json): every
// sandbox option may be given as undefined, which createSandbox() treats as left out.
import { createSandbox, type FaultSpec, type Sandbox, type SandboxOptions, type Scenario } from 'invoicing-sdk/testing';

declare const port: number | undefined;
declare const flag: boolean | undefined;
declare const text: string | undefined;
declare const sandbox: Sandbox;

// The case the option types are for: an environment variable that may be missing.
void createSandbox({ port: process.env.PORT ? Number(process.env.PORT) : undefined });

// Every option is listed (a new one without a row does not compile), each as possibly undefined.
export const every: { [K in keyof Required<SandboxOptions>]: SandboxOptions[K] } = {
  listen: flag,
  port,
  baseUrl: text,
  msw: flag,
  scenario: undefined,
  responseDelayMs: port,
  acceptedStatus: text,
  businessKeyDefect: flag,
  recordStyle: undefined,
  transitionResponse: undefined,
  categoryMinLength: port,
  unknownIsicCode: undefined,
  keyReplacement: undefined,
  now: text,
  timeScale: port,
  totals: undefined,
  totalsRounding: undefined,
  apiKey: text,
  sessionToken: text,
  businessId: text,
  requestLogLimit: port,
  statusSpelling: undefined,
  recoveryJobOffsetMs: port,
  attemptCount: flag,
  rejectedStatus: text,
  processingStatus: text,
  processingMs: port,
  routes: { retrieve: flag },
  apiDocs: undefined,
  apiDescription: undefined,
  totalField: text,
  apiKeyType: undefined,
};
void createSandbox(every);

// @ts-expect-error: undefined is accepted, a value of the wrong type still is not
void createSandbox({ port: '4010' });

// The other inputs of the testing entry take undefined the same way.
export const scenario: Scenario = { name: 'offline', recoversOnAttempt: port, message: text, automaticRetries: flag };
export const fault: FaultSpec = { kind: 'status', status: 503, method: text, path: undefined, times: port, retryAfter: undefined };
sandbox.createApiKey({ userId: text, name: text, type: text, keyableType: undefined, businessId: text, scopes: undefined, replaceExisting: flag });
sandbox.invoices.update('inv_1', { status: text, attempts: port, errorMessage: text, updatedAt: undefined, automaticRetries: flag });
sandbox.invoices.list({ status: text, businessId: text });
sandbox.createUser({ name: text, email: text });
sandbox.createBusiness({ ownerUserId: text, name: text });
sandbox.client({ apiKey: text, baseUrl: text });
