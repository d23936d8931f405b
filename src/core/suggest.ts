/**
 * "Did you mean …?" for unknown names (commands, flags, settings keys, variables): the closest known name by edit distance (Damerau: a swapped
 * pair of letters counts once), offered only when it is close enough to be the likely intent.
 */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest candidate within a third of the word's length in edits (at least 1), or a candidate the word begins; else null. */
export function closest(word: string, candidates: Iterable<string>): string | null {
  const w = word.toLowerCase();
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  if (best !== null && bestD <= Math.max(1, Math.ceil(w.length / 3))) return best;
  const prefixed = [...candidates].filter((c) => w.length >= 3 && c.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : null;
}

/** ` Did you mean "x"?` or the empty string. */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  render: (c: string) => string = (c) => c,
): string {
  const c = closest(word, candidates);
  return c ? ` Did you mean "${render(c)}"?` : "";
}
