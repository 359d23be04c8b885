import { describe, expect, it } from 'vitest';
import { checkInvoiceAsSent as checkInvoice, checkInvoice as checkAsGiven, formatIssuePath } from '../../../src/check/index.js';
import { VALID_TOTALS, validInvoice, type Json } from '../fixtures.js';

const issues = (input: unknown) => {
  const r = checkInvoice(input);
  return [...r.errors, ...r.warnings].map((i) => [i.code, formatIssuePath(i.path)]);
};
const INHERITED = /inherited \(from a prototype or a class getter\).*JSON\.stringify.*own/s;

/** The valid invoice's parts, as instances of classes with own fields. */
class Buyer {
  type = 'B2B';
  tin = '12345678-0001';
  name = 'Acme Ltd';
  email = 'ap@acme.example';
}
class Line {
  constructor(
    public description: string,
    public quantity: number,
    public unitPrice: number,
    public taxRate: number,
    public hsnCode?: string,
    public isicCode?: string,
  ) {
    if (hsnCode === undefined) delete this.hsnCode;
    if (isicCode === undefined) delete this.isicCode;
  }
}
class Invoice {
  businessId = 'biz_123';
  buyer = new Buyer();
  dueDate = '2026-12-31T00:00:00Z';
  lines = [new Line('Laptop', 2, 999.99, 7.5, '8471.30'), new Line('Consulting', 10, 150, 7.5, undefined, '6202')];
}

/** The same line with every field supplied by a class getter: JSON.stringify sends `{}`. */
class GetterLine {
  get description() {
    return 'Laptop';
  }
  get quantity() {
    return 2;
  }
  get unitPrice() {
    return 999.99;
  }
  get taxRate() {
    return 7.5;
  }
  get hsnCode() {
    return '8471.30';
  }
}

