// The comparison made while the live state is read (plan/compare.ts Comparer): each action is
// compared as its parsers arrive, and finish() must give exactly what compareStates gives for the
// whole live state, whatever arrived early, in whatever order, and whatever the server answered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Comparer, compareStates } from '../../src/plan/compare.js';
import type { DesiredState, LiveParser, LiveState, RecordedScope } from '../../src/model/types.js';
import type { ScopeRecord } from '../../src/record/record.js';
import { desired, desiredAction, desiredParser, live, liveAction, liveParser } from './builders.js';

const NAMES = ['Balance', 'Airtime', 'Send money', 'Old balance'];
const CATEGORIES = ['balance', 'wrong-pin', 'pending', 'old'];
const ACTION_IDS = ['a1', 'a2', 'a3', 'a4', 'a5'];
const PARSER_IDS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });

/** Live state with name clashes, archived twins, parsers under the "wrong" action and odd regexes. */
const liveArb = fc.record({
  actions: fc.uniqueArray(fc.record({
    id: fc.constantFrom(...ACTION_IDS),
    name: fc.constantFrom(...NAMES),
    archived: fc.boolean(),
    steps: fc.constantFrom(['1', 'pin'], ['2']),
  }), { selector: (a) => a.id, maxLength: 5 }),
  parsers: fc.uniqueArray(fc.record({
    id: fc.constantFrom(...PARSER_IDS),
    action: fc.constantFrom(...ACTION_IDS),
    /** The list it is read in: its own action's, or (a server out of spec) another's. */
    listedUnder: maybe(fc.constantFrom(...ACTION_IDS)),
    category: fc.constantFrom(...CATEGORIES),
    archived: fc.boolean(),
    regex: fc.constantFrom('a.*', 'b.*'),
  }), { selector: (p) => p.id, maxLength: 8 }),
  recorded: fc.option(fc.array(fc.record({ name: fc.constantFrom(...NAMES), id: fc.constantFrom(...ACTION_IDS) }), { maxLength: 3 }), { nil: undefined }),
});

const desiredArb = fc.uniqueArray(fc.record({
  name: fc.constantFrom(...NAMES),
  id: maybe(fc.constantFrom(...ACTION_IDS, 'a-missing')),
  renamed_from: maybe(fc.constantFrom(...NAMES)),
  operator: fc.constantFrom(2172, 2173, 9999),
  parsers: fc.uniqueArray(fc.record({
    category: fc.constantFrom(...CATEGORIES),
    id: maybe(fc.constantFrom(...PARSER_IDS, 'p-missing')),
    renamed_from: maybe(fc.constantFrom(...CATEGORIES)),
    regex: fc.constantFrom('a.*', 'b.*'),
  }), { selector: (p) => p.category, maxLength: 3 }),
}), { selector: (a) => a.name, maxLength: 4 });

type LiveIn = typeof liveArb extends fc.Arbitrary<infer T> ? T : never;
type DesiredIn = typeof desiredArb extends fc.Arbitrary<infer T> ? T : never;

function build(l: LiveIn, d: DesiredIn): { desiredState: DesiredState; liveState: LiveState; lists: Map<string, LiveParser[]>; recorded: RecordedScope | undefined } {
  const parsers = l.parsers.map((p) => liveParser({
    id: p.id, action_id: p.action, category: p.category, regex: p.regex, archived_at: p.archived ? '2024-02-01T00:00:00Z' : null,
  }));
  // The lists as the API answers them, one per action id (what read-live.ts hands over).
  const lists = new Map<string, LiveParser[]>(ACTION_IDS.map((id) => [id, []]));
  l.parsers.forEach((p, i) => lists.get(p.listedUnder ?? p.action)!.push(parsers[i]!));
  let scope: ScopeRecord | null = null;
  if (l.recorded) {
    scope = { actions: new Map(l.recorded.map((r) => [`action["${r.name}"]`, { id: r.id, steps: [], operator_ids: [2172] }])), apps: new Map() };
  }
  const liveState = live({
    actions: l.actions.map((a) => liveAction({ id: a.id, name: a.name, steps: [...a.steps], archived_at: a.archived ? '2024-02-01T00:00:00Z' : null })),
    // read-live.ts flattens the lists in the order it read them.
    parsers: ACTION_IDS.flatMap((id) => lists.get(id)!),
  });
  const recorded = scope ? { file: 'menuctl.lock', scope } : undefined;
  const desiredState = desired({
    actions: d.map((a) => desiredAction({
      name: a.name,
      operators: [{ ref: a.operator }],
      ...(a.id !== undefined ? { id: a.id } : {}),
      ...(a.renamed_from !== undefined ? { renamed_from: a.renamed_from } : {}),
      parsers: a.parsers.map((p) => desiredParser({
        category: p.category, regex: p.regex,
        ...(p.id !== undefined ? { id: p.id } : {}),
        ...(p.renamed_from !== undefined ? { renamed_from: p.renamed_from } : {}),
      })),
    })),
  });
  return { desiredState, liveState, lists, recorded };
}

