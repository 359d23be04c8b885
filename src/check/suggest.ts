/** "Did you mean": the closest known name to a misspelt one. */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-sensitive. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (prev2[j - 2] as number) + 1);
      }
      cur[j] = best;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m] as number;
}

/** The best match for `name`: an alias, a case-insensitive match, then the nearest by edit distance. */
export function didYouMean(
  name: string,
  candidates: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  const lower = name.toLowerCase();
  // Own properties only: `constructor` or `__proto__` must not find Object.prototype's.
  if (Object.hasOwn(aliases, lower)) return aliases[lower];
  for (const c of candidates) if (c.toLowerCase() === lower) return c;
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
