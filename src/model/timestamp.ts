const EPOCH_DIGITS = /^\s*\d+(?:\.\d+)?\s*$/;

/** Epoch milliseconds of a timestamp written as a number or digits; `NaN` otherwise. */
export function epochMs(value: unknown): number {
  // A `-` never matches: dates (`2026-…`) skip the pattern.
  const n = typeof value === 'string' && value.charCodeAt(4) !== 45 && EPOCH_DIGITS.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? (n < 1e11 ? n * 1000 : n) : Number.NaN;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** `new Date(ms).toISOString()` without building a `Date` for the common range. */
export function isoDateTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > 253_402_300_799_999) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  const rest = ms - days * 86_400_000;
  // Days since 1970-01-01 to a civil date (proleptic Gregorian), counting eras of 400 years from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  const minutes = Math.floor(rest / 60_000) % 60;
  const seconds = Math.floor(rest / 1000) % 60;
  const millis = rest % 1000;
  const ms3 = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : `${millis}`;
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${ms3}Z`;
}
