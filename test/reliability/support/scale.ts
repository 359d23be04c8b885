/**
 * How big a run is. The default suite runs CI-sized campaigns; `npm run test:faults` and
 * `npm run test:fuzz` set `RELIABILITY_FULL=1` for the large ones, and any count can be set on its
 * own (`RELIABILITY_SCHEDULES=5000`).
 */

/** True for the large campaigns (`RELIABILITY_FULL=1`). */
export const FULL = process.env.RELIABILITY_FULL === '1';

/**
 * The count called `name`: `RELIABILITY_<NAME>` when set, else `full` in a full run and `ci`
 * otherwise.
 */
export function scaled(name: string, ci: number, full: number): number {
  const raw = process.env[`RELIABILITY_${name.toUpperCase()}`];
  if (raw !== undefined && raw.trim() !== '') {
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`RELIABILITY_${name.toUpperCase()} must be a positive integer, got ${raw}`);
    return value;
  }
  return FULL ? full : ci;
}

/** The seed of a property run: `RELIABILITY_SEED` to replay one, else a fresh one (printed on failure by fast-check). */
export function seed(): number | undefined {
  const raw = process.env.RELIABILITY_SEED;
  return raw === undefined || raw.trim() === '' ? undefined : Number(raw);
}

/**
 * Prints a campaign's figures: always in a full run, else only with `RELIABILITY_REPORT=1`, so the
 * default suite stays quiet.
 */
export function report(title: string, figures: Record<string, unknown>): void {
  if (!FULL && process.env.RELIABILITY_REPORT !== '1') return;
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  const lines = Object.entries(figures).map(([k, v]) => `  ${k.padEnd(width)}  ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  process.stdout.write(`\n[reliability] ${title}\n${lines.join('\n')}\n`);
}
