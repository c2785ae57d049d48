// The failure hints of `menuctl test` (classify/explain.ts) are claims about the device's regex
// engine: "matches only the start of the reply", "would match without the line break"... Each claim
// is checked here against real java.util.regex, by the equivalent whole-match question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainMiss } from '../../src/classify/explain.js';
import { RegexSandbox } from '../../src/classify/sandbox.js';
import type { DesiredParser } from '../../src/model/types.js';
import { JavaOracle, javaUnavailable } from '../classify/java-oracle.js';

type Kind = 'prefix' | 'partial' | 'newline' | 'whitespace' | 'none';

const CASES: { regex: string; message: string; kind: Kind }[] = [
  { regex: 'Your balance is (?<b>[\\d,.]+)', message: 'Your balance is 1,200.00 KES. Thank you.', kind: 'prefix' },
  { regex: 'Confirmed\\. (?<code>\\w+)', message: 'CONFIRMED. ab12 extra', kind: 'prefix' },
  { regex: '(a|ab)(c|bcd)', message: 'abcdx', kind: 'prefix' },
  { regex: 'balance is \\d+', message: 'Dear customer, your balance is 5', kind: 'partial' },
  { regex: 'balance is \\d+', message: 'Dear customer, your balance is 5. Bye', kind: 'partial' },
  { regex: 'Balance: .* KES', message: 'Balance: 5\nKES', kind: 'newline' },
  { regex: '.*sent to .*\\. Balance .*', message: 'Ksh5 sent to X.\r\nBalance Ksh1', kind: 'newline' },
  { regex: 'Your balance is \\d+', message: 'Your balance is 5 ', kind: 'whitespace' },
  { regex: 'Your balance is \\d+', message: '\tYour balance is 5', kind: 'whitespace' },
  { regex: 'Your balance is \\d+', message: 'Service unavailable', kind: 'none' },
  { regex: '\\d+ KES', message: 'Total: 12 USD', kind: 'none' },
];

const kindOf = (hints: string[]): Kind => {
  const h = hints[0] ?? '';
  if (h.includes('matches only the start')) return 'prefix';
  if (h.includes('matches only part')) return 'partial';
  if (h.includes('no line breaks')) return 'newline';
  if (h.includes('without the whitespace')) return 'whitespace';
  return 'none';
};

/** The whole-match question in Java that a hint of this kind answers "yes" to. */
function javaProbes(regex: string, message: string): Record<Exclude<Kind, 'none'>, { pattern: string; message: string }> {
  return {
    prefix: { pattern: `(?:${regex})[\\s\\S]+`, message },
    partial: { pattern: `[\\s\\S]+?(?:${regex})[\\s\\S]*`, message },
    newline: { pattern: regex, message: message.replace(/\r\n|[\n\r\u0085\u2028\u2029]/g, ' ') },
    whitespace: { pattern: regex, message: message.trim() },
  };
}

const parser = (regex: string): DesiredParser => ({ category: 'p', status: 'succeeded', target_type: 'ussd', sender: null, regex, user_message: '' });

describe('failure hints', () => {
  let sandbox: RegexSandbox;
  const ours: Kind[] = [];
  beforeAll(async () => {
    sandbox = new RegexSandbox(1000);
    for (const c of CASES) ours.push(kindOf(await explainMiss(sandbox, { text: c.message, channel: 'ussd' }, [parser(c.regex)], { crossChannel: true })));
  });
  afterAll(() => sandbox.close());

  it('give the expected hint for each case', () => {
    expect(ours).toEqual(CASES.map((c) => c.kind));
  });

  const unavailable = javaUnavailable();
  it.runIf(process.env.CI === 'true')('Java is available in CI for the cross-check', () => {
    expect(unavailable).toBeNull();
  });

  describe.skipIf(unavailable !== null)(`agree with real Java${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let oracle: JavaOracle;
    beforeAll(() => { oracle = JavaOracle.compile(); }, 60_000);
    afterAll(() => oracle?.dispose());

    it('every hint given is true on the JVM, and no hint is missing where the JVM says one holds', () => {
      const kinds = Object.keys(javaProbes('', '')) as Exclude<Kind, 'none'>[];
      // Per case: each probe, then the whole message as the device sees it; one JVM run for all.
      const per = kinds.length + 1;
      const questions = CASES.flatMap((c) => [...Object.values(javaProbes(c.regex, c.message)), { pattern: c.regex, message: c.message }]);
      const answers = oracle.run(questions);
      const yes = (i: number) => { const a = answers[i]!; return a.kind === 'ok' && a.matches; };
      CASES.forEach((c, i) => {
        const what = `${c.regex} on ${JSON.stringify(c.message)}`;
        expect(yes(i * per + kinds.length), `${what}: the fixture fails on the device too`).toBe(false);
        const holds = kinds.filter((_, k) => yes(i * per + k));
        if (c.kind === 'none') expect(holds, what).toEqual([]);
        else expect(holds, what).toContain(c.kind);
      });
    });
  });
});
