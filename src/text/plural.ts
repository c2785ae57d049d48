// Counted nouns in messages and headings ("1 warning", "3 changes"), spelled one way everywhere.

/** "1 warning", "2 warnings": regular English plurals only. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
