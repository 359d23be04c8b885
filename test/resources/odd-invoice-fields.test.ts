/**
 * `retrieve` and `list` over stored invoices with values no real invoice carries: an amount whose
 * exponent has nine digits, digit strings a hundred thousand long, fields nested thousands deep. Each
 * call resolves with an invoice (the odd field unreadable) or rejects with a typed InvoicingError,
 * never a RangeError. Bodies are written as JSON text, so the test itself never recurses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInvoicingError } from '../../src/core/errors.js';
import { DEFAULT_FIELD_MAP } from '../../src/model/field-map.js';
import { API, http, HttpResponse, testClient, useMswServer } from '../core/support.js';

const server = useMswServer();

/** JSON text of `inner` wrapped `depth` times (`{"message":…}` or `[…]`). */
function deepText(depth: number, wrap: 'message' | 'error' | 'array', inner = '"Access points are offline"'): string {
  if (wrap === 'array') return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  return `${`{"${wrap}":`.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** Serves `recordText` as the stored invoice and as a one-page listing of it. */
function serveRecord(recordText: string): void {
  const json = { 'content-type': 'application/json', 'x-request-id': 'req_odd_1' };
  const wrapped = (data: string) => `{"success":true,"data":${data},"timestamp":"2026-11-21T10:00:00.000Z","meta":{"total":1,"page":1,"limit":10,"totalPages":1}}`;
  server.use(
    http.get(`${API}/invoices/inv_1`, () => new HttpResponse(wrapped(recordText), { headers: json })),
    http.get(`${API}/invoices`, () => new HttpResponse(wrapped(`[${recordText}]`), { headers: json })),
  );
}

async function readBoth() {
  const client = testClient({ maxRetries: 0 });
  const one = await client.invoices.retrieve('inv_1');
  const page = await client.invoices.list();
  return { one, listed: page.data[0] };
}

const ALIASES = Object.values(DEFAULT_FIELD_MAP).flat().filter((alias) => !alias.includes('.'));

/** JSON text of a value no real invoice field carries. */
const oddValueText: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.stringMatching(/^-?\d{1,20}(\.\d{1,20})?$/), fc.constantFrom('e', 'E', 'e+', 'e-'), fc.bigInt({ min: 0n, max: 10n ** 30n }))
    .map(([mantissa, e, exponent]) => JSON.stringify(`${mantissa}${e}${exponent}`)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => JSON.stringify('9'.repeat(n))),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `1${'0'.repeat(n)}`),
  fc.tuple(fc.integer({ min: 0, max: 12_000 }), fc.constantFrom('message', 'error', 'array') as fc.Arbitrary<'message' | 'error' | 'array'>).map(
    ([depth, wrap]) => deepText(depth, wrap),
  ),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

describe('resources/invoices (odd stored fields)', () => {
  it.each(['"1e999999999"', '"1e-999999999"', '"-7.5E+999999999"', `"1e${'9'.repeat(40)}"`])(
    'reads a total of %s as unreadable (undefined)',
    async (total) => {
      serveRecord(`{"id":"inv_1","status":"Validated","total":${total},"subtotal":"100"}`);
      const { one, listed } = await readBoth();
      expect(one).toMatchObject({ id: 'inv_1', status: 'VALIDATED', total: undefined, subtotal: '100.00' });
      expect(listed).toMatchObject({ id: 'inv_1', total: undefined });
    },
  );

  it.each(['message', 'error', 'array'] as const)('reads an error field nested 9000 deep (%s) without a RangeError', async (wrap) => {
    serveRecord(`{"id":"inv_1","status":"Error","error":${deepText(9000, wrap)}}`);
    const { one, listed } = await readBoth();
    expect(one).toMatchObject({ id: 'inv_1', status: 'ERROR', errorMessage: undefined });
    expect(listed).toMatchObject({ id: 'inv_1', errorMessage: undefined });
  });

  it('resolves or rejects with a typed InvoicingError whatever odd values the aliased fields hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...ALIASES), { minLength: 1, maxLength: 6 }), fc.array(oddValueText, { minLength: 6, maxLength: 6 }), async (fields, values) => {
        const members = fields.map((field, i) => `${JSON.stringify(field)}:${values[i]}`);
        serveRecord(`{${members.join(',')}}`);
        const client = testClient({ maxRetries: 0 });
        for (const call of [() => client.invoices.retrieve('inv_1'), () => client.invoices.list().then((page) => page.data)]) {
          const outcome = await call().then(
            () => 'resolved',
            (err: unknown) => err,
          );
          if (outcome !== 'resolved') expect(outcome, String(outcome)).toSatisfy(isInvoicingError);
        }
      }),
      { numRuns: 60 },
    );
  });
});
