// "Did you mean" suggestions by edit distance, for unknown keys, enum values and names.

/** Levenshtein distance with an early exit once it exceeds `max`. */
function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidates (case-insensitive), within a distance that scales with the word's length. */
export function suggest(word: string, candidates: readonly string[], limit = 1): string[] {
  const w = word.toLowerCase();
  const max = Math.max(1, Math.min(3, Math.floor(w.length / 3)));
  return candidates
    .map((c) => ({ c, d: editDistance(w, c.toLowerCase(), max) }))
    .filter((x) => x.d <= max)
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
    .slice(0, limit)
    .map((x) => x.c);
}

/** " Did you mean `x`?" or "" */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const [best] = suggest(word, candidates);
  return best !== undefined ? ` Did you mean \`${best}\`?` : '';
}
