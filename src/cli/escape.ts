// Outside text is printed with control characters made visible: a server must not paint a fake line on a terminal.
// C0, DEL, C1, and the characters that reorder or break a line (bidi controls, line/paragraph separators).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character written as a visible escape (`\x1b`, `\u202e`). */
export function printable(text: string): string {
  return text.replace(UNSAFE, visible);
}

// What JSON.stringify leaves raw inside strings although a terminal acts on it.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with those characters escaped as `\uXXXX`: it parses to the same values. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
