/** How status spellings are compared, in one place. */

/** Lower-cases and drops spaces, `-` and `_`: `Draft`, `DRAFT`, ` draft ` and `dr-aft` match. */
export function foldStatus(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, '');
}
