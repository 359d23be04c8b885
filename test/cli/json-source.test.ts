import { describe, expect, it } from 'vitest';
import { arrayElementStarts, findSyntaxError, locatePath, parseSource, positionAt } from '../../src/cli/json-source.js';

describe('cli/json-source', () => {
  it('reads one invoice, an array, or NDJSON', () => {
    expect(parseSource('{"a":1}')).toMatchObject({ kind: 'single', invoices: [{ value: { a: 1 } }] });
    expect(parseSource('[{"a":1},{"a":2}]').invoices.map((i) => i.index)).toEqual([0, 1]);
    const nd = parseSource('{"a":1}\n\n{"a":2}\n');
    expect(nd.kind).toBe('ndjson');
    expect(nd.invoices.map((i) => [i.line, i.value])).toEqual([
      [1, { a: 1 }],
      [3, { a: 2 }],
    ]);
    expect(parseSource('{"a":1}', true).kind).toBe('ndjson');
  });

  it('strips a byte-order mark and reports an empty file', () => {
    expect(parseSource('\uFEFF{"a":1}').invoices[0]?.value).toEqual({ a: 1 });
    expect(parseSource('  \n').error?.message).toBe('the file is empty');
  });

  it('reports where and why JSON is broken', () => {
    expect(parseSource('{\n  "a": 1,\n}').error).toMatchObject({ line: 3, column: 1, message: 'trailing comma before "}"' });
    expect(findSyntaxError('{"a" 1}')).toMatchObject({ line: 1, column: 6 });
    expect(findSyntaxError('[1, 2')).toMatchObject({ message: expect.stringContaining('end of the input') });
    expect(findSyntaxError('{"a": "x\ny"}')?.message).toContain('line break');
    expect(findSyntaxError('{"a": 1} x')?.message).toContain('after the end');
    expect(findSyntaxError('{"a": tru}')).toMatchObject({ column: 7 });
    expect(findSyntaxError('{"a": [1, 2, {"b": null}]}')).toBeUndefined();
  });

  it('reports a broken NDJSON line by its line number without hiding the others', () => {
    const nd = parseSource('{"a":1}\n{"a":\n{"a":3}');
    expect(nd.invoices.map((i) => i.error?.line ?? i.value)).toEqual([{ a: 1 }, 2, { a: 3 }]);
  });

  it('finds the offset of a path, or of the deepest part that exists', () => {
    const text = '{\n  "buyer": {"type": "B2B"},\n  "lines": [\n    {"x": 1},\n    {"hsnCode": "6202.00", "k\\"ey": 2}\n  ]\n}';
    const at = (path: (string | number)[], atKey = false) => positionAt(text, locatePath(text, path, 0, atKey));
    expect(at(['lines', 1, 'hsnCode'])).toEqual({ line: 5, column: 17 });
    expect(at(['lines', 1, 'hsnCode'], true)).toEqual({ line: 5, column: 6 });
    expect(at(['buyer', 'tin'])).toEqual({ line: 2, column: 12 });
    expect(at(['lines', 7])).toEqual({ line: 3, column: 12 });
    expect(at(['lines', 1, 'k"ey'])).toEqual({ line: 5, column: 37 });
    expect(at([])).toEqual({ line: 1, column: 1 });
  });
});

describe('cli/json-source arrayElementStarts', () => {
  it('finds every element of an array, whatever the spacing, nesting and strings inside', () => {
    const text = '\ufeff [ {"a":"]\\",["}, 42 ,\n"x" , [1,[2]], {"b":{"c":[]}} ]';
    const starts = arrayElementStarts(text, 1);
    expect(starts.map((s) => text[s])).toEqual(['{', '4', '"', '[', '{']);
  });

  it('locates the same place from an element as from the array start', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: i, lines: [{ description: `d${i}`, n: [i, { k: 'v]' }] }] }));
    const text = JSON.stringify(items, null, 2);
    const starts = arrayElementStarts(text, 0);
    expect(starts).toHaveLength(40);
    for (let i = 0; i < 40; i += 7) {
      for (const path of [['lines', 0, 'description'], ['lines', 0, 'n', 1, 'k'], ['missing']]) {
        expect(locatePath(text, path, starts[i])).toBe(locatePath(text, [i, ...path], 0));
      }
    }
  });
});
