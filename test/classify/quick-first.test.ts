// classifyInSandbox asks the automaton only when the engine is slow (issue 17: building one per
// pattern doubled `menuctl test`'s CPU and kept ~80 KB per pattern).
import { afterAll, describe, expect, it } from 'vitest';
import { classifyInSandbox } from '../../src/classify/run-fixtures.js';
import { keptAutomata } from '../../src/classify/automaton-match.js';
import { RegexSandbox } from '../../src/classify/sandbox.js';
import type { DesiredParser } from '../../src/model/types.js';

const sandbox = new RegexSandbox(2000);
afterAll(() => sandbox.close());

const parser = (category: string, regex: string): DesiredParser =>
  ({ category, status: 'succeeded', target_type: 'ussd', sender: null, regex, user_message: '' }) as DesiredParser;

describe('classifyInSandbox', () => {
  it('decides ordinary replies with the engine alone, building no automaton', async () => {
    const before = keptAutomata();
    const parsers = [parser('balance', 'Your balance is (?<balance>\\d+)'), parser('fail', '.*wrong PIN.*')];
    for (let i = 0; i < 50; i++) {
      const c = await classifyInSandbox(sandbox, { text: `Your balance is ${i}`, channel: 'ussd' }, parsers);
      expect(c?.matches.map((m) => m.category)).toEqual(['balance']);
    }
    expect(keptAutomata()).toBe(before);
  });

  it('a reply the engine cannot decide quickly is decided by the automaton: no match, in time', async () => {
    const before = keptAutomata();
    const slow = parser('slow', '(?:\\w+\\s?)*Ksh');
    const c = await classifyInSandbox(sandbox, { text: 'CONFIRMED YOU HAVE RECEIVED MONEY FROM JOHN DOE OF NAIROBI KENYA', channel: 'ussd' }, [slow]);
    // null would be "over the 2 s budget": the engine alone takes far longer on this reply.
    expect(c).not.toBeNull();
    expect(c!.matches).toEqual([]);
    expect(keptAutomata()).toBe(before + 1);
  });

  it('asks the automaton first for patterns that were once slow: no second short attempt', async () => {
    const slow = parser('slow', '(?<name>(?:[A-Z]+\\s?)+)\\d');
    const message = { text: 'CONFIRMED YOU HAVE RECEIVED MONEY FROM JOHN DOE OF NAIROBI KENYA', channel: 'ussd' as const };
    const runs: number[] = [];
    const run = sandbox.run.bind(sandbox);
    sandbox.run = (jobs, budgetMs) => {
      runs.push(budgetMs ?? sandbox.budgetMs);
      return run(jobs, budgetMs);
    };
    try {
      expect((await classifyInSandbox(sandbox, message, [slow]))!.matches).toEqual([]);
      // The first time: the short attempt, then the whole budget for what the automaton left (nothing here).
      expect(runs).toEqual([50, 2000]);
      runs.length = 0;
      expect((await classifyInSandbox(sandbox, message, [slow]))!.matches).toEqual([]);
      expect(runs).toEqual([2000]);
    } finally {
      sandbox.run = run;
    }
  });
});
