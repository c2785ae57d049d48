// Emits a JavaScript RegExp source (compiled with the `u` flag only) that behaves like the Java
// pattern. Every difference is spelled out rather than left to JS defaults: classes are explicit
// code point sets (no \s, \w, `.` or `i`), Java's anchors and \b become look-arounds, and atomic
// groups / possessive quantifiers use the look-ahead + back reference idiom, which is atomic in JS.
import { toJsClass } from './charset.js';
import type { AssertKind, Node } from './java-ast.js';
import { atomicLinebreakBody } from './java-linebreak.js';

const END = '(?![\\s\\S])';

const ASSERTIONS: Record<Exclude<AssertKind, 'wordb' | 'nonwordb'>, string> = {
  begin: '(?<![\\s\\S])',
  end: END,
  // Java's Dollar(false): the end, or before a final line terminator (but not inside "\r\n").
  dollar: `(?:${END}|(?=\\r\\n${END})|(?<!\\r)(?=\\n${END})|(?=[\\r\\u0085\\u2028\\u2029]${END}))`,
  // Java's Caret: after any line terminator (not inside "\r\n"), never at the very end of input.
  mcaret: '(?=[\\s\\S])(?:(?<![\\s\\S])|(?<=[\\n\\u0085\\u2028\\u2029])|(?<=\\r)(?!\\n))',
  mdollar: `(?:${END}|(?=[\\r\\u0085\\u2028\\u2029])|(?<!\\r)(?=\\n))`,
  // Reported unfaithful by the parser, so never used to decide: it matches nothing.
  grapheme: '[]',
};

// Java's Bound (\b, \B). A side is a word character when its code point is a letter, a digit or
// '_' (Character.isLetterOrDigit), or a non-spacing mark (Mn) whose base is a letter or digit.
// Java looks for that base one UTF-16 unit at a time (hasBaseCharacter), so it only ever finds a
// BMP letter or digit behind BMP marks: a supplementary letter or mark on the way reads as a lone
// surrogate and ends the search. The classes are Node's \p{...}; where Node's Unicode tables and
// Java 17's disagree on a character of the reply, classify.ts refuses to evaluate (see
// unicodeObstacle), so these are exact whenever they are used.
const BMP = '(?=[\\0-\\uffff])';
const W = '[\\p{L}\\p{Nd}_]';
const BLD = `${BMP}[\\p{L}\\p{Nd}]`;
const MNB = `(?:${BMP}\\p{Mn})`;
const LEFT = `(?:(?<=${W})|(?<=${BLD}${MNB}+))`;
const NOT_LEFT = `(?<!${W})(?<!${BLD}${MNB}+)`;
const RIGHT = `(?:(?=${W})|(?<=${BLD}${MNB}*)(?=\\p{Mn}))`;
const NOT_RIGHT = `(?!${W})(?!(?<=${BLD}${MNB}*)\\p{Mn})`;
const BOUNDARIES = { wordb: `(?:${LEFT}${NOT_RIGHT}|${NOT_LEFT}${RIGHT})`, nonwordb: `(?:${LEFT}${RIGHT}|${NOT_LEFT}${NOT_RIGHT})` };

const isPlainGroup = (n: Node) => n.type === 'group' && (n.kind === 'capture' || n.kind === 'noncapture');

function assertion(kind: AssertKind): string {
  return kind === 'wordb' || kind === 'nonwordb' ? BOUNDARIES[kind] : ASSERTIONS[kind];
}

// Java's LineEnding (\R) tries \r\n first and can backtrack to \r alone (checked against the JVM),
// except as a whole iteration of a repetition (java-linebreak.ts).
const LINEBREAK = '(?:\\r\\n|[\\n\\u000b\\f\\r\\u0085\\u2028\\u2029])';

export interface Emitted {
  source: string;
  /** JS group number of each Java group number. */
  groupMap: Map<number, number>;
}

export function emitJs(root: Node): Emitted {
  const e = new Emitter();
  const body = e.emit(root);
  return { source: `^(?:${body})$`, groupMap: e.groupMap };
}

class Emitter {
  private jsGroups = 0;
  readonly groupMap = new Map<number, number>();

  emit(node: Node): string {
    switch (node.type) {
      case 'empty': return '';
      case 'seq': return node.items.map((n) => this.emit(n)).join('');
      case 'alt': return node.alts.map((n) => this.emit(n)).join('|');
      case 'set': return toJsClass(node.set);
      case 'assert': return assertion(node.kind);
      case 'linebreak': return LINEBREAK;
      case 'backref': {
        const js = this.groupMap.get(node.group);
        // A reference to a group that does not exist (yet) never matches in Java.
        return js === undefined ? '[]' : `(?:\\${js})`;
      }
      case 'group': return this.group(node);
      case 'quant': return this.quant(node);
    }
  }

  /** inner: how to emit the body (default: as parsed). */
  private group(node: Node & { type: 'group' }, inner = () => this.emit(node.body)): string {
    switch (node.kind) {
      case 'capture': {
        const js = ++this.jsGroups;
        this.groupMap.set(node.number!, js);
        const body = inner();
        return node.name ? `(?<${node.name}>${body})` : `(${body})`;
      }
      case 'noncapture': return `(?:${inner()})`;
      case 'ahead': return `(?=${this.emit(node.body)})`;
      case 'nahead': return `(?!${this.emit(node.body)})`;
      case 'behind': return `(?<=${this.emit(node.body)})`;
      case 'nbehind': return `(?<!${this.emit(node.body)})`;
      case 'atomic': return this.atomic(() => this.emit(node.body));
    }
  }

  private atomic(inner: () => string): string {
    const helper = ++this.jsGroups;
    return `(?:(?=(${inner()}))\\${helper})`;
  }

  private quant(node: Node & { type: 'quant' }): string {
    const repeatedLinebreak = atomicLinebreakBody(node);
    const atom = () => {
      const b = node.body;
      if (repeatedLinebreak === 'bare') return this.atomic(() => LINEBREAK);
      if (repeatedLinebreak === 'group') return this.group(b as Node & { type: 'group' }, () => this.atomic(() => LINEBREAK));
      const s = this.emit(b);
      if (b.type === 'set' || (b.type === 'group' && ['capture', 'noncapture'].includes(b.kind))) return s;
      return `(?:${s})`;
    };
    const { min, max } = node;
    let q: string;
    if (min === 0 && max === Infinity) q = '*';
    else if (min === 1 && max === Infinity) q = '+';
    else if (min === 0 && max === 1) q = '?';
    else if (max === Infinity) q = `{${min},}`;
    else if (min === max) q = `{${min}}`;
    else q = `{${min},${max}}`;
    if (node.mode === 'lazy') return `${atom()}${q}?`;
    // Java's possessive Curly takes each iteration's first solution (the group is matched on its
    // own), so `(?:a|ab){2}+` never retries the first iteration as "ab": each iteration is atomic too.
    if (node.mode === 'possessive') {
      const each = isPlainGroup(node.body) && repeatedLinebreak === null ? () => this.atomic(atom) : atom;
      return this.atomic(() => `${each()}${q}`);
    }
    return `${atom()}${q}`;
  }
}
