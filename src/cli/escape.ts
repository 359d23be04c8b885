/**
 * Text from outside (the service's messages, statuses and ids; file names and the values in
 * files) is printed with its control characters made visible, so that it cannot move the cursor,
 * recolour or clear the screen, or reorder a line: a server must not be able to paint a fake
 * "Accepted" line on the user's terminal or in a CI log.
 */

// C0 (line breaks and tabs too: one value, one line), DEL, C1, and the characters that reorder or
// break a line: bidi embeddings, overrides and isolates, directional marks, line and paragraph
// separators.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character written as a visible escape (`\x1b`, `\u202e`). */
export function printable(text: string): string {
  return text.replace(UNSAFE, visible);
}

// What JSON.stringify leaves raw inside strings although a terminal acts on it: C1 and the
// reordering characters (C0 it already escapes).
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the characters above escaped as `\uXXXX`: they only occur inside strings, so the
 * document parses to the same values, and printing it to a terminal is safe.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
