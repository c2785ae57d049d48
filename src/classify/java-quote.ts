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
  const input: { cp: number; at: number }[] = [];
  for (let at = 0; at < pattern.length; ) {
    const cp = pattern.codePointAt(at)!;
    input.push({ cp, at });
    at += cp > 0xffff ? 2 : 1;
  }
  const push = (cp: number, at: number) => { cps.push(cp); pos.push(at); };
  let inQuote = false;
  for (let k = 0; k < input.length; k++) {
    const { cp, at } = input[k]!;
    const nextCp = input[k + 1]?.cp;
    if (!inQuote) {
      if (cp === BACKSLASH && nextCp === 0x51 /* Q */) { inQuote = true; k++; continue; }
      push(cp, at);
      if (cp === BACKSLASH && nextCp !== undefined) { push(nextCp, input[k + 1]!.at); k++; }
      continue;
    }
    if (cp === BACKSLASH && nextCp === 0x45 /* E */) { inQuote = false; k++; continue; }
    if (cp > 0x7f || isAsciiAlpha(cp)) push(cp, at);
    else if (isAsciiDigit(cp)) {
      // \x3N rather than a bare digit, which could extend a preceding back reference (\1 + "0").
      for (const c of [BACKSLASH, 0x78, 0x33]) push(c, at);
      push(cp, at);
    } else { push(BACKSLASH, at); push(cp, at); }
  }
  return { cps, pos, end: pattern.length };
}
