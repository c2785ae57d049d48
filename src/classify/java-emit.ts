// Emits a JavaScript RegExp source (compiled with the `u` flag only) that behaves like the Java
// pattern. Every difference is spelled out rather than left to JS defaults: classes are explicit
// code point sets (no \s, \w, `.` or `i`), Java's anchors and \b become look-arounds, and atomic
// groups / possessive quantifiers use the look-ahead + back reference idiom, which is atomic in JS.
import { toJsClass } from './charset.js';
import type { AssertKind, Node } from './java-ast.js';

const W = '[\\p{L}\\p{Nd}_]'; // Java's Bound.isWord: Character.isLetterOrDigit(c) || c == '_'
const B = '[\\p{L}\\p{Nd}]';
// A non-spacing mark counts as a word character when it follows a letter or digit (Bound.check).
const LEFT = `${W}|${B}\\p{Mn}+`;
const RIGHT = `(?:${W}|\\p{Mn}(?<=${B}\\p{Mn}+))`;
const END = '(?![\\s\\S])';

const ASSERTIONS: Record<AssertKind, string> = {
  begin: '(?<![\\s\\S])',
  end: END,
  // Java's Dollar(false): the end, or before a final line terminator (but not inside "\r\n").
  dollar: `(?:${END}|(?=\\r\\n${END})|(?<!\\r)(?=\\n${END})|(?=[\\r\\u0085\\u2028\\u2029]${END}))`,
  // Java's Caret: after any line terminator (not inside "\r\n"), never at the very end of input.
  mcaret: '(?=[\\s\\S])(?:(?<![\\s\\S])|(?<=[\\n\\u0085\\u2028\\u2029])|(?<=\\r)(?!\\n))',
  mdollar: `(?:${END}|(?=[\\r\\u0085\\u2028\\u2029])|(?<!\\r)(?=\\n))`,
  wordb: `(?:(?<=${LEFT})(?!${RIGHT})|(?<!${LEFT})(?=${RIGHT}))`,
  nonwordb: `(?:(?<=${LEFT})(?=${RIGHT})|(?<!${LEFT})(?!${RIGHT}))`,
};

// Java's LineEnding (\R) tries \r\n first and can backtrack to \r alone (checked against the JVM).
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
      case 'assert': return ASSERTIONS[node.kind];
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

  private group(node: Node & { type: 'group' }): string {
    switch (node.kind) {
      case 'capture': {
        const js = ++this.jsGroups;
        this.groupMap.set(node.number!, js);
        const body = this.emit(node.body);
        return node.name ? `(?<${node.name}>${body})` : `(${body})`;
      }
      case 'noncapture': return `(?:${this.emit(node.body)})`;
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
    const atom = () => {
      const b = node.body;
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
    if (node.mode === 'possessive') return this.atomic(() => `${atom()}${q}`);
    return `${atom()}${q}`;
  }
}
