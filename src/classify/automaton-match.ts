// `menuctl test`'s linear-time answer to "can this pattern match this reply at all?". The backtracking engine can take seconds on a reply that does not match
// ((?:\w+\s?)*Ksh) where Java answers at once; the automaton of the same Java tree answers in time
// linear in the reply. Its language is exact or a superset of Java's, so "rejects" is always
// Java's answer; when it accepts, the engine runs as before (and then only has to find the groups
// of a match that exists, when the automaton is exact).
import { automatonOfPattern, wordOf, type PatternAutomaton } from './automaton.js';
import { BoundedCache } from './bounded-cache.js';

// Asked only for replies the engine did not decide quickly (run-fixtures.ts): a few hundred
// patterns cover the actions under test at a time, and an automaton is not small.
const automata = new BoundedCache<string, PatternAutomaton>(256);

/** true: Java's matches() fails on the text, decided without backtracking; false: ask the engine. */
export function automatonRejects(pattern: string, text: string): boolean {
  const a = automata.getOrAdd(pattern, automatonOfPattern);
  return a.ok && !a.nfa.test(wordOf(text));
}

/** How many automata are kept (tests: only slow replies should build any). */
export function keptAutomata(): number {
  return automata.size;
}
