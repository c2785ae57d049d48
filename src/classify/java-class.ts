// Java character classes and escapes, ported from Pattern.clazz()/range()/escape() (OpenJDK 17)
// including the quirks: `[]a]` starts with a literal `]`, `[` inside a class opens a nested class
// (union), `&&` intersects everything before it with everything after it, `^` negates only right
// after the `[`, and a class is only ever ASCII-case-folded under CASE_INSENSITIVE.
import * as cs from './charset.js';
import type { CharSet } from './charset.js';
import { property } from './java-property.js';
import type { ParserState } from './java-parser-state.js';
import { codePointOfName } from './java-unicode.js';

export const isAsciiAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
export const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isAsciiDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const ch = (s: string) => s.codePointAt(0)!;

const PREDEFINED: Record<string, CharSet> = {
  d: cs.DIGIT, D: cs.negate(cs.DIGIT),
  w: cs.WORD, W: cs.negate(cs.WORD),
  s: cs.SPACE, S: cs.negate(cs.SPACE),
  h: cs.HSPACE, H: cs.negate(cs.HSPACE),
  v: cs.VSPACE, V: cs.negate(cs.VSPACE),
};
const CONTROL: Record<string, number> = { a: 7, e: 0x1b, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };
const UNCLOSED_NESTED =
  'Unclosed character class (in Java an unescaped [ inside a class opens a nested class: write \\[ for a literal [)';

/** Escapes that are assertions or back references outside a class and errors inside one. */
const OUTSIDE_ONLY = 'ABGRXZbkz123456789';

export class ClassParser {
  constructor(private readonly p: ParserState) {}

  /** A literal, folded like Java's BitClass.add / single() under CASE_INSENSITIVE. */
  private folded(c: number): CharSet {
    return this.p.flags.i && c < 0x80 ? cs.asciiCaseClose(cs.single(c)) : cs.single(c);
  }

  /** Parses a class body; the cursor is just after `[` (or after `&&` when !canNegate). */
  parse(consume: boolean, canNegate = true, nested = false): CharSet {
    const p = this.p;
    let prev: CharSet | null = null;
    let curr: CharSet | null = null;
    let bits: CharSet = cs.EMPTY;
    let hasBits = false;
    let negated = false;
    const start = p.k;
    if (canNegate && p.peek() === ch('^')) { p.k++; negated = true; }
    for (;;) {
      const c = p.peek();
      if (c === -1) p.error(nested ? UNCLOSED_NESTED : 'Unclosed character class', start - 1);
      if (c === ch('[')) {
        p.k++;
        curr = this.parse(true, true, true);
        prev = prev ? cs.union(prev, curr) : curr;
        continue;
      }
      if (c === ch('&') && p.peek(1) === ch('&')) {
        p.k += 2;
        let right: CharSet | null = null;
        for (let d = p.peek(); d !== ch(']') && d !== ch('&'); d = p.peek()) {
          if (d === -1) p.error('Unclosed character class', start - 1);
          if (d === ch('[')) {
            p.k++;
            const r = this.parse(true, true, true);
            right = right ? cs.union(right, r) : r;
          } else {
            // `[a&&[b]c]`: Java 17 unions each operand after `&&` (it does not replace the first).
            const r = this.parse(false, false);
            right = right ? cs.union(right, r) : r;
          }
        }
        if (hasBits) {
          if (prev === null) prev = curr = bits;
          else prev = cs.union(prev, bits);
          hasBits = false;
        }
        if (right !== null) curr = right;
        if (prev === null) {
          if (right === null) p.error('Bad class syntax');
          prev = right;
        } else if (curr === null) {
          p.warn('regex.unsupported', 'an empty right-hand side of "&&" makes Java throw at match time', p.k);
        } else prev = cs.intersect(prev, curr);
        continue;
      }
      if (c === ch(']') && (prev !== null || hasBits)) {
        if (consume) p.k++;
        const result = prev === null ? bits : hasBits ? cs.union(prev, bits) : prev;
        return negated ? cs.negate(result) : result;
      }
      const item = this.rangeItem();
      if (item.bits) { bits = cs.union(bits, item.set); hasBits = true; curr = null; }
      else { curr = item.set; prev = prev ? cs.union(prev, curr) : curr; }
    }
  }

  /** One class item. `bits`: Java put it into its BitClass (a char < 256), which matters to `&&`. */
  private rangeItem(): { set: CharSet; bits: boolean } {
    const p = this.p;
    let c = p.peek();
    if (c === ch('\\')) {
      p.k++;
      const r = this.escape(true, p.peek(1) === ch('-'));
      if (typeof r !== 'number') return { set: r, bits: false };
      c = r;
    } else p.k++;
    if (p.peek() === ch('-')) {
      const end = p.peek(1);
      if (end !== ch('[') && end !== ch(']')) {
        const dash = p.k;
        p.k++;
        let m = p.peek();
        if (m === ch('\\')) {
          p.k++;
          const r = this.escape(true, true);
          m = typeof r === 'number' ? r : -1;
        } else p.k++;
        if (m < c) p.error('Illegal character range', dash);
        const set = cs.range(c, m);
        return { set: p.flags.i ? cs.asciiCaseClose(set) : set, bits: false };
      }
    }
    return { set: this.folded(c), bits: c < 256 };
  }

