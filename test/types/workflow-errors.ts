// Compiled by `npm run typecheck` against the built types (test/types/tsconfig.json): one error
// shape for the workflow, with a cause whose `name` narrows to the SDK's class; fileMany results
// with a not-started state that must be handled before `error` is read.
import { isFilingError, type FileManyResult, type InvoicingClient } from 'invoicing-sdk';

declare const client: InvoicingClient;
declare const err: unknown;
declare const results: FileManyResult[];
declare const revision: number | undefined;

if (isFilingError(err)) {
  const name: string | undefined = err.cause?.name;
  if (err.cause.name === 'InvoiceCheckError') console.log(err.cause.report.errors.length, name);
  if (err.cause.name === 'AuthenticationError') console.log(err.cause.status, err.cause.hint);
  if (err.cause.name === 'TotalsMismatchError') console.log(err.cause.differences[0]?.field);
  // @ts-expect-error: an AuthenticationError has no report
  if (err.cause.name === 'AuthenticationError') console.log(err.cause.report);
}

for (const r of results) {
  if (r.ok) console.log(r.invoice.id);
  else if (r.notStarted) console.log(r.idempotencyKey);
  else console.log(r.error.step, r.error.cause.name);
  // @ts-expect-error: a not-started input has no error; narrow on notStarted first
  if (!r.ok) console.log(r.error.message);
}

void client.invoices.createAndFile({ businessId: 'b', buyer: { type: 'B2C' }, dueDate: 'd', lines: [] }, { externalRef: 'INV-1', revision });
void client.invoices.fileMany([], { revision: (_input, i) => (i === 0 ? 1 : undefined), stopSignal: AbortSignal.timeout(1000) });
