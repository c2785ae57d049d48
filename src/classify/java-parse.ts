// A parser that follows java.util.regex.Pattern (OpenJDK 17) step by step: the same grammar, the
// same quirks (a `{` with no atom before it repeats nothing; `]` and `}` alone are literals; `[`
// inside a class opens a nested class), and the same errors, so "does it compile on the device"
// is answered here without a JVM. Flags start as the device's: CASE_INSENSITIVE only.
import * as cs from './charset.js';
import { JavaSyntaxError, type AssertKind, type GroupKind, type Node, type ParsedPattern, type Unfaithful } from './java-ast.js';
import { removeQuoting, type Source } from './java-quote.js';
import { ClassParser, isAsciiAlpha, isAsciiDigit } from './java-class.js';
import type { ParserState } from './java-parser-state.js';
import { checkLookbehind } from './java-lookbehind.js';

export interface Flags { i: boolean; s: boolean; m: boolean; x: boolean }

const MAX_REPS = 0x7fffffff;
const ch = (s: string) => s.codePointAt(0)!;
// The characters tested on every atom, computed once (the hot loop of the parser).
const PIPE = ch('|');
const RPAREN = ch(')');
const QMARK = ch('?');
const STAR = ch('*');
const PLUS = ch('+');
const LBRACE = ch('{');
const LINE_END = new Set([0x0a, 0x0d, 0x85, 0x2028, 0x2029]);
const ATOM = { '(': ch('('), '[': ch('['), '\\': ch('\\'), '^': ch('^'), '$': ch('$'), '.': ch('.') } as const;

export function parseJavaPattern(pattern: string): ParsedPattern {
  const p = new Parser(removeQuoting(pattern));
  return p.parse();
}

class Parser implements ParserState {
  k = 0;
  flags: Flags = { i: true, s: false, m: false, x: false };
  groupCount = 0;
  hasBackref = false;
  repeatedCapture = false;
  repeatedGroup = false;
  wordBoundary = false;
  lookbehind = false;
  utf16Lookbehind = false;
  linebreak = false;
  readonly names = new Map<string, number>();
  readonly groups: { name: string; number: number }[] = [];
  readonly unfaithful: Unfaithful[] = [];
  private readonly classes: ClassParser;

  constructor(readonly src: Source) {
    this.classes = new ClassParser(this);
  }

  peek(off = 0): number {
    // COMMENTS mode, as Java's peek(): whitespace and #-comments before the next token are passed
    // over (only when looking at the current position; Java's look-aheads read raw too).
    if (off === 0 && this.flags.x) this.skipComments();
    return this.src.cps[this.k + off] ?? -1;
  }

  private skipComments(): void {
    const cps = this.src.cps;
    for (;;) {
      const c = cps[this.k];
      if (c === 0x20 || (c !== undefined && c >= 0x09 && c <= 0x0d)) this.k++;
      else if (c === 0x23 /* # */) {
        this.k++;
        while (this.k < cps.length && !LINE_END.has(cps[this.k]!)) this.k++;
      } else return;
    }
  }

  indexAt(k = this.k): number {
    return this.src.pos[k] ?? this.src.end;
  }

  error(description: string, k = this.k, code = 'regex.syntax'): never {
    throw new JavaSyntaxError(description, this.indexAt(k), code);
  }

  warn(code: string, message: string, k = this.k): void {
    this.unfaithful.push({ code, message, index: this.indexAt(k) });
  }

  parse(): ParsedPattern {
    const root = this.expr();
    if (this.k < this.src.cps.length) {
      if (this.peek() === ch(')')) this.error("Unmatched closing ')'");
      this.error('Unexpected internal error');
    }
    return {
      root, groups: this.groups, groupCount: this.groupCount, unfaithful: this.unfaithful,
      hasBackref: this.hasBackref, repeatedCapture: this.repeatedCapture, repeatedGroup: this.repeatedGroup,
      wordBoundary: this.wordBoundary, lookbehind: this.lookbehind, linebreak: this.linebreak,
      utf16Lookbehind: this.utf16Lookbehind,
    };
  }

