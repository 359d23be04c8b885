import type { TotalsDifference } from '../../check/index.js';
import { InvoicingError } from './invoicing-error.js';
import { isErrorKind } from './names.js';

/**
 * Invoice totals as decimal strings (`"107.50"`); a figure the service did not return is
 * `undefined`.
 *
 * @example
 * ```ts
 * import type { TotalsFigures } from 'invoicing-sdk';
 * const t: TotalsFigures = { subtotal: '100.00', taxTotal: '7.50', total: '107.50' };
 * ```
 */
export interface TotalsFigures {
  /** Sum of the lines before tax. */
  subtotal?: string | undefined;
  /** Sum of the tax. */
  taxTotal?: string | undefined;
  /** Subtotal plus tax. */
  total?: string | undefined;
}

/**
 * What a {@link TotalsMismatchError} is built from.
 *
 * @example
 * ```ts
 * import { TotalsMismatchError } from 'invoicing-sdk';
 * new TotalsMismatchError({
 *   invoiceId: 'inv_1',
 *   expected: { total: '107.50' },
 *   actual: { total: '110.00' },
 *   differences: [{ field: 'total', expected: '107.50', actual: '110.00' }],
 * });
 * ```
 */
export interface TotalsMismatchErrorInit {
  /** The draft whose totals disagree. */
  invoiceId: string;
  /** Totals computed from the lines. */
  expected: TotalsFigures;
  /** Totals the service returned. */
  actual: TotalsFigures;
  /** The figures that differ (as `compareTotals()` gives them). */
  differences: TotalsDifference[];
}

/**
 * The service's totals contradict the invoice's lines. The tax authority does not check the
 * arithmetic and would file the wrong figures, so filing stopped before validate: the invoice is
 * still a draft and nothing was filed.
 *
 * @example
 * ```ts
 * import { isTotalsMismatchError } from 'invoicing-sdk';
 * try {
 *   await client.invoices.createAndFile(input);
 * } catch (err) {
 *   if (isTotalsMismatchError(err)) console.error(err.invoiceId, err.differences);
 * }
 * ```
 */
export class TotalsMismatchError extends InvoicingError {
  /** Always `TotalsMismatchError`: a stable name, also for the name-based guards. */
  override readonly name = 'TotalsMismatchError' as const;
  /** The draft whose totals disagree (not validated, signed or submitted). */
  readonly invoiceId: string;
  /** Totals computed from the lines. */
  readonly expected: TotalsFigures;
  /** Totals the service returned. */
  readonly actual: TotalsFigures;
  /** The figures that differ. */
  readonly differences: TotalsDifference[];

  constructor(init: TotalsMismatchErrorInit) {
    const listed = init.differences
      .map((d) => `${d.field} ${d.actual} (lines give ${d.expected})`)
      .join(', ');
    super(
      `The service's totals for invoice ${init.invoiceId} contradict its lines: ${listed}. Nothing was filed.`,
      {
        hint:
          `Invoice ${init.invoiceId} is still a draft. The tax authority does not check the ` +
          'arithmetic, so do not file it: check the lines (quantity, unitPrice, discountRate, ' +
          'taxRate) and the figures the service returned, then create a corrected invoice.',
      },
    );
    this.invoiceId = init.invoiceId;
    this.expected = init.expected;
    this.actual = init.actual;
    this.differences = init.differences;
  }

  /** The invoice and the differing figures. */
  protected override details(): Record<string, unknown> {
    return { invoiceId: this.invoiceId, differences: this.differences };
  }
}

/**
 * True for a {@link TotalsMismatchError}, by `name` (works across realms).
 *
 * @example
 * ```ts
 * import { isTotalsMismatchError } from 'invoicing-sdk';
 * isTotalsMismatchError(new Error('x')); // false
 * ```
 */
export function isTotalsMismatchError(value: unknown): value is TotalsMismatchError {
  return isErrorKind(value, 'TotalsMismatchError');
}
