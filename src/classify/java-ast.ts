// The parsed form of a Java pattern, with Java's inline flags already resolved into the nodes
// (a literal under (?i) is the set {a, A}; `.` knows whether DOTALL applied), so the emitter and the
// lint heuristics never track flags themselves.
import type { CharSet } from './charset.js';

export type AssertKind =
  | 'begin' // \A, \G, ^ without MULTILINE: start of input
  | 'end' // \z
  | 'dollar' // $ without MULTILINE, \Z: end, or before a final line terminator
  | 'mcaret' // ^ with MULTILINE
  | 'mdollar' // $ with MULTILINE
  | 'wordb' // \b
  | 'nonwordb' // \B
  | 'grapheme'; // \b{g}: never evaluated (reported unfaithful), kept so the tree stays whole

export type GroupKind = 'capture' | 'noncapture' | 'atomic' | 'ahead' | 'nahead' | 'behind' | 'nbehind';

export type Node =
  | { type: 'empty'; at: number }
  | { type: 'seq'; items: Node[]; at: number }
  | { type: 'alt'; alts: Node[]; at: number }
  /** One code point from `set`. `literal` is the pattern's own character when it was one. */
  | { type: 'set'; set: CharSet; at: number; literal?: number; dot?: boolean }
  | { type: 'assert'; kind: AssertKind; at: number }
  /** \R: \r\n or one vertical line break (backtracks into \r alone, like Java's LineEnding). */
  | { type: 'linebreak'; at: number }
  | { type: 'group'; kind: GroupKind; body: Node; at: number; number?: number; name?: string }
  | { type: 'quant'; body: Node; min: number; max: number; mode: 'greedy' | 'lazy' | 'possessive'; at: number }
  /** group: Java group number (may exceed the group count: then it never matches). */
  | { type: 'backref'; group: number; ci: boolean; at: number; /** As written with \k<name>. */ name?: string };

export interface Unfaithful {
  code: string;
  message: string;
  index: number;
}

/** The node is, or contains, a capturing group. */
export function hasCapture(node: Node): boolean {
  switch (node.type) {
    case 'seq': return node.items.some(hasCapture);
    case 'alt': return node.alts.some(hasCapture);
    case 'group': return node.kind === 'capture' || hasCapture(node.body);
    case 'quant': return hasCapture(node.body);
    default: return false;
  }
}

export class JavaSyntaxError extends Error {
  constructor(
    readonly description: string,
    readonly index: number,
    /** regex.syntax, regex.group-name or regex.duplicate-group */
    readonly code: string = 'regex.syntax',
  ) {
    super(`${description} near index ${index}`);
  }
}

export interface ParsedPattern {
  root: Node;
  /** Named groups in order of their opening parenthesis. */
  groups: { name: string; number: number }[];
  groupCount: number;
  unfaithful: Unfaithful[];
  /** The pattern has a back reference (\1, \k<name>). */
  hasBackref: boolean;
  /** Some quantifier that can repeat (max > 1) or skip (min 0) applies to a capturing group or something holding one. */
  repeatedCapture: boolean;
  /** Some quantifier that can repeat (max > 1) applies to a group (java-loop.ts). */
  repeatedGroup: boolean;
  /** The pattern has \b or \B (whose letters and marks come from the Unicode tables). */
  wordBoundary: boolean;
  /** The pattern has a look-behind. */
  lookbehind: boolean;
  /**
   * Some look-behind has no supplementary character (or surrogate) in the pattern text from its
   * body to the end of the pattern: Java steps that one back one UTF-16 unit at a time.
   */
  utf16Lookbehind: boolean;
  /** The pattern has \R. */
  linebreak: boolean;
}