describe('Comparer: the comparison made while reading', () => {
  it('gives what compareStates gives, whichever lists arrived early and in whatever order', () => {
    fc.assert(fc.property(liveArb, desiredArb, fc.array(fc.constantFrom(...ACTION_IDS), { maxLength: 8 }), (l, d, arrivals) => {
      const { desiredState, liveState, lists, recorded } = build(l, d);
      const comparer = new Comparer(desiredState, liveState, recorded);
      for (const id of arrivals) comparer.parsersOf(id, lists.get(id)!);
      expect(comparer.finish(liveState, recorded)).toEqual(compareStates(desiredState, liveState, recorded));
    }), { numRuns: 2000, seed: 17 });
  });

  it('uses the part compared early when finish() is given the same lists', () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ regex: 'new.*' })] })] });
    const parsers = [liveParser({ regex: 'new.*' })];
    const l = live({ actions: [liveAction()], parsers });
    const comparer = new Comparer(d, l);
    comparer.parsersOf('a1', parsers);
    // Changing the config after the early comparison shows which one finish() returns.
    d.actions[0]!.parsers[0]!.regex = 'changed.*';
    const parser = comparer.finish(l).pairs.find((p) => p.type === 'parser')!;
    expect(parser.fields).toEqual([]);
    expect(compareStates(d, l).pairs.find((p) => p.type === 'parser')!.fields).not.toEqual([]);
  });

  it('keeps its own copy of a parser list: changing the caller\'s array afterwards changes nothing', () => {
    const d = desired({ actions: [desiredAction()] });
    const list = [liveParser()];
    const extra = liveParser({ id: 'p2', category: 'other' });
    const l = live({ actions: [liveAction()], parsers: [list[0]!, extra] });
    const comparer = new Comparer(d, l);
    comparer.parsersOf('a1', list);
    list.push(extra);
    expect(comparer.finish(l)).toEqual(compareStates(d, l));
    expect(comparer.finish(l).orphans).toEqual([expect.objectContaining({ type: 'parser', live: extra })]);
  });

  it('compares again when the live state finished with is not the one it began with', () => {
    const d = desired({ actions: [desiredAction()] });
    const parsers = [liveParser()];
    const first = live({ actions: [liveAction()], parsers });
    const comparer = new Comparer(d, first);
    comparer.parsersOf('a1', parsers);
    const other = live({ actions: [liveAction({ root_code: '*100#' })], parsers });
    expect(comparer.finish(other)).toEqual(compareStates(d, other));
    expect(comparer.finish(other).pairs[0]!.fields).toEqual([expect.objectContaining({ path: 'root_code' })]);
  });

  it('a pinned parser id found under another action is named at finish(), with every parser read', () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ id: 'p9' })] })] });
    const mine = [liveParser()];
    const l = live({
      actions: [liveAction(), liveAction({ id: 'a2', name: 'Other' })],
      parsers: [...mine, liveParser({ id: 'p9', action_id: 'a2' })],
    });
    const comparer = new Comparer(d, l);
    comparer.parsersOf('a1', mine);
    const cmp = comparer.finish(l);
    expect(cmp.diagnostics).toEqual([expect.objectContaining({ code: 'plan.pinned-id-elsewhere' })]);
    expect(cmp.diagnostics[0]!.message).toContain('"a2"');
  });
});
