// Settling live parsers as they arrive (plan/compare.ts Comparer.settle) must change nothing a
// plan shows: whatever the config and the live state, the comparison, and the plan built from
// it, read exactly as those of the parsers as parsed. The live state is generated with name
// clashes, archived twins, parsers read under another action, pins and renames.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SettledLiveParser } from '../../src/model/settled-parser.js';
import type { DesiredState, LiveParser, LiveState } from '../../src/model/types.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { Comparer, compareStates, SettledParserPair, type Comparison } from '../../src/plan/compare.js';
import { desired, desiredAction, desiredParser, live, liveAction, liveParser } from './builders.js';

const NAMES = ['Balance', 'Airtime', 'Send money'];
const CATEGORIES = ['balance', 'wrong-pin', 'pending'];
const ACTION_IDS = ['a1', 'a2', 'a3'];
const PARSER_IDS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
/** Mostly absent: most actions match their parsers by category alone, and settle. */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** Mostly the first: live parsers then often equal the config's, as in a settled organization. */
const mostly = <T>(usual: T, other: T) => fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constant(other) });

const liveArb = fc.record({
  actions: fc.uniqueArray(fc.record({ id: fc.constantFrom(...ACTION_IDS), name: fc.constantFrom(...NAMES), archived: mostly(false, true) }), { selector: (a) => a.id, maxLength: 3 }),
  parsers: fc.uniqueArray(fc.record({
    id: fc.constantFrom(...PARSER_IDS),
    action: fc.constantFrom(...ACTION_IDS),
    listedUnder: rarely(fc.constantFrom(...ACTION_IDS)),
    category: fc.constantFrom(...CATEGORIES),
    archived: mostly(false, true),
    regex: mostly('a.*', 'b.*'),
    target_type: mostly<'ussd' | 'sms'>('ussd', 'sms'),
  }), { selector: (p) => p.id, maxLength: 6 }),
});
const desiredArb = fc.uniqueArray(fc.record({
  name: fc.constantFrom(...NAMES),
  parsers: fc.uniqueArray(fc.record({
    category: fc.constantFrom(...CATEGORIES),
    id: rarely(fc.constantFrom(...PARSER_IDS)),
    renamed_from: rarely(fc.constantFrom(...CATEGORIES)),
    regex: mostly('a.*', 'b.*'),
    target_type: mostly<'ussd' | 'sms'>('ussd', 'sms'),
  }), { selector: (p) => p.category, maxLength: 3 }),
}), { selector: (a) => a.name, maxLength: 3 });

type LiveIn = typeof liveArb extends fc.Arbitrary<infer T> ? T : never;
type DesiredIn = typeof desiredArb extends fc.Arbitrary<infer T> ? T : never;

/** The states, and the parser lists as the API answers them, one per action id (new objects each call). */
function build(l: LiveIn, d: DesiredIn, mirror: boolean): { desiredState: DesiredState; liveState: LiveState; lists: Map<string, LiveParser[]> } {
  const lists = new Map<string, LiveParser[]>(ACTION_IDS.map((id) => [id, []]));
  if (mirror) {
    // An organization the config was applied to, with the generated live state on top of it.
    l = {
      actions: [...d.map((a, i) => ({ id: ACTION_IDS[i]!, name: a.name, archived: false })), ...l.actions.filter((a) => !d.some((_, i) => ACTION_IDS[i] === a.id))],
      parsers: [...d.flatMap((a, i) => a.parsers.map((p, j) => ({
        id: `m${i}-${j}`, action: ACTION_IDS[i]!, listedUnder: undefined, archived: false, category: p.category, regex: p.regex, target_type: p.target_type,
      }))), ...l.parsers],
    };
  }
  for (const p of l.parsers) {
    lists.get(p.listedUnder ?? p.action)!.push(liveParser({
      id: p.id, action_id: p.action, category: p.category, regex: p.regex, target_type: p.target_type,
      sender: p.target_type === 'sms' ? 'MPESA' : null, archived_at: p.archived ? '2024-02-01T00:00:00Z' : null,
    }));
  }
  const liveState = live({
    actions: l.actions.map((a) => liveAction({ id: a.id, name: a.name, archived_at: a.archived ? '2024-02-01T00:00:00Z' : null })),
    parsers: ACTION_IDS.flatMap((id) => lists.get(id)!),
  });
  const desiredState = desired({
    actions: d.map((a) => desiredAction({
      name: a.name,
      parsers: a.parsers.map((p) => desiredParser({
        category: p.category, regex: p.regex, target_type: p.target_type, sender: p.target_type === 'sms' ? 'MPESA' : null,
        ...(p.id !== undefined ? { id: p.id } : {}),
        ...(p.renamed_from !== undefined ? { renamed_from: p.renamed_from } : {}),
      })),
    })),
  });
  return { desiredState, liveState, lists };
}

