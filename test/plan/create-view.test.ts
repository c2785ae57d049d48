// A create is a view of its pair (plan/changes.ts createChange), and a parser to be created has a
// pair that works out its resolved form when read (plan/compare.ts CreatedParserPair): both must
// read exactly as the plain objects they replace, to JSON, keys, spreads and field reads, whatever
// the config and whichever of its actions are live.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/model/kinds/index.js';
import { resolveParser } from '../../src/model/canonical.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { CreatedParserPair, type Pair, type ParserPair } from '../../src/plan/compare.js';
import { operatorNamer } from '../../src/plan/operators.js';
import { desired, desiredAction, desiredApp, desiredParser, live, liveAction, liveParser } from './builders.js';

const NAMES = ['Balance', 'Airtime', 'Send money'];
const CATEGORIES = ['balance', 'wrong-pin', 'pending'];

const configArb = fc.record({
  actions: fc.uniqueArray(fc.record({
    name: fc.constantFrom(...NAMES),
    isLive: fc.boolean(),
    parsers: fc.uniqueArray(fc.record({
      category: fc.constantFrom(...CATEGORIES),
      isLive: fc.boolean(),
      target_type: fc.constantFrom<'ussd' | 'sms'>('ussd', 'sms'),
      user_message: fc.constantFrom('', 'Balance: {amount}'),
      sender: fc.constantFrom('MPESA', null),
    }), { selector: (p) => p.category, maxLength: 3 }),
  }), { selector: (a) => a.name, maxLength: 3 }),
  apps: fc.uniqueArray(fc.constantFrom('com.example.one', 'com.example.two'), { maxLength: 2 }),
});

/** A create as the plain object it stands for, from its pair: every key in its place, its values worked out once. */
function plainCreate(pair: Pair, nameOf: (id: number) => string): Record<string, unknown> {
  const sent = pair.type === 'parser' ? resolveParser(pair.desired) : pair.spec;
  const fields = Object.entries(kindOf(pair.type).canonical(sent as never, nameOf)).map(([path, after]) => ({ path, before: null, after }));
  return {
    op: 'create', id: null, address: pair.address, fingerprint: null, fields, type: pair.type, desired: sent,
    ...(pair.type === 'parser' ? { parent: pair.parent, action_id: pair.actionId } : {}),
  };
}

/** A parser pair as plain data, every field read through. */
const plainPair = (p: ParserPair) => ({
  type: p.type, address: p.address, parent: p.parent, desired: p.desired, spec: p.spec, live: p.live, actionId: p.actionId, fields: p.fields, via: p.via,
});

describe('creates and the pairs of parsers to be created', () => {
  it('read as plain data: JSON, keys, spreads and every field', () => {
    let creates = 0;
    let createdPairs = 0;
    fc.assert(fc.property(configArb, (c) => {
      const liveActions = c.actions.flatMap((a, i) => (a.isLive ? [liveAction({ id: `a${i}`, name: a.name })] : []));
      const liveParsers = c.actions.flatMap((a, i) => (a.isLive
        ? a.parsers.filter((p) => p.isLive).map((p, j) => liveParser({ id: `p${i}-${j}`, action_id: `a${i}`, category: p.category }))
        : []));
      const d = desired({
        actions: c.actions.map((a) => desiredAction({
          name: a.name,
          parsers: a.parsers.map((p) => desiredParser({
            category: p.category, target_type: p.target_type, user_message: p.user_message,
            sender: p.target_type === 'sms' ? (p.sender ?? 'MPESA') : p.sender,
          })),
        })),
        apps: c.apps.map((pkg) => desiredApp({ package_name: pkg })),
      });
      const l = live({ actions: liveActions, parsers: liveParsers });
      const { plan, comparison } = buildPlan(d, l);
      const nameOf = operatorNamer(l.operators);

      for (const change of plan.changes.filter((x) => x.op === 'create')) {
        creates++;
        const expected = plainCreate(comparison.pairs.find((p) => p.address === change.address)!, nameOf);
        expect(JSON.stringify(change)).toBe(JSON.stringify(expected));
        expect(Object.keys(change)).toEqual(Object.keys(expected));
        expect({ ...change }).toEqual(expected);
        expect(Object.getOwnPropertySymbols({ ...change })).toEqual([]);
      }

      for (const pair of comparison.pairs as Pair[]) {
        if (!(pair instanceof CreatedParserPair)) continue;
        createdPairs++;
        const action = comparison.pairs.find((p) => p.type === 'action' && p.address === pair.parent)!;
        expect(plainPair(pair)).toEqual({
          type: 'parser',
          address: `${action.address}.parser[${JSON.stringify(pair.desired.category)}]`,
          parent: action.address,
          desired: pair.desired,
          spec: resolveParser(pair.desired),
          live: null,
          actionId: action.live?.id ?? null,
          fields: [],
          via: undefined,
        });
        expect('via' in pair).toBe(false);
        // What a create sends is read fresh, and always the same.
        expect(pair.spec).toEqual(pair.spec);
      }
    }), { numRuns: 400, seed: 91 });
    // Not vacuous.
    expect(creates).toBeGreaterThan(400);
    expect(createdPairs).toBeGreaterThan(200);
  });

  it('a parser matched live keeps a plain pair: only a parser to be created is a view', () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'balance' }), desiredParser({ category: 'pending' })] })] });
    const l = live({ actions: [liveAction()], parsers: [liveParser({ category: 'balance', regex: 'other.*' })] });
    const { comparison } = buildPlan(d, l);
    const parsers = comparison.pairs.filter((p) => p.type === 'parser');
    expect(parsers.map((p) => [p.address.endsWith('["balance"]'), p instanceof CreatedParserPair])).toEqual([[true, false], [false, true]]);
  });
});