  /**
   * An escape after the backslash: a code point (a literal) or a set (a predefined class).
   * Assertions and back references outside classes are handled by the caller before this.
   */
  escape(inClass: boolean, isRange: boolean): number | CharSet {
    const p = this.p;
    const k = p.k - 1;
    const c = p.peek();
    if (c === -1) p.error('Unexpected internal error (trailing backslash: escape it as \\\\)', k);
    p.k++;
    const l = String.fromCodePoint(c);
    if (l === '0') return this.octal(k);
    if (OUTSIDE_ONLY.includes(l)) {
      if (inClass) p.error(`Illegal/unsupported escape sequence (\\${l} is not allowed inside a character class)`, k);
    }
    if (l === 'v' && isRange) return 0x0b;
    if (PREDEFINED[l]) return PREDEFINED[l]!;
    if (CONTROL[l] !== undefined) return CONTROL[l]!;
    if (l === 'p' || l === 'P') return property(p, l === 'P', k);
    if (l === 'c') {
      if (p.peek() === -1) p.error('Illegal control escape sequence', k);
      return p.src.cps[p.k++]! ^ 64;
    }
    if (l === 'x') return this.hex(k);
    if (l === 'u') return this.unicode(k);
    if (l === 'N') return this.named(k);
    if (isAsciiAlpha(c)) p.error('Illegal/unsupported escape sequence', k);
    return c;
  }

  /** \N{name}: Character.codePointOf(name) in Java 17 (trimmed, any case), else Java's error. */
  private named(k: number): number {
    const p = this.p;
    if (p.peek() !== ch('{')) p.error('Illegal character name escape sequence', k);
    p.k++;
    const start = p.k;
    while (p.peek() !== ch('}')) {
      if (p.peek() === -1) p.error('Unclosed character name escape sequence', k);
      p.k++;
    }
    // The name is the raw text up to the `}` (in comments mode Java skips whitespace only to find it).
    const name = String.fromCodePoint(...p.src.cps.slice(start, p.k));
    p.k++;
    return codePointOfName(name) ?? p.error(
      `Unknown character name [${name}]: Java 17 has no character of that name (names are Unicode 13's, e.g. \\N{LATIN SMALL LETTER E WITH ACUTE})`,
      k,
    );
  }

  private octal(k: number): number {
    const p = this.p;
    const isOct = (c: number) => c >= 0x30 && c <= 0x37;
    const n = p.peek();
    if (!isOct(n)) p.error('Illegal octal escape sequence', k);
    p.k++;
    if (!isOct(p.peek())) return n - 0x30;
    const m = p.peek();
    p.k++;
    if (isOct(p.peek()) && n <= 0x33) {
      const o = p.peek();
      p.k++;
      return (n - 0x30) * 64 + (m - 0x30) * 8 + (o - 0x30);
    }
    return (n - 0x30) * 8 + (m - 0x30);
  }

  private hex(k: number): number {
    const p = this.p;
    if (isHex(p.peek()) && isHex(p.peek(1))) {
      const v = parseInt(String.fromCodePoint(p.peek(), p.peek(1)), 16);
      p.k += 2;
      return v;
    }
    if (p.peek() === ch('{')) {
      p.k++;
      let digits = '';
      while (isHex(p.peek())) { digits += String.fromCodePoint(p.peek()); p.k++; }
      if (digits === '' || p.peek() !== ch('}')) p.error('Unclosed hexadecimal escape sequence', k);
      p.k++;
      const v = parseInt(digits, 16);
      if (v > cs.MAX_CP) p.error('Hexadecimal codepoint is too big', k);
      return v;
    }
    return p.error('Illegal hexadecimal escape sequence', k);
  }

  private uxxxx(k: number): number {
    const p = this.p;
    let digits = '';
    for (let j = 0; j < 4; j++) {
      if (!isHex(p.peek())) p.error('Illegal Unicode escape sequence', k);
      digits += String.fromCodePoint(p.peek());
      p.k++;
    }
    return parseInt(digits, 16);
  }

  private unicode(k: number): number {
    const p = this.p;
    const n = this.uxxxx(k);
    // Java joins an escaped surrogate pair (\uD83D\uDE00) into one code point.
    if (n >= 0xd800 && n <= 0xdbff && p.peek() === ch('\\') && p.peek(1) === ch('u')) {
      const save = p.k;
      p.k += 2;
      try {
        const m = this.uxxxx(k);
        if (m >= 0xdc00 && m <= 0xdfff) return (n - 0xd800) * 0x400 + (m - 0xdc00) + 0x10000;
      } catch { /* not a pair: Java rewinds */ }
      p.k = save;
    }
    return n;
  }
}
