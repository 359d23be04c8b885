/**
 * `invoicing-sdk/testing`: a stateful emulation of the whole service for tests and demos, served
 * on a loopback port or through msw handlers, with one behaviour.
 *
 * @example
 * ```ts
 * import { createSandbox } from 'invoicing-sdk/testing';
 * const sandbox = await createSandbox();
 * const client = sandbox.client();
 * ```
 *
 * @module
 */
export { createSandbox } from './sandbox.js';
export type { Sandbox, SandboxApiKey, SandboxApiKeyInput, SandboxInvoice, SandboxInvoicePatch, SandboxInvoices, SandboxUser } from './sandbox.js';
export type {
  ApiDocsMode, KeyReplacement, RecordStyle, SandboxOptions, SandboxRoutes, SandboxTotals, TransitionResponse, UnknownIsicCodeHandling,
} from './options.js';
export type { SandboxClock } from './clock.js';
export type { SandboxMswHandler } from './msw.js';
export type { FaultKind, FaultMatch, FaultRequestInfo, FaultSpec, InjectedFault, MalformedVariant, SandboxFaults } from './faults.js';
export type { RequestLogEntry, RequestOutcome } from './handler.js';
export { OFFLINE_MESSAGE, REJECTED_MESSAGE, isScenarioName } from './scenarios.js';
export type { Scenario, ScenarioName, ScenarioRule, ScenarioSubject, StatusSpelling } from './scenarios.js';
export { CLASSIFICATION_MESSAGE } from './validation.js';
