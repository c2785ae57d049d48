// The parsers to analyse, each with its automaton (one per distinct pattern per run: real configs
// repeat patterns across actions, and nothing is kept across runs).
import { automatonOfPattern, type PatternAutomaton } from '../classify/automaton.js';
import { parserAddress } from '../model/address.js';
import type { DesiredAction, DesiredParser, DesiredState } from '../model/types.js';

export interface Subject {
  action: DesiredAction;
  parser: DesiredParser;
  address: string;
  automaton: PatternAutomaton;
}

export function subjectsOf(state: DesiredState): Subject[][] {
  const automata = new Map<string, PatternAutomaton>();
  const automatonOf = (pattern: string) => {
    let a = automata.get(pattern);
    if (!a) automata.set(pattern, (a = automatonOfPattern(pattern)));
    return a;
  };
  return state.actions.map((action) => action.parsers.map((parser) => ({
    action,
    parser,
    address: parserAddress(action.name, parser.category),
    automaton: automatonOf(parser.regex),
  })));
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
