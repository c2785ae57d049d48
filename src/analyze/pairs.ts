// One pair of parsers of one action that see the same messages: disjoint (nothing to say), one
// inside the other (shadowed), or overlapping (with a witness); or undecided, said as such.
import { DFA, isDisjointWith, TooManyNodesError, type NFA } from 'refa';
import { NODE_BUDGET, wordOf } from '../classify/automaton.js';
import type { Engine } from './engine.js';
import { KeptFinding } from './finding.js';
import type { Subject } from './subjects.js';
import { readableWord, witnessCandidates } from './witness.js';

export type Analysed = Subject & { automaton: { ok: true; nfa: NFA; exact: boolean; approximations: string[]; literals: number[] } };

/** Pure automaton facts about the pair, or the reason they could not be computed. */
export interface PairFacts {
  disjoint: boolean;
  /** a's language lies inside b's (proved only when b's automaton is exact). */
  aInB: boolean;
  bInA: boolean;
}

export function pairFacts(a: Analysed, b: Analysed): PairFacts | { undecided: string } {
  try {
    if (isDisjointWith(a.automaton.nfa, b.automaton.nfa, NODE_BUDGET)) return { disjoint: true, aInB: false, bInA: false };
    return { disjoint: false, aInB: b.automaton.exact && within(a, b), bInA: a.automaton.exact && within(b, a) };
  } catch (e) {
    if (e instanceof TooManyNodesError) return { undecided: `comparing them needs more than ${NODE_BUDGET} automaton states` };
    throw e;
  }
}

// Complements, per automaton: one per distinct pattern per run (subjects.ts shares automata), and
// the common parsers (".*wrong PIN.*") are compared in every action.
const complements = new WeakMap<NFA, DFA>();

/** L(a) ⊆ L(b): nothing a accepts lies outside b. */
function within(a: Analysed, b: Analysed): boolean {
  // Most pairs are refuted by one readable message of a that b rejects, without a complement DFA.
  const sample = readableWord(a.automaton);
  if (sample !== null && !b.automaton.nfa.test(wordOf(sample))) return false;
  let outside = complements.get(b.automaton.nfa);
  if (!outside) {
    outside = DFA.fromFA(b.automaton.nfa, new DFA.LimitedNodeFactory(NODE_BUDGET));
    outside.complement();
    complements.set(b.automaton.nfa, outside);
  }
  return isDisjointWith(a.automaton.nfa, outside, NODE_BUDGET);
}

export async function comparePair(a: Analysed, b: Analysed, o: { engine: Engine; fixtures: string[] }): Promise<KeptFinding[]> {
  const facts = pairFacts(a, b);
  if ('undecided' in facts) return [undecided(a, b, facts.undecided)];
  if (facts.disjoint) return [];
  let candidates: string[];
  try {
    candidates = witnessCandidates({
      parsers: [a.automaton, b.automaton],
      fixtures: o.fixtures,
    });
  } catch (e) {
    if (e instanceof TooManyNodesError) return [undecided(a, b, `spelling out a shared message needs more than ${NODE_BUDGET} automaton states`)];
    throw e;
  }
  const verdict = await o.engine.firstMatchingAll(candidates, [a.parser.regex, b.parser.regex]);
  if (verdict.kind === 'unverifiable') return [undecided(a, b, verdict.reason)];
  if (verdict.kind === 'none') {
    const why = [...a.automaton.approximations, ...b.automaton.approximations];
    return [undecided(a, b, `the analysis over-approximates (${[...new Set(why)].join('; ') || 'no reason recorded'}) and found no message the test engine confirms`)];
  }
  const witness = verdict.text;
  if (facts.aInB && facts.bInA) return [shadowed(b, a, witness, true)];
  if (facts.aInB) return [shadowed(a, b, witness, false)];
  if (facts.bInA) return [shadowed(b, a, witness, false)];
  return [new KeptFinding('overlap', a, b, witness, a.parser.loc)];
}

function shadowed(inner: Analysed, outer: Analysed, witness: string, same: boolean): KeptFinding {
  return new KeptFinding(same ? 'same' : 'shadowed', inner, outer, witness, inner.parser.loc);
}

function undecided(a: Analysed, b: Analysed, reason: string): KeptFinding {
  return new KeptFinding('undecided', a, b, reason, a.parser.loc);
}
