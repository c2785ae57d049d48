// The automata of one analyze run (subjects.ts Automata): a pattern several parsers use is built
// once and kept until its last use; one used once is never kept.
import { describe, expect, it } from 'vitest';
import { Automata } from '../../src/analyze/subjects.js';
import type { DesiredAction, DesiredParser } from '../../src/model/types.js';

const actionOf = (name: string, ...patterns: string[]): DesiredAction => ({
  name,
  parsers: patterns.map((regex, i): DesiredParser => ({ category: `c${i}`, status: 'failed', target_type: 'ussd', sender: null, regex, user_message: '' })),
  tests: [],
}) as unknown as DesiredAction;

describe('Automata', () => {
  it('builds a repeated pattern once, for each of its uses, and forgets it after the last', () => {
    const actions = [actionOf('A', '.*wrong PIN.*', 'a 1'), actionOf('B', '.*wrong PIN.*', 'b 1'), actionOf('C', '.*wrong PIN.*')];
    const automata = new Automata(actions);
    const uses = [automata.of('.*wrong PIN.*'), automata.of('.*wrong PIN.*'), automata.of('.*wrong PIN.*')];
    expect(uses[1]).toBe(uses[0]);
    expect(uses[2]).toBe(uses[0]);
    expect(uses[0]!.ok).toBe(true);
    // Asked once more than counted: built again, not kept from before.
    expect(automata.of('.*wrong PIN.*')).not.toBe(uses[0]);
  });

  it('keeps no pattern used once', () => {
    const automata = new Automata([actionOf('A', 'a 1', 'a 2')]);
    const first = automata.of('a 1');
    expect(automata.of('a 1')).not.toBe(first);
    expect(automata.of('a 1')).toEqual(first);
  });
});