describe('check/rules/invoice (checkInvoiceAsSent: what create() checks and sends)', () => {
  it('checkInvoice itself reads the object as given, inherited fields included', () => {
    expect(checkAsGiven(Object.create(validInvoice())).ok).toBe(true);
    expect(checkInvoice(Object.create(validInvoice())).ok).toBe(false);
  });

  it('accepts class instances whose fields are their own, with the same totals as plain data', () => {
    const r = checkInvoice(new Invoice());
    expect(JSON.parse(JSON.stringify(new Invoice()))).toEqual(validInvoice());
    expect([...r.errors, ...r.warnings]).toEqual([]);
    expect(r.totals).toMatchObject(VALID_TOTALS);
  });

  it('judges an invoice with inherited fields by what JSON.stringify sends (nothing)', () => {
    const input = Object.create(validInvoice()) as object;
    expect(JSON.stringify(input)).toBe('{}');
    const r = checkInvoice(input);
    expect(r.ok).toBe(false);
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([
      ['FIELD_REQUIRED', 'businessId'],
      ['FIELD_REQUIRED', 'buyer'],
      ['FIELD_REQUIRED', 'dueDate'],
      ['FIELD_REQUIRED', 'lines'],
    ]);
    for (const issue of r.errors) {
      expect(issue.hint, formatIssuePath(issue.path)).toMatch(INHERITED);
      expect(issue.message).toContain('missing');
    }
    expect(r.totals).toBeUndefined();
  });

  it('judges an inherited buyer by its own properties, with the inherited hint at buyer.type', () => {
    const inv = validInvoice();
    inv.buyer = Object.create(inv.buyer as object);
    const r = checkInvoice(inv);
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['FIELD_REQUIRED', 'buyer.type']]);
    expect(r.errors[0]?.hint).toMatch(INHERITED);
    expect(r.errors[0]?.hint).toContain('type');
  });

  it('judges lines built with Object.create or class getters by their own properties, at their own paths', () => {
    const inv = validInvoice();
    const lines = inv.lines as Json[];
    inv.lines = [new GetterLine(), Object.create(lines[1] as object)];
    const r = checkInvoice(inv);
    const expected = (i: number) => [
      ['FIELD_REQUIRED', `lines[${i}].description`],
      ['FIELD_REQUIRED', `lines[${i}].quantity`],
      ['FIELD_REQUIRED', `lines[${i}].unitPrice`],
      ['FIELD_REQUIRED', `lines[${i}].taxRate`],
      ['CLASSIFICATION_MISSING', `lines[${i}]`],
    ];
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([...expected(0), ...expected(1)]);
    for (const issue of r.errors) expect(issue.hint, formatIssuePath(issue.path)).toMatch(INHERITED);
    expect(r.totals).toBeUndefined();
  });

  it('reports one inherited field among own ones, and computes no totals from what is not sent', () => {
    const inv = validInvoice();
    const lines = inv.lines as Json[];
    const { taxRate, ...rest } = lines[0] as Json;
    lines[0] = Object.assign(Object.create({ taxRate }) as object, rest);
    const r = checkInvoice(inv);
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['FIELD_REQUIRED', 'lines[0].taxRate']]);
    expect(r.errors[0]?.hint).toMatch(INHERITED);
    expect(r.totals).toBeUndefined();
  });

  it('does not report inherited fields that are not sent as unknown', () => {
    const inv = validInvoice();
    const lines = inv.lines as Json[];
    lines[0] = Object.assign(Object.create({ colour: 'red' }) as object, lines[0]);
    inv.buyer = Object.assign(Object.create({ vatNumber: 'x' }) as object, inv.buyer);
    expect(issues(inv)).toEqual([]);
    expect(checkInvoice(inv).totals).toMatchObject(VALID_TOTALS);
  });

  it('says when a field is an own property that is not enumerable', () => {
    const invoice = new Invoice();
    Object.defineProperty(invoice, 'businessId', { value: 'biz_123', enumerable: false });
    const r = checkInvoice(invoice);
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['FIELD_REQUIRED', 'businessId']]);
    expect(r.errors[0]?.hint).toContain('not enumerable');
  });

  it('judges an object with toJSON by what toJSON returns, as JSON.stringify does', () => {
    class Wrapped {
      readonly #data: Json;
      constructor(data: Json) {
        this.#data = data;
      }
      toJSON() {
        return this.#data;
      }
    }
    expect(checkInvoice(new Wrapped(validInvoice())).ok).toBe(true);
    const inv = validInvoice();
    inv.buyer = new Wrapped({ type: 'B2C' });
    inv.lines = [new Wrapped((validInvoice().lines as Json[])[0] as Json)];
    const r = checkInvoice(inv);
    expect([...r.errors, ...r.warnings]).toEqual([]);
    expect(r.totals?.subtotal).toBe('1999.98');

    const { businessId: _, ...withoutBusinessId } = validInvoice();
    const missing = checkInvoice(new Wrapped(withoutBusinessId));
    expect(missing.errors.map((i) => [i.code, formatIssuePath(i.path)])).toEqual([['FIELD_REQUIRED', 'businessId']]);
    expect(missing.errors[0]?.hint).not.toMatch(INHERITED);

    // A Date is sent as its ISO string, so a Date as buyer is a string, not an object.
    const dated = validInvoice();
    dated.buyer = new Date('2026-01-01T00:00:00Z');
    expect(issues(dated)).toEqual([['FIELD_WRONG_TYPE', 'buyer']]);
  });

  it('reports a getter that throws while the own properties are copied as INPUT_UNREADABLE, as for plain objects', () => {
    const invoice = new Invoice();
    Object.defineProperty(invoice, 'dueDate', {
      enumerable: true,
      get() {
        throw new Error('not readable');
      },
    });
    const r = checkInvoice(invoice);
    expect(r.errors.map((i) => [i.code, formatIssuePath(i.path), i.message])).toEqual([
      ['INPUT_UNREADABLE', '(invoice)', 'The input could not be read: Error: not readable.'],
    ]);
    const line = Object.create({
      toJSON() {
        throw new Error('toJSON says no');
      },
    }) as object;
    const inv = validInvoice();
    inv.lines = [line];
    expect(checkInvoice(inv).errors.map((i) => i.code)).toEqual(['INPUT_UNREADABLE']);
  });

  it('keeps null-prototype objects as they are', () => {
    const inv = Object.assign(Object.create(null) as Json, validInvoice());
    inv.buyer = Object.assign(Object.create(null) as Json, inv.buyer);
    inv.lines = (inv.lines as Json[]).map((l) => Object.assign(Object.create(null) as Json, l));
    expect(issues(inv)).toEqual([]);
  });
});

