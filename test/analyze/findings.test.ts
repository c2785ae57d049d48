// What analyze keeps of its findings until the report (analyze.ts, finding.ts): the report's
// order, the same finding in several environments reported once, and nothing lost or merged
// between actions.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze/analyze.js';
import { FINDING_KINDS, type Finding } from '../../src/analyze/types.js';
import { loadSources } from '../../src/config/load.js';

const address = (action: string, category: string) => `action[${JSON.stringify(action)}].parser[${JSON.stringify(category)}]`;

async function analyzeTexts(files: { file: string; text: string }[]) {
  const loaded = loadSources(files, { env: {}, cwd: '/' });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return analyze(loaded.perEnvironment?.flatMap((e) => (e.state ? [e.state] : [])) ?? loaded.state!);
}

/** What the report reads of a finding, as plain data. */
const plain = (f: Finding) => ({ kind: f.kind, severity: f.severity, parsers: f.parsers, witness: f.witness, message: f.message, location: f.location });

function action(name: string, parsers: string[], tests: string[] = []): string {
  return [`  - name: ${name}`, `    root_code: "*${name.length}#"`, '    transport_type: ussd', '    operators: [2172]', '    parsers:', ...parsers, ...(tests.length ? ['    tests:', ...tests] : [])].join('\n');
}

const parser = (category: string, regex: string, status = 'failed') => `      - { category: ${category}, status: ${status}, regex: '${regex}' }`;

describe('analyze findings', () => {
  it('are reported errors first, then by kind, then by file, line and column; findings at one place keep the order found', async () => {
    // b.yaml is read first; its findings sort after a.yaml's. Three actions share one parser list
    // (an anchor): their findings are at the same place, and come in the order of the actions.
    const shared = ['version: 1', 'actions:',
      '  - name: Shared 0', '    root_code: "*7#"', '    transport_type: ussd', '    operators: [2172]', '    parsers: &p',
      parser('any', '.*fail.*'), parser('low', 'fail low.*'), parser('dead', 'a\\bb'),
      '  - name: Shared 1', '    root_code: "*8#"', '    transport_type: ussd', '    operators: [2172]', '    parsers: *p',
      '  - name: Shared 2', '    root_code: "*9#"', '    transport_type: ussd', '    operators: [2172]', '    parsers: *p', ''].join('\n');
    const many = ['version: 1', 'actions:', ...Array.from({ length: 12 }, (_, i) => action(`Many ${i}`, [parser('one', `one ${i}.*`), parser('two', `two ${i}.*`)], [`      - { message: 'one ${i}', expect: { category: one } }`])), ''].join('\n');
    const { findings, summary } = await analyzeTexts([{ file: 'b.yaml', text: shared }, { file: 'a.yaml', text: many }]);
    const list = findings.map(plain);
    const rank = { error: 0, warning: 1, info: 2 };
    const order = (f: ReturnType<typeof plain>) => [rank[f.severity], FINDING_KINDS.indexOf(f.kind), f.location!.file, f.location!.line, f.location!.col] as const;
    for (let i = 1; i < list.length; i++) {
      const [x, y] = [order(list[i - 1]!), order(list[i]!)];
      const cmp = x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0) || x[3] - y[3] || x[4] - y[4];
      expect(cmp, `${JSON.stringify(list[i - 1])} before ${JSON.stringify(list[i])}`).toBeLessThanOrEqual(0);
    }
    expect(list.filter((f) => f.kind === 'dead').map((f) => f.parsers[0])).toEqual([0, 1, 2].map((i) => address(`Shared ${i}`, 'dead')));
    expect(list.filter((f) => f.kind === 'shadowed').map((f) => f.parsers)).toEqual([0, 1, 2].map((i) => [address(`Shared ${i}`, 'low'), address(`Shared ${i}`, 'any')]));
    // Lines 9 and 10 and on, in a.yaml: by number, not as text.
    const uncovered = list.filter((f) => f.kind === 'uncovered');
    expect(uncovered.slice(0, 12).map((f) => f.parsers[0])).toEqual(Array.from({ length: 12 }, (_, i) => address(`Many ${i}`, 'two')));
    expect(uncovered.slice(0, 12).every((f) => f.location!.file === 'a.yaml')).toBe(true);
    expect(summary).toEqual({ parsers: 33, analysed: 33 });
    // What the report reads is plain data: JSON sees every field.
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
  });

  it('a finding several environments share is reported once; one that differs, or is at another place, for each', async () => {
    const text = ['version: 1',
      'environments:', '  staging: { organization_id: 81, variables: { WORD: Hello } }', '  production: { organization_id: 82, variables: { WORD: Hi } }',
      'actions:',
      // Reads alike in both: analysed once.
      action('Same', [parser('never', 'a\\bb'), parser('fine', 'fine .*')]),
      // A pattern with the environment's word: both overlaps (their witnesses differ); its dead
      // parser once.
      action('Word', [parser('hello', 'X ${WORD} .*', 'succeeded'), parser('there', '.*${WORD} there'), parser('never', 'a\\bb')]),
      // One name, one action per environment (they read differently), the same dead pattern at
      // two places: both.
      action('Split', [parser('never', 'a\\bb')]).replace('    transport_type', '    environments: [staging]\n    transport_type'),
      action('Split', [parser('never', 'a\\bb'), parser('fine', 'fine .*')]).replace('    transport_type', '    environments: [production]\n    transport_type'),
      ''].join('\n');
    const { findings, summary } = await analyzeTexts([{ file: 'env.yaml', text }]);
    const list = findings.map(plain);
    const said = list.map((f) => `${f.kind} ${f.parsers.join(' ')} ${f.witness ?? ''} ${f.location?.line}`.trim());
    expect(said.filter((s) => s.startsWith(`dead ${address('Same', 'never')}`))).toHaveLength(1);
    expect(said.filter((s) => s.startsWith(`dead ${address('Word', 'never')}`))).toHaveLength(1);
    expect(list.filter((f) => f.kind === 'overlap').map((f) => f.witness)).toEqual(['X Hello Hello there', 'X Hi Hi there']);
    const split = list.filter((f) => f.kind === 'dead' && f.parsers[0] === address('Split', 'never')).map((f) => f.location!.line);
    expect(split).toHaveLength(2);
    expect(split[0]).not.toBe(split[1]);
    // Same once, Word in both environments, Split once in each.
    expect(summary).toEqual({ parsers: 2 + 3 + 3 + 1 + 2, analysed: 11 });
  });

  it('the same actions in two states (the very objects) are analysed once', async () => {
    const text = ['version: 1', 'actions:', action('One', [parser('never', 'a\\bb'), parser('any', '.*')]), action('Two', [parser('x', 'x.*'), parser('xy', 'xy.*')]), ''].join('\n');
    const state = loadSources([{ file: 'one.yaml', text }], { env: {}, cwd: '/' }).state!;
    const once = await analyze(state);
    const twice = await analyze([state, state]);
    expect(once.findings.length).toBeGreaterThan(3);
    expect(twice.findings.map(plain)).toEqual(once.findings.map(plain));
    expect(twice.summary).toEqual(once.summary);
  });
});
