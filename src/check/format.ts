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
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n (a BigInt)`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      if (value === null) return 'null';
      try {
        if (Array.isArray(value)) return `an array of ${value.length}`;
        if (value instanceof Date) return `a Date object`;
      } catch {
        // A revoked proxy, or a getPrototypeOf trap that throws: still an object.
      }
      return 'an object';
  }
}

/** A value with its type said once: `a string "abc"`, `the number 5`. */
export function showTyped(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `a string ${showValue(value)}`;
    case 'number':
      return `the number ${showValue(value)}`;
    case 'boolean':
      return `the boolean ${showValue(value)}`;
    default:
      return showValue(value);
  }
}

