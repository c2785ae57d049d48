// The parser automata against real java.util.regex (Java 17): where an automaton says it is exact,
// it accepts exactly the messages Java's matches() accepts; where it over-approximates, it accepts
// at least those. So "dead" (empty automaton) and "disjoint" (empty intersection) claims can never
// contradict Java. Fixed cases for each device rule, then random small patterns (fast-check).
import fc from 'fast-check';
import { isDisjointWith } from 'refa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automatonOfPattern, automatonOfTree, wordOf, type PatternAutomaton } from '../../src/classify/automaton.js';
import { readableWord } from '../../src/analyze/witness.js';
import { JavaOracle, javaUnavailable, type JavaResult } from '../classify/java-oracle.js';

type Ok = PatternAutomaton & { ok: true };

/** [pattern, messages, expected exactness] for each rule of the device. */
const RULES: [string, string[], boolean][] = [
  ['É', ['É', 'é', 'e'], true], // ASCII-only case folding
  ['(?i)é', ['É', 'é'], true],
  ['abc', ['ABC', 'aBc', 'abc ', 'ab'], true],
  ['a.b', ['a\nb', 'a\rb', 'a\u0085b', 'a\u2028b', 'a\u2029b', 'axb', 'a\u00e9b'], true],
  ['(?s)a.b', ['a\nb', 'a\u0085b'], true],
  ['a\\sb', ['a b', 'a\u000bb', 'a\u00a0b', 'a\tb'], true],
  ['\\w+', ['abc_9', 'é', 'a-b'], true],
  ['\\d+', ['123', '\u0663'], true],
  ['abc$', ['abc', 'abc\n', 'abc\r\n', 'abc\n\n'], true],
  ['abc$\\n', ['abc\n', 'abc\r\n'], true],
  ['abc$\\r\\n', ['abc\r\n'], true],
  ['(?m)a$\\nb', ['a\nb', 'a\r\nb'], true],
  ['(?m)a\\n^b', ['a\nb'], true],
  ['^a|b$', ['a', 'b'], true],
  ['a^b', ['ab', 'a\nb'], true],
  ['\\bUGX\\b\\d+', ['UGX 5', 'UGX5', 'UGX'], false],
  ['.*\\bfoo\\b.*', ['a foo b', 'afoob', 'foo', 'éfooé', '_foo'], false],
  ['foo\\B.*', ['foobar', 'foo bar', 'foo'], false],
  ['(?=.*\\d)\\w+', ['abc1', 'abc'], true], // a leading look-ahead is an intersection
  ['(?!abc)\\w+', ['abc', 'abd', 'abcd'], true], // a leading negative look-ahead is a complement
  ['(?!.*insufficient).*balance.*', ['your balance', 'insufficient balance', 'balance insufficient'], true],
  ['^(?=.*\\bPIN\\b)(?!.*wrong).*', ['PIN ok', 'wrong PIN', 'PINs'], false],
  ['x(?!abc)\\w+', ['xabc', 'xabd'], false], // not at the start: refa cannot resolve it, dropped
  ['(?!a$)\\w+\\n?', ['a', 'a\n', 'ab'], false],
  ['(?!a*+b)\\w+', ['aab', 'aac'], false],
  ['a*+a', ['aa', 'a'], false],
  ['(?>a|ab)c', ['abc', 'ac'], false],
  ['(a)\\1', ['aa', 'ab'], false],
  ['(?<=a)b', ['b', 'ab'], false],
  ['a\\Rb', ['a\r\nb', 'a\nb', 'a\u2028b', 'a\r\rb'], false],
  ['(?:\\w+\\s?)*Ksh', ['hello there Ksh', 'hello there Kes'], true],
  ['(?<name>(?:[A-Z]+\\s?)+)\\d', ['JOHN DOE 5', 'JOHN DOE'], true],
  ['x{2,3}y{0}', ['xx', 'xxx', 'xxxx'], true],
];

const unavailable = javaUnavailable();

function build(pattern: string): Ok {
  const a = automatonOfPattern(pattern);
  if (!a.ok) throw new Error(`${pattern}: ${a.reason}`);
  return a;
}

/** Java's verdicts for every (pattern, message), in one JVM run. */
function javaMatches(oracle: JavaOracle, cases: { pattern: string; message: string }[]): (boolean | null)[] {
  return oracle.run(cases).map((r: JavaResult) => (r.kind === 'ok' ? r.matches : null));
}

