// The parsers to analyse, each with its automaton. One action at a time: an automaton can weigh
// tens of kilobytes, and keeping every parser's until the end took 1.6 GB at 10,000 actions x 5
// parsers. Real configs repeat patterns across actions (".*wrong PIN.*"): the recent ones are kept.
import { automatonOfPattern, type PatternAutomaton } from '../classify/automaton.js';
import { BoundedCache } from '../classify/bounded-cache.js';
import type { DesiredAction, DesiredParser } from '../model/types.js';

export interface Subject {
  action: DesiredAction;
  parser: DesiredParser;
  automaton: PatternAutomaton;
}

/** Automata by pattern for one run, the most recently used kept. */
export function automataCache(): BoundedCache<string, PatternAutomaton> {
  return new BoundedCache<string, PatternAutomaton>(256);
}

export function subjectsOf(action: DesiredAction, automata: BoundedCache<string, PatternAutomaton>): Subject[] {
  return action.parsers.map((parser) => ({
    action,
    parser,
    automaton: automata.getOrAdd(parser.regex, automatonOfPattern),
  }));
}

/** Two parsers see the same messages: same channel, and for sms the same sender (exact). */
export function sameAudience(a: DesiredParser, b: DesiredParser): boolean {
  if (a.target_type !== b.target_type) return false;
  return a.target_type !== 'sms' || a.sender === b.sender;
}

/** Categories are unique per action, so two parsers of one action always differ; kept explicit. */
export function differentOutcome(a: DesiredParser, b: DesiredParser): boolean {
  return a.status !== b.status || a.category !== b.category;
}
