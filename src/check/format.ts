/** How values are shown inside issue messages. */

/** What a getter, proxy trap or iterator threw, for a message: `Error: boom`. */
export function describeThrown(err: unknown): string {
  try {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return typeof err === 'string' ? err : 'a non-Error value was thrown';
  } catch {
    return 'a value was thrown';
  }
}

/** A short, safe rendering of any value for a message (strings quoted and cut). */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  if (typeof value !== 'object') return String(value);
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return `an array of ${value.length}`;
    if (value instanceof Date) return 'a Date object';
  } catch {
    // A revoked proxy, or a getPrototypeOf trap that throws: still an object.
  }
  return 'an object';
}

/** A value with its type said once: `a string "abc"`, `the number 5`. */
export function showTyped(value: unknown): string {
  const type = typeof value;
  if (type === 'string') return `a string ${showValue(value)}`;
  return type === 'number' || type === 'boolean' ? `the ${type} ${showValue(value)}` : showValue(value);
}
