// Network JSON without `__proto__` or `constructor` keys, so no copy of it can reach a prototype; canonical JSON text.

// Only bodies that spell one of the keys pay for the reviver.
const SUSPECT = /"(?:__proto__|constructor)"/;

export function parseJsonSafely(text: string): unknown {
  if (!SUSPECT.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' || key === 'constructor' ? undefined : value));
}

export function parseBodySafely(text: string): unknown {
  try {
    return parseJsonSafely(text);
  } catch {
    // Blank text never parses, so this is the only place it needs telling apart.
    return text.trim() === '' ? undefined : text;
  }
}

/** JSON text with keys sorted and `undefined` members left out: equal JSON gives equal text (replay checks, derived keys). */
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
