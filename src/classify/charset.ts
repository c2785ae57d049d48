// Sets of Unicode code points. Java character classes (union, intersection `&&`, negation,
// ASCII-only case folding) are computed exactly here and emitted as one explicit JS class, so no JS
// class semantics (\s, \w, `i`) leak in.
//
// Representation (an invariant every function keeps and relies on): the inclusive ranges of the set,
// sorted, disjoint and never adjacent, flattened into one array `[lo0, hi0, lo1, hi1, ...]`. The
// form is canonical (one set, one array content), so merges are linear scans and the emitted JS
// class depends only on the set. Sets are immutable once built and are shared freely (the folded
// ASCII letters, `.`, `\d` ... exist once), which is also what makes the emitted-class memo work.

export type CharSet = readonly number[];

export const MAX_CP = 0x10ffff;
export const EMPTY: CharSet = [];
export const ANY: CharSet = [0, MAX_CP];

export function single(cp: number): CharSet {
  return cp < 0x80 ? SINGLE[cp]! : [cp, cp];
}

export function range(lo: number, hi: number): CharSet {
  return lo === hi ? single(lo) : [lo, hi];
}

export function ofChars(chars: string): CharSet {
  let out = EMPTY;
  for (const c of chars) out = union2(out, single(c.codePointAt(0)!));
  return out;
}

/** Appends [lo, hi] to a canonical array whose ranges all start at or before lo. */
function append(out: number[], lo: number, hi: number): void {
  const n = out.length;
  if (n > 0 && lo <= out[n - 1]! + 1) {
    if (hi > out[n - 1]!) out[n - 1] = hi;
  } else out.push(lo, hi);
}

function union2(a: CharSet, b: CharSet): CharSet {
  if (a.length === 0 || a === b) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! <= b[j]!) { append(out, a[i]!, a[i + 1]!); i += 2; }
    else { append(out, b[j]!, b[j + 1]!); j += 2; }
  }
  for (; i < a.length; i += 2) append(out, a[i]!, a[i + 1]!);
  for (; j < b.length; j += 2) append(out, b[j]!, b[j + 1]!);
  return out;
}

export function union(...sets: CharSet[]): CharSet {
  let out = EMPTY;
  for (const s of sets) out = union2(out, s);
  return out;
}

export function negate(set: CharSet): CharSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  // Pieces come out sorted; two of them cannot be adjacent, as both inputs would then hold the
  // two neighbouring code points in one range each, making them one piece.
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

export function contains(set: CharSet, cp: number): boolean {
  for (let i = 0; i < set.length && set[i]! <= cp; i += 2) if (cp <= set[i + 1]!) return true;
  return false;
}

export function overlaps(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

/** The parts of `set` inside [lo, hi], shifted by `by`, appended to `out` (kept canonical). */
function shiftedPart(set: CharSet, o: { lo: number; hi: number; by: number }, out: number[]): void {
  for (let i = 0; i < set.length && set[i]! <= o.hi; i += 2) {
    const lo = Math.max(set[i]!, o.lo);
    const hi = Math.min(set[i + 1]!, o.hi);
    if (lo <= hi) out.push(lo + o.by, hi + o.by);
  }
}

/**
 * Java CASE_INSENSITIVE without UNICODE_CASE: a range/char also matches the ASCII letters whose
 * other case falls inside it (Pattern.CIRange / SingleI). Non-ASCII is never folded.
 */
export function asciiCaseClose(set: CharSet): CharSet {
  if (set.length === 2 && set[0] === set[1] && set[0]! < 0x80) return FOLDED[set[0]!]!;
  if (!overlaps(set, LETTERS)) return set;
  // Upper case letters of the lower case ones, then the other way round: [A-Z] pieces all come
  // before [a-z] pieces and none are adjacent, so `extra` is canonical as built.
  const extra: number[] = [];
  shiftedPart(set, { lo: 0x61, hi: 0x7a, by: -0x20 }, extra);
  shiftedPart(set, { lo: 0x41, hi: 0x5a, by: 0x20 }, extra);
  return union2(set, extra);
}

function escapeCp(cp: number): string {
  if (cp < 0x80) return ESCAPED[cp]!;
  return escapeSlow(cp);
}

function escapeSlow(cp: number): string {
  if (cp >= 0x30 && cp <= 0x39) return String.fromCodePoint(cp);
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCodePoint(cp);
  // A surrogate as \u{d83d}: two \uXXXX escapes in a row would be read by JS as one pair (one
  // supplementary code point), while Java's \x{D83D}\x{DE00} are two lone surrogates.
  if (cp >= 0xd800 && cp <= 0xdfff) return `\\u{${cp.toString(16)}}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

// Emitted classes of sets that are shared (folded letters, `.`, `\d`...) are computed once.
const jsClasses = new WeakMap<CharSet, string>();

/** A JS class (for a regex compiled with the `u` flag) matching exactly `set`. */
export function toJsClass(set: CharSet): string {
  let s = jsClasses.get(set);
  if (s === undefined) {
    s = jsClass(set);
    jsClasses.set(set, s);
  }
  return s;
}

function jsClass(set: CharSet): string {
  if (set.length === 2 && set[0] === set[1]) return escapeCp(set[0]!);
  if (set.length === 0) return '[]';
  if (set.length === 2 && set[0] === 0 && set[1] === MAX_CP) return '[\\s\\S]';
  let out = '[';
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i]!;
    const hi = set[i + 1]!;
    if (lo === hi) out += escapeCp(lo);
    else if (hi === lo + 1) out += escapeCp(lo) + escapeCp(hi);
    else out += `${escapeCp(lo)}-${escapeCp(hi)}`;
  }
  return `${out}]`;
}

// Shared sets for every ASCII code point, alone and ASCII-case-folded (a literal `a` under
// CASE_INSENSITIVE is {A, a}); built once so a pattern's literals allocate nothing.
const ESCAPED: readonly string[] = Array.from({ length: 0x80 }, (_, cp) => escapeSlow(cp));
const SINGLE: readonly CharSet[] = Array.from({ length: 0x80 }, (_, cp) => [cp, cp]);
const LETTERS: CharSet = [0x41, 0x5a, 0x61, 0x7a];
const FOLDED: readonly CharSet[] = Array.from({ length: 0x80 }, (_, cp) => {
  if (cp >= 0x41 && cp <= 0x5a) return [cp, cp, cp + 0x20, cp + 0x20];
  if (cp >= 0x61 && cp <= 0x7a) return [cp - 0x20, cp - 0x20, cp, cp];
  return SINGLE[cp]!;
});

// Java's predefined classes without UNICODE_CHARACTER_CLASS: ASCII only.
export const DIGIT = range(0x30, 0x39);
export const WORD = union(range(0x30, 0x39), range(0x41, 0x5a), range(0x61, 0x7a), single(0x5f));
export const SPACE = union(single(0x20), range(0x09, 0x0d)); // [ \t\n\x0B\f\r]
export const HSPACE = union(
  ofChars(' \t\u00a0\u1680\u180e\u202f\u205f\u3000'),
  range(0x2000, 0x200a),
);
export const VSPACE = union(range(0x0a, 0x0d), ofChars('\u0085\u2028\u2029'));
/** Java `.` without DOTALL: anything but a line terminator. */
export const DOT = negate(union(ofChars('\n\r\u0085\u2028\u2029')));
