// Which parsers `menuctl test` exercised: a parser is covered when a fixture or session of its
// action expects its category or was classified by it. Pure; reported after the results so a
// config whose tests leave parsers unexercised never passes silently (--require-fixtures fails it).

import type { FixtureResult } from '../classify/run-fixtures.js';
import { actionAddress, parserAddress } from '../model/address.js';
import type { DesiredState, SourceLoc } from '../model/types.js';
import type { SessionResult } from './run-sessions.js';

export interface Coverage {
  parsers: number;
  covered: number;
  /** Each with its action's address too, for reports that group by action. */
  uncovered: { address: string; action: string; loc?: SourceLoc }[];
}

export function coverageOf(state: DesiredState, fixtures: readonly FixtureResult[], sessions: readonly SessionResult[]): Coverage {
  const hit = new Set<string>();
  const mark = (action: string, category: string | undefined) => { if (category !== undefined) hit.add(parserAddress(action, category)); };
  for (const f of fixtures) {
    if (f.fixture.expect !== 'none') mark(f.action, f.fixture.expect.category);
    mark(f.action, f.winner?.category);
  }
  for (const s of sessions) {
    if (s.session.expect !== 'none') mark(s.action, s.session.expect.category);
    for (const m of s.messages) mark(s.action, m.winner?.category);
  }
  const all = state.actions.flatMap((a) => a.parsers.map((p) => ({ address: parserAddress(a.name, p.category), action: actionAddress(a.name), ...(p.loc ? { loc: p.loc } : {}) })));
  const uncovered = all.filter((p) => !hit.has(p.address));
  return { parsers: all.length, covered: all.length - uncovered.length, uncovered };
}
