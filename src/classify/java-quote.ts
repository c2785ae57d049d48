// Java removes \Q...\E before parsing (Pattern.RemoveQEQuoting): everything quoted becomes an
// escaped literal, also inside character classes. We do the same so quoted text is parsed exactly
// as Java parses it, keeping a map back to the user's original offsets for error messages.

export interface Source {
  /** Code points after \Q..\E removal. */
  cps: number[];
  /** For each code point, its UTF-16 offset in the original pattern. */
  pos: number[];
  /** Original length (the offset reported for "at the end"). */
  end: number;
}

const isAsciiAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;
const BACKSLASH = 0x5c;

export function removeQuoting(pattern: string): Source {
  const cps: number[] = [];
  const pos: number[] = [];
  const n = pattern.length;
  let inQuote = false;
  for (let at = 0; at < n; ) {
    const cp = pattern.codePointAt(at)!;
    const nextAt = at + (cp > 0xffff ? 2 : 1);
    const nextCp = nextAt < n ? pattern.codePointAt(nextAt)! : -1;
    const afterNext = nextAt + (nextCp > 0xffff ? 2 : 1);
    if (!inQuote) {
      if (cp === BACKSLASH && nextCp === 0x51 /* Q */) { inQuote = true; at = afterNext; continue; }
      cps.push(cp); pos.push(at);
      if (cp === BACKSLASH && nextCp !== -1) { cps.push(nextCp); pos.push(nextAt); at = afterNext; }
      else at = nextAt;
      continue;
    }
    if (cp === BACKSLASH && nextCp === 0x45 /* E */) { inQuote = false; at = afterNext; continue; }
    if (cp > 0x7f || isAsciiAlpha(cp)) { cps.push(cp); pos.push(at); }
    else if (isAsciiDigit(cp)) {
      // \x3N rather than a bare digit, which could extend a preceding back reference (\1 + "0").
      cps.push(BACKSLASH, 0x78, 0x33, cp); pos.push(at, at, at, at);
    } else { cps.push(BACKSLASH, cp); pos.push(at, at); }
    at = nextAt;
  }
  return { cps, pos, end: n };
}