describe('parser automata vs real Java 17', () => {
  let oracle: JavaOracle;
  beforeAll(() => {
    // A cross-check that silently skips proves nothing: fail and say how to get Java.
    if (unavailable) throw new Error(unavailable);
    oracle = JavaOracle.compile();
  });
  afterAll(() => oracle?.dispose());

  it('each device rule: exact automata agree with Java, approximations accept at least what Java does', () => {
    const cases = RULES.flatMap(([pattern, messages]) => messages.map((message) => ({ pattern, message })));
    const java = javaMatches(oracle, cases);
    cases.forEach((c, i) => {
      const a = build(c.pattern);
      const ours = a.nfa.test(wordOf(c.message));
      const expected = RULES.find(([p]) => p === c.pattern)![2];
      expect(a.exact, `${c.pattern} exactness (${a.approximations.join('; ')})`).toBe(expected);
      if (a.exact) expect(ours, `${c.pattern} on ${JSON.stringify(c.message)}`).toBe(java[i]);
      else if (java[i]) expect(ours, `${c.pattern} on ${JSON.stringify(c.message)} (superset)`).toBe(true);
    });
  });

  it('a dead pattern is dead in Java: \\bUGX\\b\\d+ never matches', () => {
    expect(build('\\bUGX\\b\\d+').nfa.isEmpty).toBe(true);
    expect(build('a^b').nfa.isEmpty).toBe(true);
    expect(build('abc$x').nfa.isEmpty).toBe(true);
    expect(build('UGX\\b \\d+').nfa.isEmpty).toBe(false);
  });

  it('random small patterns: no claim (dead, disjoint, exact) contradicts Java on sampled messages', () => {
    const ALPHABET = ['a', 'A', 'b', 'É', 'é', ' ', '0', '\n', '_'];
    const atom = fc.constantFrom('a', 'b', 'A', 'É', 'é', ' ', '0', '\\d', '\\w', '\\s', '\\W', '.', '[ab]', '[^a]', '[a-z]', '\\b', '\\B', '^', '$', '\\n');
    const { pattern } = fc.letrec((tie) => ({
      pattern: fc.oneof({ depthSize: 'small', withCrossShrink: true }, atom, tie('seq'), tie('alt'), tie('quant'), tie('group')),
      seq: fc.array(tie('pattern'), { minLength: 2, maxLength: 3 }).map((xs) => (xs as string[]).join('')),
      alt: fc.tuple(tie('pattern'), tie('pattern')).map(([x, y]) => `(?:${x as string}|${y as string})`),
      quant: fc.tuple(tie('pattern'), fc.constantFrom('*', '+', '?', '{1,2}', '*+', '*?', '++')).map(([x, q]) => `(?:${x as string})${q}`),
      group: fc.tuple(fc.constantFrom('(?=', '(?!', '(?>', '(', '(?-i:'), tie('pattern')).map(([g, x]) => `${g}${x as string})`),
    }));
    const patterns = fc.sample(pattern as fc.Arbitrary<string>, { numRuns: 120, seed: 12 });
    const messages = fc.sample(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 5 }).map((cs) => cs.join('')), { numRuns: 40, seed: 7 });
    const built = patterns.map((p) => ({ p, a: automatonOfPattern(p) }));
    const cases: { pattern: string; message: string; k: number }[] = [];
    built.forEach(({ p, a }, k) => {
      // Besides the random messages, one the automaton itself proposes: an exact automaton must
      // not claim a message Java refuses.
      const own = a.ok && !a.nfa.isEmpty ? [readableWord(a)!] : [];
      for (const message of [...messages, ...own]) cases.push({ pattern: p, message, k });
    });
    const java = javaMatches(oracle, cases);
    let exactChecks = 0;
    const matchedBy = new Map<number, Set<string>>();
    cases.forEach((c, i) => {
      const a = built[c.k]!.a;
      if (java[i] === null || !a.ok) return;
      const ours = a.nfa.test(wordOf(c.message));
      const where = `${c.pattern} on ${JSON.stringify(c.message)}`;
      if (a.exact) { expect(ours, where).toBe(java[i]); exactChecks++; }
      else if (java[i]) expect(ours, `${where} (superset)`).toBe(true);
      if (java[i]) (matchedBy.get(c.k) ?? matchedBy.set(c.k, new Set()).get(c.k)!).add(c.message);
    });
    expect(exactChecks).toBeGreaterThan(1000);
    // Disjointness claims between neighbours: no message matched by both in Java.
    for (let k = 0; k + 1 < built.length; k++) {
      const x = built[k]!.a;
      const y = built[k + 1]!.a;
      if (!x.ok || !y.ok || !isDisjointWith(x.nfa, y.nfa)) continue;
      const both = [...(matchedBy.get(k) ?? [])].filter((m) => matchedBy.get(k + 1)?.has(m));
      expect(both, `${built[k]!.p} and ${built[k + 1]!.p} were claimed disjoint`).toEqual([]);
    }
  }, 120_000);
});

describe('what the automata refuse to decide', () => {
  it('a pattern over the state budget is not analysed, with the reason', () => {
    const a = automatonOfPattern('(?:x.{0,30000})+y');
    expect(a).toEqual({ ok: false, reason: expect.stringContaining('more than 20000 states') });
  });

  it('a node kind it does not know (src/classify grows new ones) is not analysed rather than guessed', () => {
    const a = automatonOfTree({ type: 'seq', at: 0, items: [{ type: 'grapheme-cluster', at: 0 } as never] });
    expect(a).toEqual({ ok: false, reason: 'the pattern construct "grapheme-cluster" is not known to the analysis' });
  });

  it('what src/classify marks unfaithful (\\X, comments mode) is not analysed', () => {
    expect(automatonOfPattern('\\X')).toMatchObject({ ok: false, reason: expect.stringContaining('\\X') });
    expect(automatonOfPattern('(?x)a b')).toMatchObject({ ok: false });
  });
});
