// Compiled by `npm run typecheck` with exactOptionalPropertyTypes (test/types/tsconfig.json): users
// with that flag pass options that may be undefined, which the SDK treats as absent.
import { checkInvoice, computeTotals, type Buyer, type InvoiceLineInput } from 'invoicing-sdk';
import { searchCodes } from 'invoicing-sdk/codes';

declare const flag: boolean | undefined;
declare const units: number | undefined;
declare const tin: string | undefined;
declare const discount: number | undefined;

checkInvoice({}, { strict: flag, minorUnits: units, hsCodes: undefined, expectedTotals: undefined });
computeTotals([], { minorUnits: units, rounding: undefined, roundingMode: undefined });
searchCodes('laptop', { kind: undefined, limit: units });
export const buyer: Buyer = { type: 'B2B', tin, name: undefined, email: undefined };
export const line: InvoiceLineInput = {
  description: 'x',
  quantity: 1,
  unitPrice: 1,
  taxRate: 7.5,
  hsnCode: '8471.30',
  discountRate: discount,
};
