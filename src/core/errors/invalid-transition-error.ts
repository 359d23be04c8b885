import type { APIError } from './api-error.js';
import { ConflictError } from './conflict-error.js';
import { isErrorKind } from './names.js';

/**
 * What an {@link InvalidTransitionError} is built from.
 *
 * @example
 * ```ts
 * import type { InvalidTransitionErrorInit } from 'invoicing-sdk';
 * const init: InvalidTransitionErrorInit = {
 *   invoiceId: 'inv_123', transition: 'submit', currentStatus: 'DRAFT', rawStatus: 'draft',
 * };
 * ```
 */
export interface InvalidTransitionErrorInit {
  /** The invoice the transition was sent for. */
  invoiceId: string;
  /** The transition that was refused. */
  transition: 'validate' | 'sign' | 'submit';
  /** The invoice's canonical status when it was refused (read back from the service). */
  currentStatus: string;
  /** The status as the service spelled it. */
  rawStatus?: string | undefined;
  /** The service's answer (a 409 or 400), when there was one. */
  cause?: unknown;
}

const REQUIRED_FROM: Record<InvalidTransitionErrorInit['transition'], string> = {
  validate: 'DRAFT',
  sign: 'VALIDATED',
  submit: 'SIGNED (or ERROR once automatic recovery is over)',
};

const NEXT_STEP: Record<string, string> = {
  DRAFT: 'validate',
  VALIDATED: 'sign',
  SIGNED: 'submit',
};

/**
 * `validate`, `sign` or `submit` was refused because the invoice is not in a state that accepts it
 * (the service answered 409 or 400 meaning "wrong state"), and it has not already passed that step
 * either. Names the status the invoice is in, read back from the service when its message did not
 * say. `client.invoices.resumeFiling(id)` performs only the steps that are left.
 *
 * A conflict with the invoice's state, so it is a {@link ConflictError} (`isConflictError()` is true)
 * whatever the wire said. `status` is left as the service answered: usually 409, but 400 or 422
 * where the service used that for a wrong state, and the status of an earlier failure (or
 * `undefined`) when the answer was lost and the SDK learnt the state by reading the invoice back.
 *
 * @example
 * ```ts
 * import { isInvalidTransitionError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.sign(id);
 * } catch (err) {
 *   if (isInvalidTransitionError(err)) console.error(`${err.invoiceId} is ${err.currentStatus}; ${err.hint}`);
 * }
 * ```
 */
export class InvalidTransitionError extends ConflictError {
  /** Always `InvalidTransitionError`: a stable name, also for the name-based guards. */
  override readonly name = 'InvalidTransitionError' as const;
  /** The invoice the transition was sent for. */
  readonly invoiceId: string;
  /** The transition that was refused. */
  readonly transition: InvalidTransitionErrorInit['transition'];
  /** The invoice's canonical status when it was refused. */
  readonly currentStatus: string;
  /** The status as the service spelled it. */
  readonly rawStatus: string | undefined;

  constructor(init: InvalidTransitionErrorInit) {
    const answer = init.cause as Partial<APIError> | undefined;
    const shown = init.rawStatus ?? init.currentStatus;
    const next = NEXT_STEP[init.currentStatus];
    super({
      message:
        `Cannot ${init.transition} invoice ${init.invoiceId}: it is ${shown}; ` +
        `${init.transition} needs ${REQUIRED_FROM[init.transition]}` +
        (typeof answer?.message === 'string' && answer.message !== '' ? ` (service: ${answer.message})` : ''),
      status: typeof answer?.status === 'number' ? answer.status : undefined,
      code: answer?.code,
      body: answer?.body,
      requestId: answer?.requestId,
      method: answer?.method,
      path: answer?.path,
      hint:
        init.currentStatus === 'ERROR'
          ? `The invoice is in Error. While the service's automatic recovery is in progress (a retry every 10 minutes, up to 3, within 24 hours) a submit is refused and would not speed it up: follow it with client.invoices.waitFor('${init.invoiceId}'). Once recovery is over, client.invoices.resumeFiling('${init.invoiceId}') re-submits it once.`
          : next === undefined
          ? `The invoice is ${shown}. client.invoices.resumeFiling('${init.invoiceId}') performs only what is left, if anything.`
          : `The next step for a ${shown} invoice is ${next}; client.invoices.resumeFiling('${init.invoiceId}') performs only the steps left.`,
      cause: init.cause,
    });
    this.invoiceId = init.invoiceId;
    this.transition = init.transition;
    this.currentStatus = init.currentStatus;
    this.rawStatus = init.rawStatus;
  }

  protected override details(): Record<string, unknown> {
    return {
      ...super.details(),
      invoiceId: this.invoiceId,
      transition: this.transition,
      currentStatus: this.currentStatus,
      rawStatus: this.rawStatus,
    };
  }
}

/**
 * True for an {@link InvalidTransitionError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isInvalidTransitionError } from 'invoicing-sdk';
 * isInvalidTransitionError(new Error('x')); // false
 * ```
 */
export function isInvalidTransitionError(value: unknown): value is InvalidTransitionError {
  return isErrorKind(value, 'InvalidTransitionError');
}
