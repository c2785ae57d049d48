// The Java pattern tree (java-ast.ts) as a refa regex AST over the whole message, for automata.
//
// The alphabet is Unicode code points (what src/classify's CharSets hold and what Java's classes
// consume), plus two sentinels beyond U+10FFFF that stand for the start and the end of the message:
// the automaton reads BEGIN, the message, END. Java's anchors and \b then become ordinary
// look-arounds at characters (`^` is "after BEGIN", `$` "before END or a final line break"), which
// refa's transformers can usually resolve exactly; whatever they cannot is dropped (the assertion
// then always passes), which only ever grows the language.
//
// `exact` says whether the language is exactly the set of messages Java's matches() accepts. When it
// is not, the language is a superset: good enough to prove "never matches" and "never both match",
// never enough to prove a match. Each reason for inexactness is recorded for the report.
import type { Char, Concatenation, Element as RefaElement, Expression, NoParent } from 'refa';
import { CharSet as RefaSet } from 'refa';
import { MAX_CP, type CharSet } from './charset.js';
import type { AssertKind, Node } from './java-ast.js';

export const BEGIN = (MAX_CP + 1) as Char;
export const END = (MAX_CP + 2) as Char;
export const MAX_CHAR = END;

type Concat = NoParent<Concatenation>;
type Element = NoParent<RefaElement>;
export type RefaExpression = NoParent<Expression>;

export interface Translation {
  expression: RefaExpression;
  /** Why the language is only a superset of what Java accepts; empty: exact. */
  approximations: string[];
}

/** A construct the translation does not know: the caller reports the parser as not analysed. */
export class Untranslatable extends Error {}

const refaCache = new WeakMap<CharSet, RefaSet>();

/** src/classify's canonical range array as a refa CharSet of the analysis alphabet. */
export function toRefaSet(set: CharSet): RefaSet {
  let out = refaCache.get(set);
  if (!out) {
    const ranges = [];
    for (let i = 0; i < set.length; i += 2) ranges.push({ min: set[i]! as Char, max: set[i + 1]! as Char });
    out = RefaSet.empty(MAX_CHAR).union(ranges);
    refaCache.set(set, out);
  }
  return out;
}

const chars = (...ranges: [number, number][]) => RefaSet.empty(MAX_CHAR).union(ranges.map(([min, max]) => ({ min: min as Char, max: max as Char })));
const TEXT = chars([0, MAX_CP]);
const BEGIN_SET = chars([BEGIN, BEGIN]);
const END_SET = chars([END, END]);
const CR = chars([0x0d, 0x0d]);
const LF = chars([0x0a, 0x0a]);
const OTHER_TERMINATORS = chars([0x0d, 0x0d], [0x85, 0x85], [0x2028, 0x2029]);
const VERTICAL = chars([0x0a, 0x0d], [0x85, 0x85], [0x2028, 0x2029]);
// Java's \b (Pattern.Bound): a word character is '_' or Character.isLetterOrDigit, and a
// non-spacing mark after one counts as one too. ASCII is decided exactly; for any other character
// the boundary is assumed to hold (both \b and \B pass next to it), which keeps the language a
// superset without depending on which Unicode version's letter tables the device has.
const WORD_SURE = chars([0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]);
const UNSURE = chars([0x80, MAX_CP]);
const NOT_WORD_SURE = TEXT.union(BEGIN_SET, END_SET).without(WORD_SURE).without(UNSURE);

const cc = (characters: RefaSet): Element => ({ type: 'CharacterClass', characters });
const seq = (...elements: Element[]): Concat => ({ type: 'Concatenation', elements });
const alt = (...alternatives: Concat[]): Element => ({ type: 'Alternation', alternatives });
const look = (kind: 'ahead' | 'behind', negate: boolean, ...alternatives: Concat[]): Element =>
  ({ type: 'Assertion', kind, negate, alternatives });
const ahead = (...els: Element[]) => look('ahead', false, seq(...els));
const notAhead = (...els: Element[]) => look('ahead', true, seq(...els));
const behind = (...els: Element[]) => look('behind', false, seq(...els));
const notBehind = (...els: Element[]) => look('behind', true, seq(...els));

// The same definitions as java-emit.ts's ASSERTIONS, with the sentinels in place of "no character".
function assertion(kind: AssertKind, approximations: string[]): Element {
  switch (kind) {
    case 'begin': return behind(cc(BEGIN_SET));
    case 'end': return ahead(cc(END_SET));
    case 'dollar':
      return alt(
        seq(ahead(cc(END_SET))),
        seq(ahead(cc(CR), cc(LF), cc(END_SET))),
        seq(notBehind(cc(CR)), ahead(cc(LF), cc(END_SET))),
        seq(ahead(cc(OTHER_TERMINATORS), cc(END_SET))),
      );
    case 'mcaret':
      return alt(
        seq(notAhead(cc(END_SET)), behind(cc(BEGIN_SET))),
        seq(notAhead(cc(END_SET)), behind(cc(chars([0x0a, 0x0a], [0x85, 0x85], [0x2028, 0x2029])))),
        seq(notAhead(cc(END_SET)), behind(cc(CR)), notAhead(cc(LF))),
      );
    case 'mdollar':
      return alt(
        seq(ahead(cc(END_SET))),
        seq(ahead(cc(OTHER_TERMINATORS))),
        seq(notBehind(cc(CR)), ahead(cc(LF))),
      );
    case 'wordb':
    case 'nonwordb': {
      approximations.push('\\b next to a non-ASCII character is assumed to hold');
      const unsure = [seq(behind(cc(UNSURE))), seq(ahead(cc(UNSURE)))];
      if (kind === 'wordb') {
        return alt(
          seq(behind(cc(WORD_SURE)), ahead(cc(NOT_WORD_SURE))),
          seq(behind(cc(NOT_WORD_SURE)), ahead(cc(WORD_SURE))),
          ...unsure,
        );
      }
      return alt(
        seq(behind(cc(WORD_SURE)), ahead(cc(WORD_SURE))),
        seq(behind(cc(NOT_WORD_SURE)), ahead(cc(NOT_WORD_SURE))),
        ...unsure,
      );
    }
    default:
      throw new Untranslatable(`the assertion ${String(kind)} is not known to the analysis`);
  }
}

