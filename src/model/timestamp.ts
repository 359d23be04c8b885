const EPOCH_DIGITS = /^\s*\d+(?:\.\d+)?\s*$/;

/**
 * Epoch milliseconds of a timestamp written as a number or as digits (`1767225600`,
 * `"1767225600000"`), which `new Date()` cannot read as such; `NaN` for anything else. Epoch seconds
 * and epoch milliseconds are both in use; seconds stay below 1e11 until the year 5138. The one rule
 * for the record reader (field-map.ts) and `recoveryState` (filing/status.ts). Not exported by the
 * package.
 */
export function epochMs(value: unknown): number {
  const n = typeof value === 'string' && EPOCH_DIGITS.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? (n < 1e11 ? n * 1000 : n) : Number.NaN;
}
