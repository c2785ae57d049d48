// Sets of Unicode code points as sorted, disjoint, inclusive ranges. Java character classes
// (union, intersection `&&`, negation, ASCII-only case folding) are computed exactly here and
// emitted as one explicit JS class, so no JS class semantics (\s, \w, `i`) leak in.

export type Range = readonly [number, number];
export type CharSet = readonly Range[];

export const MAX_CP = 0x10ffff;
export const EMPTY: CharSet = [];
export const ANY: CharSet = [[0, MAX_CP]];

export function single(cp: number): CharSet {
  return [[cp, cp]];
}

export function range(lo: number, hi: number): CharSet {
  return [[lo, hi]];
}

export function ofChars(chars: string): CharSet {
  return union(...[...chars].map((c) => single(c.codePointAt(0)!)));
}

function normalize(ranges: Range[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function union(...sets: CharSet[]): CharSet {
  return normalize(sets.flat() as Range[]);
}

export function negate(set: CharSet): CharSet {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  return negate(union(negate(a), negate(b)));
}

export function contains(set: CharSet, cp: number): boolean {
  return set.some(([lo, hi]) => cp >= lo && cp <= hi);
}

export function overlaps(a: CharSet, b: CharSet): boolean {
  return intersect(a, b).length > 0;
}

export function isEmpty(set: CharSet): boolean {
  return set.length === 0;
}

/**
 * Java CASE_INSENSITIVE without UNICODE_CASE: a range/char also matches the ASCII letters whose
 * other case falls inside it (Pattern.CIRange / SingleI). Non-ASCII is never folded.
 */
export function asciiCaseClose(set: CharSet): CharSet {
  const extra: Range[] = [];
  for (let c = 0x41; c <= 0x5a; c++) {
    if (contains(set, c + 0x20)) extra.push([c, c]);
    if (contains(set, c)) extra.push([c + 0x20, c + 0x20]);
  }
  return union(set, extra);
}

export function escapeCp(cp: number): string {
  if (cp >= 0x30 && cp <= 0x39) return String.fromCodePoint(cp);
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCodePoint(cp);
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** A JS class (for a regex compiled with the `u` flag) matching exactly `set`. */
export function toJsClass(set: CharSet): string {
  if (set.length === 1 && set[0]![0] === set[0]![1]) return escapeCp(set[0]![0]);
  if (set.length === 0) return '[]';
  if (set.length === 1 && set[0]![0] === 0 && set[0]![1] === MAX_CP) return '[\\s\\S]';
  const parts = set.map(([lo, hi]) =>
    lo === hi ? escapeCp(lo) : hi === lo + 1 ? escapeCp(lo) + escapeCp(hi) : `${escapeCp(lo)}-${escapeCp(hi)}`,
  );
  return `[${parts.join('')}]`;
}

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
