/**
 * How the CLI writes numbers, in one place: every count, total and duration goes through
 * {@link formatNumber}, so one run never prints "2000" in one line and "2,000" in the next.
 */

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const FIXED = new Map<number, Intl.NumberFormat>();

/**
 * A number with thousands separators (`2,000`), and with `fractionDigits` exactly that many
 * decimals (`1,234.50`).
 */
export function formatNumber(n: number, fractionDigits = 0): string {
  if (fractionDigits === 0) return WHOLE.format(n);
  let f = FIXED.get(fractionDigits);
  if (f === undefined) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    FIXED.set(fractionDigits, f);
  }
  return f.format(n);
}

/** `3 errors`, `1 warning`, `2,000 invoices`. */
export function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** A duration in seconds: `0.25 s`, `1,234.5 s`. */
export function formatSeconds(ms: number, fractionDigits = 2): string {
  return `${formatNumber(ms / 1000, fractionDigits)} s`;
}
