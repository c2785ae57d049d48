// What `menuctl validate` can learn from the analysis at almost no cost: dead parsers. Only patterns
// that contain something able to make a language empty on its own (an anchor, \b or \B, a
// look-around, a class intersection, an empty class) get an automaton; the rest, nearly every real
// parser, cost one string test. Fixture overlaps are left to `menuctl analyze`: they need a regex
// run per fixture and parser, which validate (budget: 25,000 parsers in about a second) never does.
import type { DesiredState } from '../model/types.js';

const CAN_BE_EMPTY = /\\[bBAzZG]|[\^$]|\(\?<?[=!]|&&|\[\]|\[\^\]/;

/** The number of parsers `menuctl analyze` would report as dead. */
export async function countDeadParsers(state: DesiredState): Promise<number> {
  const suspects = state.actions.flatMap((a) => a.parsers.filter((p) => CAN_BE_EMPTY.test(p.regex)));
  if (suspects.length === 0) return 0;
  // refa is loaded only when some pattern needs it: validate's start-up time matters in CI.
  const { automatonOfPattern } = await import('../classify/automaton.js');
  const dead = new Map<string, boolean>();
  let n = 0;
  for (const p of suspects) {
    let d = dead.get(p.regex);
    if (d === undefined) {
      const au = automatonOfPattern(p.regex);
      dead.set(p.regex, (d = au.ok && au.nfa.isEmpty));
    }
    if (d) n++;
  }
  return n;
}
