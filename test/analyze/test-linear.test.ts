// `menuctl test` answers "no match" in linear time where the backtracking engine would take
// seconds (issue 15 item 7): the automaton of the same Java tree rejects the reply first. Java's own
// verdicts are checked too, so the fast answer is also the right one.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { JavaOracle, javaUnavailable } from '../classify/java-oracle.js';

const file = fileURLToPath(new URL('./fixtures/backtracking.yaml', import.meta.url));

describe('menuctl test on backtracking-prone shapes', () => {
  it('decides every fixture within the default budget, with the answers Java gives', async () => {
    const r = await runCli(['test', file, '--format', 'json']);
    const out = JSON.parse(r.stdout) as { results: { status: string; fixture?: { message: string }; reasons?: string[] }[] } | { status: string }[];
    const results = Array.isArray(out) ? out : out.results;
    expect(results.map((x) => x.status), r.stdout).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(r.code).toBe(0);

    const why = javaUnavailable();
    if (why) throw new Error(why);
    const oracle = JavaOracle.compile();
    try {
      const java = oracle.run([
        { pattern: '(?:\\w+\\s?)*Ksh', message: 'CONFIRMED YOU HAVE RECEIVED MONEY FROM JOHN DOE OF NAIROBI KENYA' },
        { pattern: '(?<name>(?:[A-Z]+\\s?)+)\\d', message: 'CONFIRMED YOU HAVE RECEIVED MONEY FROM JOHN DOE OF NAIROBI KENYA' },
        { pattern: '(?<name>(?:[A-Z]+\\s?)+)\\d', message: 'JOHN DOE 5' },
      ]);
      expect(java.map((j) => j.kind === 'ok' && j.matches)).toEqual([false, false, true]);
      expect(java[2]).toMatchObject({ groups: { name: 'JOHN DOE ' } });
    } finally {
      oracle.dispose();
    }
  }, 30_000);
});
