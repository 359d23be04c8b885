/**
 * A stable text of a JSON value: object keys sorted, `undefined` members left out, so two values
 * that mean the same JSON give the same text whatever order their keys were written in. The
 * sandbox uses it to tell a replayed create body from a different one; `fileMany` derives an
 * invoice's default idempotency key from it.
 * @example canonicalJson({ b: 1, a: [true, { d: undefined, c: 'x' }] }); // '{"a":[true,{"c":"x"}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
