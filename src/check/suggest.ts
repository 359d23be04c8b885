/** "Did you mean": the closest known name to a misspelt one. */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-sensitive. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Three rows of the table: two rows back (for transpositions), the previous one and the current one.
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (prev2[j - 2] as number) + 1);
      cur.push(best);
    }
    [prev2, prev] = [prev, cur];
  }
  return prev[b.length] as number;
}

/** The best match for `name`: an alias, a case-insensitive match, then the nearest by edit distance. */
export function didYouMean(
  name: string, candidates: readonly string[], aliases: Readonly<Record<string, string>> = {},
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
