// The parsers to analyse, each with its automaton. One action at a time: an automaton can weigh
// tens of kilobytes, and keeping every parser's until the end grew with the config. Real configs repeat patterns across actions (".*wrong PIN.*"): those are kept until
// their last use.
import { automatonOfPattern, type PatternAutomaton } from '../classify/automaton.js';
import { BoundedCache } from '../classify/bounded-cache.js';
import type { DesiredAction, DesiredParser } from '../model/types.js';

export interface Subject {
  action: DesiredAction;
  parser: DesiredParser;
  automaton: PatternAutomaton;
}

/**
 * Automata by pattern for one run. Real configs repeat patterns across actions (".*wrong PIN.*"):
 * a pattern some later action uses again keeps its automaton until its last use (the 256 most
 * recently used at most); one used once is not kept at all. A cache of the most recent ones,
 * whatever they were, kept every automaton through the next few hundred patterns, long enough to
 * reach V8's old space, which then grew to ~4x its live size between collections.
 */
export class Automata {
  /** Uses left, of the patterns used more than once. */
  private readonly uses = new Map<string, number>();
  private readonly kept = new BoundedCache<string, PatternAutomaton>(256);

  /** `actions`: every action the run will ask about, in any order. */
  constructor(actions: Iterable<DesiredAction>) {
    const count = new Map<string, number>();
    for (const a of actions) for (const p of a.parsers) count.set(p.regex, (count.get(p.regex) ?? 0) + 1);
    for (const [pattern, n] of count) if (n > 1) this.uses.set(pattern, n);
  }

  of(pattern: string): PatternAutomaton {
    const left = this.uses.get(pattern);
    if (left === undefined) return automatonOfPattern(pattern);
    const automaton = this.kept.getOrAdd(pattern, automatonOfPattern);
    if (left > 1) this.uses.set(pattern, left - 1);
    else {
      this.uses.delete(pattern);
      this.kept.delete(pattern);
    }
    return automaton;
  }
}

export function subjectsOf(action: DesiredAction, automata: Automata): Subject[] {
  return action.parsers.map((parser) => ({
    action,
    parser,
    automaton: automata.of(parser.regex),
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