  private expr(): Node {
    const at = this.indexAt();
    const alts = [this.sequence()];
    while (this.peek() === PIPE) {
      this.k++;
      alts.push(this.sequence());
    }
    return alts.length === 1 ? alts[0]! : { type: 'alt', alts, at };
  }

  private sequence(): Node {
    const at = this.indexAt();
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === PIPE || c === RPAREN) break;
      const groupsBefore = this.groupCount;
      const node = this.atom(c);
      if (node) items.push(this.closure(node, groupsBefore));
    }
    if (items.length === 0) return { type: 'empty', at };
    return items.length === 1 ? items[0]! : { type: 'seq', items, at };
  }

  /** null: an inline flag group `(?i)`, which Java does not let a quantifier follow. */
  private atom(c: number): Node | null {
    const k = this.k;
    const at = this.indexAt();
    switch (c) {
      case ATOM['(']:
        return this.group();
      case ATOM['[']:
        this.k++;
        return { type: 'set', set: this.classes.parse(true), at };
      case ATOM['\\']:
        return this.escapeAtom();
      case ATOM['^']:
        this.k++;
        return this.assertion(this.flags.m ? 'mcaret' : 'begin', at);
      case ATOM['$']:
        this.k++;
        return this.assertion(this.flags.m ? 'mdollar' : 'dollar', at);
      case ATOM['.']:
        this.k++;
        return { type: 'set', set: this.flags.s ? cs.ANY : cs.DOT, at, dot: true };
      case QMARK: case STAR: case PLUS:
        this.error(`Dangling meta character '${String.fromCodePoint(c)}'`, k);
      case LBRACE:
        // Java's atom() returns an empty slice here; closure() then parses (or rejects) the `{`.
        return { type: 'empty', at };
      default:
        this.k++;
        return this.literal(c, at);
    }
  }

  literal(c: number, at: number): Node {
    const set = this.flags.i && isAsciiAlpha(c) ? cs.asciiCaseClose(cs.single(c)) : cs.single(c);
    return { type: 'set', set, at, literal: c };
  }

  private assertion(kind: AssertKind, at: number): Node {
    return { type: 'assert', kind, at };
  }

  private escapeAtom(): Node {
    const k = this.k;
    const at = this.indexAt();
    this.k++; // the backslash
    const c = this.peek();
    if (c === -1) this.error('Unexpected internal error (trailing backslash: escape it as \\\\)', k);
    const letter = String.fromCodePoint(c);
    const simple: Record<string, AssertKind> = { A: 'begin', G: 'begin', z: 'end', Z: 'dollar', B: 'nonwordb' };
    if (simple[letter]) {
      this.k++;
      if (letter === 'B') this.wordBoundary = true;
      return this.assertion(simple[letter]!, at);
    }
    if (letter === 'b') {
      this.k++;
      // Java's escape(): only `\b{g}` is a boundary form; `\b{` + anything else but `g` is a
      // plain \b followed by a counted repetition (`\b{2}`, or "Illegal repetition" for `\b{w}`).
      if (this.peek() === ch('{') && this.peek(1) === ch('g')) {
        if (this.peek(2) !== ch('}')) this.error('Illegal/unsupported escape sequence', k);
        this.k += 3;
        this.warn('regex.unsupported', '\\b{g} (grapheme cluster boundary) cannot be evaluated faithfully', k);
        return this.assertion('grapheme', at);
      }
      this.wordBoundary = true;
      return this.assertion('wordb', at);
    }
    if (letter === 'R') { this.k++; this.linebreak = true; return { type: 'linebreak', at }; }
    if (letter === 'X') {
      this.k++;
      this.warn('regex.unsupported', '\\X (grapheme cluster) cannot be evaluated faithfully', k);
      return { type: 'set', set: cs.ANY, at };
    }
    if (letter === 'k') return this.namedBackref(k, at);
    if (c >= ch('1') && c <= ch('9')) return this.numberedBackref(at);
    const cls = this.classes.escape(false, false);
    if (typeof cls === 'number') return this.literal(cls, at);
    return { type: 'set', set: cls, at };
  }

  private numberedBackref(at: number): Node {
    let ref = this.peek() - ch('0');
    this.k++;
    // Java takes more digits only while the number names an existing group.
    while (isAsciiDigit(this.peek())) {
      const next = ref * 10 + (this.peek() - ch('0'));
      if (next > this.groupCount) break;
      ref = next;
      this.k++;
    }
    this.hasBackref = true;
    return { type: 'backref', group: ref, ci: this.flags.i, at };
  }

  private namedBackref(k: number, at: number): Node {
    this.k++; // k
    if (this.peek() !== ch('<')) this.error("\\k is not followed by '<' for named capturing group", k);
    this.k++;
    const name = this.groupName();
    const number = this.names.get(name);
    if (number === undefined) this.error(`named capturing group <${name}> does not exist`, k);
    this.hasBackref = true;
    return { type: 'backref', group: number, ci: this.flags.i, at, name };
  }

  /** Reads `name>`; Java allows [a-zA-Z][a-zA-Z0-9]* only. */
  private groupName(): string {
    const start = this.k;
    let name = '';
    while (isAsciiAlpha(this.peek()) || (name !== '' && isAsciiDigit(this.peek()))) {
      name += String.fromCodePoint(this.peek());
      this.k++;
    }
    if (name !== '' && this.peek() === ch('>')) {
      this.k++;
      return name;
    }
    let attempted = '';
    for (let j = start; j < this.src.cps.length && this.src.cps[j] !== ch('>') && j - start < 40; j++) {
      attempted += String.fromCodePoint(this.src.cps[j]!);
    }
    const java = name === '' ? 'capturing group name does not start with a Latin letter' : "named capturing group is missing trailing '>'";
    this.error(
      `invalid group name "${attempted}": Java group names allow letters and digits only, starting with a letter (Java: ${java})`,
      start,
      'regex.group-name',
    );
  }

  private group(): Node | null {
    const k = this.k;
    const at = this.indexAt();
    const saved = { ...this.flags };
    this.k++; // (
    let kind: GroupKind = 'capture';
    let bodyK = 0;
    let name: string | undefined;
    let number: number | undefined;
    if (this.peek() === ch('?')) {
      this.k++;
      const c = String.fromCodePoint(Math.max(this.peek(), 0));
      const simple: Record<string, GroupKind> = { ':': 'noncapture', '=': 'ahead', '!': 'nahead', '>': 'atomic' };
      if (simple[c]) {
        kind = simple[c]!;
        this.k++;
      } else if (c === '<') {
        this.k++;
        const d = this.peek();
        if (d === ch('=')) { kind = 'behind'; this.k++; bodyK = this.k; }
        else if (d === ch('!')) { kind = 'nbehind'; this.k++; bodyK = this.k; }
        else if (isAsciiAlpha(d)) {
          name = this.groupName();
          if (this.names.has(name)) {
            this.error(`Named capturing group <${name}> is already defined`, k, 'regex.duplicate-group');
          }
          number = ++this.groupCount;
          this.names.set(name, number);
          this.groups.push({ name, number });
        } else if (d === ch('_') || isAsciiDigit(d)) {
          this.groupName();
        } else this.error('Unknown look-behind group', k);
      } else if (c === '$' || c === '@') {
        this.error('Unknown group type', k);
      } else {
        this.inlineFlags(k);
        const d = this.peek();
        this.k++;
        if (d === ch(')')) return null; // flags stay on until the enclosing group closes
        if (d !== ch(':')) this.error('Unknown inline modifier', this.k - 1);
        kind = 'noncapture';
      }
    } else {
      number = ++this.groupCount;
    }
    const body = this.expr();
    if (this.peek() !== ch(')')) this.error('Unclosed group');
    this.k++;
    this.flags = saved;
    const node: Node = { type: 'group', kind, body, at, number, name };
    if (kind === 'behind' || kind === 'nbehind') {
      this.lookbehind = true;
      // Java's findSupplementary(start, patternLength): only a supplementary character (or a
      // surrogate) from the look-behind's body to the end of the pattern makes it step by code
      // point; one before the look-behind does not.
      if (!this.src.cps.slice(bodyK).some((c) => c > 0xffff || (c >= 0xd800 && c <= 0xdfff))) this.utf16Lookbehind = true;
      checkLookbehind(node, this, k);
    }
    return node;
  }

  private inlineFlags(k: number): void {
    let on = true;
    for (;;) {
      const c = String.fromCodePoint(Math.max(this.peek(), 0));
      if (c === 'i' || c === 's' || c === 'm') this.flags[c] = on;
      else if (c === 'x') {
        // Comments mode is parsed (whitespace and #-comments skipped, as Java does) so that
        // compile errors after it are found, but not evaluated: reported below when turned on.
        this.flags.x = on;
        if (on) this.warn('regex.unsupported-flag', 'inline flag (?x) (COMMENTS) cannot be evaluated faithfully', k);
      } else if ('ducU'.includes(c) && c !== '') {
        if (on) {
          const what: Record<string, string> = { d: 'UNIX_LINES', u: 'UNICODE_CASE', x: 'COMMENTS', c: 'CANON_EQ', U: 'UNICODE_CHARACTER_CLASS' };
          this.warn('regex.unsupported-flag', `inline flag (?${c}) (${what[c]}) cannot be evaluated faithfully`, k);
        }
      } else if (c === '-' && on) on = false;
      else return;
      this.k++;
    }
  }

  /** groupsBefore: the group count before `node` was parsed (it holds a capture if that grew). */
  private closure(node: Node, groupsBefore: number): Node {
    const c = this.peek();
    const at = this.indexAt();
    let min: number, max: number;
    if (c === QMARK) { min = 0; max = 1; this.k++; }
    else if (c === STAR) { min = 0; max = Infinity; this.k++; }
    else if (c === PLUS) { min = 1; max = Infinity; this.k++; }
    else if (c === LBRACE) {
      [min, max] = this.counted();
    } else return node;
    // An optional group can also capture differently (Java keeps an empty iteration, see java-faithful.ts).
    if ((max > 1 || min === 0) && this.groupCount > groupsBefore) this.repeatedCapture = true;
    if (max > 1 && node.type === 'group') this.repeatedGroup = true;
    let mode: 'greedy' | 'lazy' | 'possessive' = 'greedy';
    if (this.peek() === QMARK) { mode = 'lazy'; this.k++; }
    else if (this.peek() === PLUS) { mode = 'possessive'; this.k++; }
    return { type: 'quant', body: node, min, max, mode, at };
  }

  private counted(): [number, number] {
    const k = this.k;
    if (!isAsciiDigit(this.peek(1))) {
      this.error('Illegal repetition (a literal "{" must be escaped as \\{)', k);
    }
    this.k++;
    const num = () => {
      let n = 0;
      while (isAsciiDigit(this.peek())) { n = n * 10 + this.peek() - ch('0'); this.k++; }
      if (n > MAX_REPS) this.error('Illegal repetition', k);
      return n;
    };
    const min = num();
    let max = min;
    if (this.peek() === ch(',')) {
      this.k++;
      max = this.peek() === ch('}') ? Infinity : num();
    }
    if (this.peek() !== ch('}')) this.error('Unclosed counted closure');
    this.k++;
    if (max < min) this.error('Illegal repetition range', k);
    return [min, max === MAX_REPS ? Infinity : max];
  }
}
