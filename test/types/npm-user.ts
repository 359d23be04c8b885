// Compiled by `npm run typecheck` with the flags of a strict user project (test/types/tsconfig.json:
// strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off) against dist/.
import { InvoicingClient, type Invoice, type RotatedAPIKey } from 'invoicing-sdk';
import { createSandbox, type ScenarioRule } from 'invoicing-sdk/testing';

declare const invoice: Invoice;

// The stored buyer, lines and due date are typed; each may be absent from a record.
export const tin: string | undefined = invoice.buyer?.tin;
export const buyerType: string | undefined = invoice.buyer?.type;
export const due: string | undefined = invoice.dueDate;
export const firstPrice: string | undefined = invoice.lines?.[0]?.unitPrice;
export const descriptions: (string | undefined)[] = (invoice.lines ?? []).map((line) => line.description);
export const total: string | undefined = invoice.total;
// @ts-expect-error money is a decimal string, never a number
export const asNumber: number | undefined = invoice.total;
// @ts-expect-error the buyer may be absent from a record
export const mustHaveBuyer: string = invoice.buyer.type;
// @ts-expect-error noUncheckedIndexedAccess: a line may not exist
export const firstLine: string | undefined = invoice.lines?.[0].description;

// rotate() gives the new key's secret as present.
export async function rotate(client: InvoicingClient): Promise<string> {
  const rotated = await client.apiKeys.rotate({ name: 'n', type: 'LIVE', keyableType: 'USER', scopes: ['*'] });
  const secret: string = rotated.key;
  return secret;
}
// @ts-expect-error a rotated key without its secret is not a RotatedAPIKey
export const noSecret: RotatedAPIKey = { id: 'k', raw: {} };

// A scenario rule reads the buyer typed, as the invoice was created.
export const rule: ScenarioRule = (subject) => (subject.buyer.tin === 'OFFLINE' && subject.buyer.type === 'B2B' ? 'offline' : undefined);
// @ts-expect-error a buyer field that does not exist
export const typo: ScenarioRule = (subject) => (subject.buyer.tinn === 'x' ? 'offline' : undefined);

void createSandbox({ listen: false });
