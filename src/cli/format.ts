// Every count, total and duration the CLI prints goes through formatNumber, so they look alike.
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A number with thousands separators, and exactly `fractionDigits` decimals when given. */
export function formatNumber(n: number, fractionDigits = 0): string {
  if (fractionDigits === 0) return WHOLE.format(n);
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(n);
}

export const plural = (n: number, word: string): string => `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;

export const formatSeconds = (ms: number, fractionDigits = 2): string => `${formatNumber(ms / 1000, fractionDigits)} s`;