/** A comparison as plain data, every pair field read through (a settled pair works them out). */
function plain(c: Comparison): unknown {
  const json = (v: unknown): unknown => (v === null || v === undefined ? v : JSON.parse(JSON.stringify(v)));
  return {
    pairs: c.pairs.map((p) => ({
      type: p.type, address: p.address, desired: p.desired, spec: p.spec, live: json(p.live), fields: p.fields, via: p.via,
      recorded: p.recorded, detailsUnknown: p.detailsUnknown,
      ...(p.type === 'parser' ? { parent: p.parent, actionId: p.actionId } : {}),
    })),
    orphans: c.orphans.map((o) => ({ ...o, live: json(o.live) })),
    diagnostics: c.diagnostics,
    disagrees: [...c.disagrees],
  };
}

describe('settling live parsers as they arrive', () => {
  it('changes nothing in the comparison or the plan, whatever the config and the live state', () => {
    let settledPairs = 0;
    let settledParsers = 0;
    fc.assert(fc.property(liveArb, desiredArb, fc.boolean(), fc.shuffledSubarray(ACTION_IDS), (l, d, mirror, order) => {
      const plainRun = build(l, d, mirror);
      const expected = compareStates(plainRun.desiredState, plainRun.liveState);
      const expectedPlan = buildPlan(plainRun.desiredState, plainRun.liveState).plan;

      // As the live read does it: each list settled as it arrives, then handed to the comparison;
      // the live state holds the lists as they are then.
      const run = build(l, d, mirror);
      const comparer = new Comparer(run.desiredState, run.liveState);
      for (const id of order) {
        comparer.settle(id, run.lists.get(id)!);
        comparer.parsersOf(id, run.lists.get(id)!);
      }
      const liveState: LiveState = { ...run.liveState, parsers: ACTION_IDS.flatMap((id) => run.lists.get(id)!) };
      settledParsers += liveState.parsers.filter((p) => p instanceof SettledLiveParser).length;
      const result = buildPlan(run.desiredState, liveState, {}, comparer);
      settledPairs += result.comparison.pairs.filter((p) => p instanceof SettledParserPair).length;
      expect(plain(result.comparison)).toEqual(plain(expected));
      expect(JSON.stringify(result.plan)).toBe(JSON.stringify(expectedPlan));
    }), { numRuns: 1500, seed: 28 });
    // Not vacuous: ~190 parsers settle in these runs, and most become settled pairs.
    expect(settledParsers).toBeGreaterThan(100);
    expect(settledPairs).toBeGreaterThan(50);
  });

  it('settles only where the match is by category alone: a pinned id or a rename in the action leaves its parsers as parsed', () => {
    const parsers = () => [liveParser({ id: 'p1', category: 'balance' }), liveParser({ id: 'p2', category: 'pending' })];
    const plainAction = desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'balance' }), desiredParser({ category: 'pending' })] })] });
    const pinned = desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'balance' }), desiredParser({ category: 'pending', id: 'p2' })] })] });
    const renamed = desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'balance' }), desiredParser({ category: 'late', renamed_from: 'pending' })] })] });
    for (const [d, settles] of [[plainAction, true], [pinned, false], [renamed, false]] as const) {
      const list = parsers();
      new Comparer(d, live({ actions: [liveAction()], parsers: [] })).settle('a1', list);
      expect(list.every((p) => p instanceof SettledLiveParser)).toBe(settles);
    }
  });

  it('leaves a category the live list repeats as parsed (the match reports it ambiguous)', () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'balance' })] })] });
    const list = [liveParser({ id: 'p1' }), liveParser({ id: 'p2' })];
    new Comparer(d, live({ actions: [liveAction()], parsers: [] })).settle('a1', list);
    expect(list.some((p) => p instanceof SettledLiveParser)).toBe(false);
  });
});
