// What a faithful translation still cannot promise for some replies, checked per reply so that a
// parser is refused only when the reply could make the two engines disagree:
// - \b, \B: the letters, digits and non-spacing marks of the reply must be the same in Java 17's
//   Unicode tables (Unicode 13) and in this Node.js's (newer): U+0870 is a letter in one only.
// - look-behind: when the pattern text has no supplementary character, Java steps a look-behind
//   back one UTF-16 unit and can start it inside an emoji's surrogate pair; JavaScript steps by
//   code point. A reply without a surrogate pair cannot tell them apart.
import { contains, type CharSet } from './charset.js';
import { letterOrDigit, nonSpacingMarks } from './java-unicode.js';

export interface ReplyNeeds {
  /** The pattern has \b or \B. */
  wordBoundary: boolean;
  /** The pattern has a look-behind that Java runs one UTF-16 unit at a time. */
  utf16Lookbehind: boolean;
}

const NODE_LD = /^[\p{L}\p{Nd}]$/u;
const NODE_MN = /^\p{Mn}$/u;
let java: { ld: CharSet; mn: CharSet } | undefined;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why the reply cannot be evaluated faithfully with this pattern, or null. */
export function replyObstacle(needs: ReplyNeeds, text: string): string | null {
  if (!needs.wordBoundary && !needs.utf16Lookbehind) return null;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) continue;
    if (needs.utf16Lookbehind && cp > 0xffff) {
      return `the reply holds ${hex(cp)} (a surrogate pair): Java steps a look-behind back one UTF-16 unit and can start inside it, JavaScript cannot; put the character itself in the pattern to make Java step by code point`;
    }
    if (needs.wordBoundary && disagrees(cp, ch)) {
      return `the reply holds ${hex(cp)}, which Java 17 (Unicode 13) and this Node.js (Unicode ${process.versions.unicode}) classify differently, and \\b depends on it`;
    }
  }
  return null;
}

function disagrees(cp: number, ch: string): boolean {
  java ??= { ld: letterOrDigit(), mn: nonSpacingMarks() };
  return contains(java.ld, cp) !== NODE_LD.test(ch) || contains(java.mn, cp) !== NODE_MN.test(ch);
}
