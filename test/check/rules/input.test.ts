import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvoice, checkInvoiceAsSent, formatIssuePath } from '../../../src/check/index.js';
import { MAX_INPUT_DEPTH } from '../../../src/check/rules/fields.js';
import { validInvoice, withBuyer, withInvoice, withLine, type Json } from '../fixtures.js';

const issues = (r: ReturnType<typeof checkInvoice>) =>
  [...r.errors, ...r.warnings].filter((i) => i.code.startsWith('INPUT_')).map((i) => [i.code, formatIssuePath(i.path)]);

/** `levels` objects nested under `a`: `{ a: { a: {} } }` is 3. */
function nested(levels: number): Json {
  let value: Json = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('check/rules/fields (input that cannot be an invoice)', () => {
  it('reports a reference back to an enclosing object as INPUT_CYCLIC, where JSON.stringify would throw a TypeError', () => {
    const inv = validInvoice();
    const line = (inv.lines as Json[])[0] as Json;
    line.invoice = inv;
    expect(() => JSON.stringify(inv)).toThrow(TypeError);
    const r = checkInvoice(inv);
    expect(r.ok).toBe(false);
    expect(issues(r)).toEqual([['INPUT_CYCLIC', 'lines[0].invoice']]);
    expect(r.errors[0]?.message).toContain('refers back to (invoice)');

    const buyer = withBuyer({});
    (buyer.buyer as Json).self = buyer.buyer;
    expect(issues(checkInvoice(buyer))).toEqual([['INPUT_CYCLIC', 'buyer.self']]);
    expect(checkInvoice(buyer).errors[0]?.message).toContain('refers back to buyer');

    const list: unknown[] = [];
    list.push({ list });
    expect(issues(checkInvoice(withInvoice({ extra: list })))).toEqual([['INPUT_CYCLIC', 'extra[0].list']]);
    expect(checkInvoice(withInvoice({ extra: list })).errors[0]?.message).toContain('refers back to extra');
    // A line that holds the lines array.
    const holder = validInvoice();
    ((holder.lines as Json[])[1] as Json).siblings = holder.lines;
    expect(issues(checkInvoice(holder))).toEqual([['INPUT_CYCLIC', 'lines[1].siblings']]);
    expect(checkInvoice(holder).errors[0]?.message).toContain('refers back to lines:');
  });

  it('walks a shared (acyclic) object once and does not call it a cycle', () => {
    const shared = { note: 'x' };
    expect(issues(checkInvoice(withInvoice({ a: shared, b: [shared, shared] })))).toEqual([]);
    // 2^60 paths through 60 shared levels: read once per object, so this returns at once.
    let dag: unknown = 'leaf';
    for (let i = 0; i < 60; i++) dag = [dag, dag];
    const r = checkInvoice(withInvoice({ extra: dag }));
    expect(issues(r)).toEqual([]);
    expect(r.warnings.map((i) => i.code)).toEqual(['UNKNOWN_FIELD']);
  });

  it(`reads input ${MAX_INPUT_DEPTH} levels deep and reports deeper nesting as INPUT_TOO_DEEP, with no RangeError`, () => {
    expect(MAX_INPUT_DEPTH).toBe(64);
    // extra is level 1, so `levels` nested objects put the innermost at level `levels`.
    expect(issues(checkInvoice(withInvoice({ extra: nested(MAX_INPUT_DEPTH) })))).toEqual([]);
    const deeper = checkInvoice(withInvoice({ extra: nested(MAX_INPUT_DEPTH + 1) }));
    expect(deeper.ok).toBe(false);
    expect(deeper.errors.map((i) => [i.code, i.path.length])).toEqual([['INPUT_TOO_DEEP', MAX_INPUT_DEPTH + 1]]);
    expect(deeper.errors[0]?.message).toContain('more than 64 levels');
    // Deep enough that JSON.stringify itself overflows the stack.
    const huge = withLine({ extra: nested(200_000) });
    expect(() => JSON.stringify(huge)).toThrow(RangeError);
    for (const check of [checkInvoice, checkInvoiceAsSent]) {
      expect(issues(check(huge))).toEqual([['INPUT_TOO_DEEP', `lines[0].extra${'.a'.repeat(MAX_INPUT_DEPTH - 2)}`]]);
    }
  });

  it('reports a Map, Set or other non-JSON object where the invoice, the buyer or a line belongs, once, at its path', () => {
    const map = checkInvoice(new Map(Object.entries(validInvoice())));
    expect(map.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['INPUT_NOT_PLAIN_DATA', '(invoice)']]);
    expect(map.errors[0]?.message).toContain('a Map, which JSON.stringify sends as {}');

    const buyer = checkInvoice(withInvoice({ buyer: new Map([['type', 'B2B'], ['tin', '12345678-0001']]) }));
    expect(buyer.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['INPUT_NOT_PLAIN_DATA', 'buyer']]);

    const inv = validInvoice();
    (inv.lines as unknown[])[0] = new Set(['Laptop']);
    const line = checkInvoiceAsSent(inv);
    expect(line.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0]']]);
    expect(line.errors[0]?.message).toContain('a Set');
  });

  it('reports values JSON.stringify drops or throws on inside fields the service does not read', () => {
    const at = (extra: unknown) => issues(checkInvoice(withLine({ extra })));
    expect(at(10n)).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra']]);
    expect(at({ nested: [1, 2n] })).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra.nested[1]']]);
    expect(at(() => 1)).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra']]);
    expect(at(Symbol('s'))).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra']]);
    expect(at(new Map())).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra']]);
    expect(at(new Uint8Array(2))).toEqual([['INPUT_NOT_PLAIN_DATA', 'lines[0].extra']]);
    // JSON data, and objects JSON.stringify sends through toJSON, are fine.
    expect(at({ a: [1, 'b', null, true, { c: new Date(0) }] })).toEqual([]);
    expect(checkInvoice(withLine({ extra: 10n })).ok).toBe(false);
  });

  it('reports a getter or proxy that throws as INPUT_UNREADABLE, never throwing itself', () => {
    const proxy = new Proxy(validInvoice(), {
      get() {
        throw new RangeError('trap');
      },
    });
    expect(checkInvoice(proxy).errors.map((i) => i.code)).toEqual(['INPUT_UNREADABLE']);
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(checkInvoice(revoked).errors.map((i) => i.code)).toEqual(['INPUT_UNREADABLE']);
    expect(checkInvoice(withLine({ extra: revoked })).errors.map((i) => i.code)).toEqual(['INPUT_UNREADABLE']);
  });

  it('never throws, and is never ok when JSON.stringify cannot send the input (property)', () => {
    const value = fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withMap: true,
      withSet: true,
      withBoxedValues: true,
      withTypedArray: true,
      withSparseArray: true,
      withNullPrototype: true,
      withDate: true,
    });
    fc.assert(
      fc.property(value, fc.constantFrom('invoice', 'extra', 'line', 'buyer'), (v, where) => {
        const input =
          where === 'invoice' ? v : where === 'extra' ? withInvoice({ extra: v }) : where === 'line' ? withLine({ note: v }) : withBuyer({ ref: v });
        let sendable = true;
        try {
          JSON.stringify(input);
        } catch {
          sendable = false;
        }
        const r = checkInvoice(input);
        if (!sendable) expect(r.ok).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });
});
