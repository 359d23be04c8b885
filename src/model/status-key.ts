/**
 * How status spellings are compared, in one place: `normalizeStatus` (status.ts) matches the documented statuses with
 * it, and `waitFor` matches `until` with it, also for the statuses after `SUBMITTED`, whose spelling the service does
 * not publish either.
 */

/** Lower-cases and drops spaces, `-` and `_`: `Draft`, `DRAFT`, ` draft ` and `dr-aft` match. */
export function foldStatus(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, '');
}
