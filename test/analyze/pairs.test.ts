// Pair claims against real Java 17, property-style: random parsers built from the fragments real
// replies are made of. An overlap or shadowed witness must match both patterns in Java; a pair
// reported as nothing (disjoint) must never both match any sampled reply in Java.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automatonOfPattern } from '../../src/classify/automaton.js';
import { Engine } from '../../src/analyze/engine.js';
import { comparePair, pairFacts, type Analysed } from '../../src/analyze/pairs.js';
import type { DesiredAction, DesiredParser } from '../../src/model/types.js';
import { JavaOracle, javaUnavailable } from '../classify/java-oracle.js';

const WORDS = ['balance', 'Insufficient', 'PIN', 'KES', 'Ksh', 'é', 'É', 'failed'];
const PARTS = ['.*', '\\s', ' ', '\\d+', '[A-Z]+', '\\w+', '(?:is|was)', '\\b', '[\\d,.]+', '(?i:x)?', '$'];

const subject = (regex: string, i: number): Analysed => {
  const parser: DesiredParser = { category: `p${i}`, status: i % 2 ? 'failed' : 'succeeded', target_type: 'ussd', sender: null, regex, user_message: '' };
  const action = { name: 'A', parsers: [parser], tests: [] } as unknown as DesiredAction;
  return { action, parser, automaton: automatonOfPattern(regex) } as Analysed;
};

describe('pair claims vs real Java 17 (random parsers)', () => {
  let oracle: JavaOracle;
  let engine: Engine;
  beforeAll(() => {
    const why = javaUnavailable();
    if (why) throw new Error(why);
    oracle = JavaOracle.compile();
    engine = new Engine();
  });
  afterAll(async () => {
    oracle?.dispose();
    await engine?.close();
  });

  it('every witness matches both in Java; no pair left unreported is matched by both in Java', async () => {
    const token = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...PARTS), fc.constant('.*'));
    const prefix = fc.constantFrom('', '', '(?!.*PIN)', '(?=.*\\d)', '^');
    const pattern = fc.tuple(prefix, fc.array(token, { minLength: 1, maxLength: 5 })).map(([p, ts]) => p + ts.join(''));
    const patterns = fc.sample(pattern, { numRuns: 200, seed: 3 });
    const replies = fc.sample(fc.array(fc.constantFrom(...WORDS, ' ', '12', '1,200.00', 'is', 'ABC', 'x', '\n'), { maxLength: 6 }).map((xs) => xs.join('')), { numRuns: 150, seed: 5 });
    const claims: { a: string; b: string; witness: string }[] = [];
    const silent: { a: string; b: string }[] = [];
    let disjoint = 0;
    for (let i = 0; i + 1 < patterns.length; i += 2) {
      const a = subject(patterns[i]!, i);
      const b = subject(patterns[i + 1]!, i + 1);
      if (!a.automaton.ok || !b.automaton.ok || a.automaton.nfa.isEmpty || b.automaton.nfa.isEmpty) continue;
      const findings = await comparePair(a, b, { engine, fixtures: [] });
      for (const f of findings) if (f.witness !== null) claims.push({ a: a.parser.regex, b: b.parser.regex, witness: f.witness });
      if (findings.length === 0) {
        silent.push({ a: a.parser.regex, b: b.parser.regex });
        const facts = pairFacts(a, b);
        if ('disjoint' in facts && facts.disjoint) disjoint++;
      }
    }
    expect({ claims: claims.length > 5, disjoint: disjoint > 5 }, `${claims.length} witnesses, ${disjoint} disjoint pairs`).toEqual({ claims: true, disjoint: true });
    const cases = [
      ...claims.flatMap((c) => [{ pattern: c.a, message: c.witness }, { pattern: c.b, message: c.witness }]),
      ...silent.flatMap((s) => replies.flatMap((m) => [{ pattern: s.a, message: m }, { pattern: s.b, message: m }])),
    ];
    const java = oracle.run(cases).map((r) => r.kind === 'ok' && r.matches);
    claims.forEach((c, k) => {
      expect([java[2 * k], java[2 * k + 1]], `${c.a} / ${c.b} witness ${JSON.stringify(c.witness)}`).toEqual([true, true]);
    });
    let at = 2 * claims.length;
    for (const s of silent) {
      for (const m of replies) {
        expect(java[at] && java[at + 1], `${s.a} / ${s.b} both match ${JSON.stringify(m)} in Java`).toBe(false);
        at += 2;
      }
    }
  }, 120_000);
});