class Translator {
  readonly approximations: string[] = [];

  node(node: Node): Concat[] {
    switch (node.type) {
      case 'empty': return [seq()];
      case 'seq': return [seq(...node.items.flatMap((n) => this.element(n)))];
      case 'alt': return node.alts.flatMap((n) => this.node(n));
      default: return [seq(...this.element(node))];
    }
  }

  element(node: Node): Element[] {
    switch (node.type) {
      case 'empty': return [];
      case 'seq': case 'alt': return [alt(...this.node(node))];
      case 'set': return [cc(toRefaSet(node.set))];
      case 'assert': return [assertion(node.kind, this.approximations)];
      case 'linebreak':
        // Java's \R does not always give back the \n of \r\n when backtracking.
        this.approximations.push('\\R is read as "\\r\\n or one line break" in every position');
        return [alt(seq(cc(CR), cc(LF)), seq(cc(VERTICAL)))];
      case 'backref':
        this.approximations.push('a back-reference is read as "any text"');
        return [{ type: 'Quantifier', lazy: false, min: 0, max: Infinity, alternatives: [seq(cc(TEXT))] }];
      case 'group': return this.group(node);
      case 'quant': return this.quant(node);
      default:
        throw new Untranslatable(`the pattern construct "${(node as { type: string }).type}" is not known to the analysis`);
    }
  }

  private group(node: Node & { type: 'group' }): Element[] {
    switch (node.kind) {
      case 'capture': case 'noncapture': return [alt(...this.node(node.body))];
      case 'atomic':
        this.approximations.push('an atomic group is read as an ordinary group');
        return [alt(...this.node(node.body))];
      case 'ahead': case 'nahead': return this.lookahead(node, node.kind === 'nahead');
      case 'behind': case 'nbehind':
        // Java's look-behind steps by UTF-16 unit in places: not modelled.
        this.approximations.push('a look-behind is dropped');
        return [];
      default:
        throw new Untranslatable(`the group kind "${String(node.kind)}" is not known to the analysis`);
    }
  }

  private lookahead(node: Node & { type: 'group' }, negate: boolean): Element[] {
    const inner = new Translator();
    const body = inner.node(node.body);
    if (inner.approximations.length > 0) {
      this.approximations.push(...inner.approximations);
      if (negate) {
        // A negative look-ahead over a superset would reject too much: drop it instead.
        this.approximations.push('a negative look-ahead is dropped');
        return [];
      }
    }
    // The body may run into END (a `$` inside it): the look-ahead sees the rest of the message,
    // then the end sentinel, exactly as Java sees the rest of the input and then nothing.
    return [{ type: 'Assertion', kind: 'ahead', negate, alternatives: body }];
  }

  private quant(node: Node & { type: 'quant' }): Element[] {
    if (node.mode === 'possessive') this.approximations.push('a possessive quantifier is read as a greedy one');
    // Lazy or greedy only changes the order Java tries things in, not whether matches() succeeds.
    return [{ type: 'Quantifier', lazy: false, min: node.min, max: node.max, alternatives: this.node(node.body) }];
  }
}

/** BEGIN, then the pattern, then END: the whole message, as matches() requires. */
export function translateJava(root: Node): Translation {
  const t = new Translator();
  const body = t.node(root);
  const expression: RefaExpression = {
    type: 'Expression',
    alternatives: [seq(cc(BEGIN_SET), alt(...body), cc(END_SET))],
  };
  return { expression, approximations: [...new Set(t.approximations)] };
}


/**
 * The look-aheads a pattern starts with ((?!.*insufficient).*balance.*, the usual way to make two
 * parsers exclusive), and the rest. At the start of the message a look-ahead is a condition on the
 * whole message, so the automaton can intersect with it (or with its complement) exactly, which
 * refa's transformers cannot do for a look-ahead followed by `.*`.
 */
export function leadingLookaheads(root: Node): { lookaheads: { body: Node; negate: boolean }[]; rest: Node } {
  const items = root.type === 'seq' ? root.items : [root];
  const lookaheads: { body: Node; negate: boolean }[] = [];
  const rest: Node[] = [];
  let leading = true;
  for (const item of items) {
    if (leading && item.type === 'group' && (item.kind === 'ahead' || item.kind === 'nahead')) {
      lookaheads.push({ body: item.body, negate: item.kind === 'nahead' });
      continue;
    }
    // `^`/\A before a look-ahead keeps it at the start.
    if (!(item.type === 'assert' && item.kind === 'begin')) leading = false;
    rest.push(item);
  }
  if (lookaheads.length === 0) return { lookaheads, rest: root };
  return { lookaheads, rest: { type: 'seq', items: rest, at: root.at } };
}

/** The messages on which a look-ahead at the very start holds: BEGIN, its body, then anything. */
export function translateLookaheadAtStart(body: Node): Translation {
  const t = new Translator();
  const alts = t.node(body);
  const rest: Element = { type: 'Quantifier', lazy: false, min: 0, max: Infinity, alternatives: [seq(cc(TEXT.union(END_SET)))] };
  const expression: RefaExpression = { type: 'Expression', alternatives: [seq(cc(BEGIN_SET), alt(...alts), rest)] };
  return { expression, approximations: [...new Set(t.approximations)] };
}
