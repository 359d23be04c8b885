/**
 * JSON from the network, parsed without the keys that reach an object's prototype: a body such as
 * `{"__proto__": {"isAdmin": true}}` or `{"constructor": {"prototype": …}}` must never become a
 * prototype when the SDK or the caller copies it (`Object.assign`, a merge helper). Those keys are
 * dropped at every depth; everything else is kept as sent.
 */

// Only bodies that spell one of the keys pay for the reviver.
const SUSPECT = /"(?:__proto__|constructor)"/;

function dropPrototypeKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' ? undefined : value;
}

/**
 * `JSON.parse` without `__proto__` or `constructor` keys at any depth. Throws a `SyntaxError` on
 * text that is not JSON, as `JSON.parse` does.
 * @example parseJsonSafely('{"__proto__":{"polluted":true},"id":"inv_1"}'); // { id: 'inv_1' }
 */
export function parseJsonSafely(text: string): unknown {
  return SUSPECT.test(text) ? JSON.parse(text, dropPrototypeKeys) : JSON.parse(text);
}

/** A response body as the SDK keeps it. */
export function parseBodySafely(text: string): unknown {
  try {
    return parseJsonSafely(text);
  } catch {
    // Blank text never parses, so this is the only place it needs telling apart.
    return text.trim() === '' ? undefined : text;
  }
}
