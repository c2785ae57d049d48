// A finite automaton of the whole messages a Java pattern matches on the device, built with refa
// from the same tree `menuctl test` parses (see java-to-refa.ts for the alphabet and the sentinels).
// Used by `menuctl analyze` (emptiness, intersection, containment, witnesses) and by `menuctl test`
// to decide match / no match in linear time before the backtracking engine extracts groups.
import { DFA, NFA, Transformers, TooManyNodesError, transform, visitAst, type Char, type ReadonlyWord } from 'refa';
import type { Node } from './java-ast.js';
import { analyzeJavaPattern } from './java-regex.js';
import {
  BEGIN, END, MAX_CHAR, leadingLookaheads, translateJava, translateLookaheadAtStart, Untranslatable, type RefaExpression, type Translation,
} from './java-to-refa.js';

/** Nodes one automaton (or one operation on two) may create before it is given up. */
export const NODE_BUDGET = 20_000;

export type PatternAutomaton =
  | {
      ok: true;
      nfa: NFA;
      /** The language is exactly what Java's matches() accepts (else a superset of it). */
      exact: boolean;
      /** Why it is only a superset. */
      approximations: string[];
      /** Code points the pattern writes literally, in order, as written (0 between runs): for readable witnesses. */
      literals: number[];
    }
  | { ok: false; reason: string };

// The automaton reads an atomic group or possessive quantifier as an ordinary one (a superset), so
// which match Java keeps inside one does not shrink it below Java's language either.
const LANGUAGE_NEUTRAL = new Set(['regex.repeated-capture', 'regex.backreference', 'regex.atomic-empty-iteration']);

const SIMPLIFY = Transformers.simplify({ ignoreAmbiguity: true, ignoreOrder: true });

export function automatonOfPattern(pattern: string): PatternAutomaton {
  const analyzed = analyzeJavaPattern(pattern);
  if (!analyzed.ok) return { ok: false, reason: analyzed.issues.map((i) => i.message).join('; ') };
  // Which groups Java keeps and how it compares back-references do not change the language (the
  // automaton reads a back-reference as any text anyway). Anything else the tree is known not to
  // model faithfully (unsupported flags, \X, \N{...}, and whatever src/classify learns to abstain
  // on next) is outside the analysis.
  const blocking = analyzed.unfaithful.filter((u) => !LANGUAGE_NEUTRAL.has(u.code));
  if (blocking.length > 0) return { ok: false, reason: blocking.map((u) => u.message).join('; ') };
  return automatonOfTree(analyzed.parsed.root);
}

export function automatonOfTree(root: Node): PatternAutomaton {
  try {
    const { lookaheads, rest } = leadingLookaheads(root);
    const main = build(translateJava(rest));
    let nfa = main.nfa;
    const approximations = [...main.approximations];
    for (const la of lookaheads) {
      const cond = build(translateLookaheadAtStart(la.body));
      if (!la.negate) {
        nfa = NFA.fromIntersection(nfa, cond.nfa, new NFA.LimitedNodeFactory(NODE_BUDGET));
        approximations.push(...cond.approximations);
      } else if (cond.approximations.length > 0) {
        // The complement of a superset is too small: drop the condition instead (superset again).
        approximations.push(...cond.approximations, 'a negative look-ahead is dropped');
      } else {
        const outside = DFA.fromFA(cond.nfa, new DFA.LimitedNodeFactory(NODE_BUDGET));
        outside.complement();
        nfa = NFA.fromIntersection(nfa, outside, new NFA.LimitedNodeFactory(NODE_BUDGET));
      }
    }
    return { ok: true, nfa, exact: approximations.length === 0, approximations: [...new Set(approximations)], literals: literalsOf(root) };
  } catch (e) {
    if (e instanceof Untranslatable) return { ok: false, reason: e.message };
    if (e instanceof TooManyNodesError) return { ok: false, reason: `the pattern's automaton needs more than ${NODE_BUDGET} states` };
    // Whatever else refa refuses is a limit of the analysis, never a crash of the command.
    return { ok: false, reason: `the automaton library could not build it (${(e as Error).message})` };
  }
}

function build(t: Translation): { nfa: NFA; approximations: string[] } {
  let { expression } = t;
  const approximations = [...t.approximations];
  // The transformers are there to resolve look-arounds (anchors, \b); most patterns have none,
  // and for them the transformation is the larger part of the cost.
  if (hasAssertion(expression)) expression = transform(SIMPLIFY, expression);
  if (hasAssertion(expression)) approximations.push('a look-around or anchor the analysis could not resolve is dropped');
  const nfa = NFA.fromRegex(
    expression,
    { maxCharacter: MAX_CHAR },
    { assertions: 'ignore', unknowns: 'throw' },
    new NFA.LimitedNodeFactory(NODE_BUDGET),
  );
  return { nfa, approximations };
}

function hasAssertion(expression: RefaExpression): boolean {
  let found = false;
  visitAst(expression, { onAssertionEnter: () => { found = true; } });
  return found;
}

/** The pattern's literal characters in order; 0 where something else comes between two of them. */
function literalsOf(root: Node): number[] {
  const out: number[] = [];
  const gap = () => { if (out.length > 0 && out[out.length - 1] !== 0) out.push(0); };
  const walk = (n: Node): void => {
    switch (n.type) {
      case 'set': if (n.literal !== undefined) out.push(n.literal); else gap(); return;
      case 'seq': n.items.forEach(walk); return;
      case 'alt': n.alts.forEach((a) => { gap(); walk(a); }); gap(); return;
      case 'group': walk(n.body); return;
      case 'quant': gap(); walk(n.body); gap(); return;
      case 'empty': return;
      default: gap(); return;
    }
  };
  walk(root);
  return out;
}

/** The automaton's word for a message: BEGIN, its code points, END. */
export function wordOf(text: string): ReadonlyWord {
  const word: Char[] = [BEGIN];
  for (const c of text) word.push(c.codePointAt(0)! as Char);
  word.push(END);
  return word;
}

/** The message of an automaton word (without its sentinels). */
export function textOf(word: readonly number[]): string {
  return String.fromCodePoint(...word.filter((c) => c !== BEGIN && c !== END));
}
