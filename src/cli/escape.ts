// Outside text is printed with control characters made visible: a server must not paint a fake line on a terminal.
// C0, DEL, C1, and the characters that reorder or break a line (bidi controls, line/paragraph separators).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, digits: number): string => c.charCodeAt(0).toString(16).padStart(digits, '0');

export const printable = (text: string): string =>
  text.replace(UNSAFE, (c) => (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));

// What JSON.stringify leaves raw inside strings although a terminal acts on it.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with those characters escaped as `\uXXXX`: it parses to the same values. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${hex(c, 4)}`);
}