describe('check/rules/invoice (how many lines)', () => {
  const line = () => (validInvoice().lines as Json[])[1] as Json;
  const withLines = (lines: unknown[]) => Object.assign(validInvoice(), { lines });
  const report = (r: ReturnType<typeof checkAsGiven>) => [...r.errors, ...r.warnings].map((i) => [i.code, formatIssuePath(i.path)]);

  it('reports an array whose length was set to the maximum as LINES_TOO_MANY, without walking it', () => {
    const lines: unknown[] = [];
    lines.length = 2 ** 32 - 1;
    for (const check of [checkAsGiven, checkInvoice]) {
      const r = check(withLines(lines));
      expect(report(r)).toEqual([['LINES_TOO_MANY', 'lines']]);
      expect(r.errors[0]?.message).toBe('lines has 4294967295 entries, more than the 100000 checkInvoice reads, so no line was checked.');
      expect(r.errors[0]?.hint).toContain('ignore LINES_TOO_MANY to read every line');
      expect(r.totals).toBeUndefined();
    }
  });

  it('reports a sparse array with a few lines and a length of millions as LINES_TOO_MANY', () => {
    const lines: unknown[] = [line(), line(), line()];
    lines.length = 10_000_000;
    expect(report(checkAsGiven(withLines(lines)))).toEqual([['LINES_TOO_MANY', 'lines']]);
    // create()'s check makes no copy of the lines either (one line that is a class instance).
    lines[1] = Object.assign(Object.create({ extra: 1 }) as Json, line());
    expect(report(checkInvoice(withLines(lines)))).toEqual([['LINES_TOO_MANY', 'lines']]);
  });

  it('does not blame the line amounts when expected totals cannot be compared because no line was read', () => {
    const lines: unknown[] = [];
    lines.length = 100_001;
    const r = checkAsGiven(withLines(lines), { expectedTotals: VALID_TOTALS });
    expect(r.errors.map((i) => i.code)).toEqual(['LINES_TOO_MANY']);
    expect(r.warnings.map((i) => [i.code, i.message])).toEqual([
      ['TOTALS_NOT_RECONCILED', 'options.expectedTotals could not be compared: no totals could be computed from the lines.'],
    ]);
  });

  it('reads up to 100,000 lines, and every line when LINES_TOO_MANY is ignored', () => {
    const atBound = Array.from({ length: 100_000 }, line);
    const ok = checkAsGiven(withLines(atBound));
    expect(ok.ok).toBe(true);
    expect(ok.totals?.subtotal).toBe('150000000.00');

    const beyond = [...atBound, line()];
    expect(report(checkAsGiven(withLines(beyond)))).toEqual([['LINES_TOO_MANY', 'lines']]);
    const all = checkAsGiven(withLines(beyond), { ignore: ['LINES_TOO_MANY'] });
    expect(all.ok).toBe(true);
    expect(all.totals?.lines).toHaveLength(100_001);
    beyond[100_000] = { ...line(), quantity: 0 };
    expect(report(checkInvoice(withLines(beyond), { ignore: ['LINES_TOO_MANY'] }))).toEqual([
      ['LINE_QUANTITY_NOT_POSITIVE', 'lines[100000].quantity'],
    ]);
  });
});
