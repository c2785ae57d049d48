// One copy of each repeated string. A big config repeats the same few values thousands of times
// (a parser's status and target_type, a category, the same regex across one operator's actions),
// and neither js-yaml nor JSON.parse shares them: a big config's copies were a large part of
// the heap. A pool lives as long as one read (a config load, a live read), so
// its map never outlives the values it dedupes.

/** Longer strings are left alone: one is rarely repeated, and hashing it costs more than it saves. */
const MAX_POOLED = 1_000;

export class StringPool {
  private readonly seen = new Map<string, string>();

  /**
   * The pool's copy of `s`. The first time, `keep(s)` is what the pool keeps and returns (e.g. a
   * copy of its own, when `s` is a slice of a bigger string that should not stay alive).
   */
  get(s: string, keep: (s: string) => string = (x) => x): string {
    if (s.length > MAX_POOLED) return keep(s);
    const known = this.seen.get(s);
    if (known !== undefined) return known;
    const kept = keep(s);
    this.seen.set(kept, kept);
    return kept;
  }

  /** Replaces each string-valued `keys` of `obj` by the pool's copy. */
  fields<T extends object>(obj: T, keys: readonly (keyof T & string)[]): T {
    const o = obj as Record<string, unknown>;
    for (const k of keys) {
      const v = o[k];
      if (typeof v === 'string') o[k] = this.get(v);
    }
    return obj;
  }
}

/**
 * The string in memory of its own. A YAML reader slices every scalar out of its copy of the whole
 * text, and V8 keeps a slice's parent alive: every regex kept in the model would hold a copy of
 * the file. V8 copies strings shorter than 13 characters instead of
 * slicing them, so those are left alone; a longer one is copied through a buffer, code unit for
 * code unit (UTF-16, so a lone surrogate from a YAML escape survives), into a flat string of its
 * own. (Concatenating and slicing again, as before, kept a slice over a copy one character
 * longer.)
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/**
 * A string as one flat piece of memory. A template literal or `+` makes a rope (a tree of the
 * parts, a node per part, every part kept alive); `join` writes one sequential string. For strings
 * kept by the hundred thousand, such as addresses.
 */
export const flat = (...parts: string[]): string => parts.join('');
