// No input size crashes validation: a config of 125,000 actions (generated in memory) loads
// (it overflowed the stack before), and a large broken one fails with one located diagnostic per
// problem. The broken one is smaller: locating every finding parses the file again with `yaml`,
// and a test that blocks its worker for long starves vitest's own messages on a loaded machine.
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';

const ACTIONS = 125_000;
const BROKEN = 10_000;

/** One flow-style action per line: quick to generate and to parse. */
function config(action: (i: number) => string, count = ACTIONS): string {
  const lines = ['version: 1', 'actions:'];
  for (let i = 0; i < count; i++) lines.push(`  - ${action(i)}`);
  return `${lines.join('\n')}\n`;
}

const load = (text: string) => loadSources([{ file: 'big.yaml', text }], { env: {}, cwd: '/' });

describe('a config of many actions', () => {
  it(`loads ${ACTIONS.toLocaleString('en')} valid actions`, () => {
    const r = load(config((i) => `{ name: A${i}, root_code: "*1${i}#", transport_type: ussd, operators: [2172], steps: [pin] }`));
    expect(r.diagnostics).toEqual([]);
    expect(r.state?.actions).toHaveLength(ACTIONS);
  }, 120_000);

  it(`reports each of ${BROKEN.toLocaleString('en')} broken actions at its line`, () => {
    const r = load(config((i) => `{ name: A${i}, root_code: "*1${i}#", operators: [2172] }`, BROKEN));
    expect(r.state).toBeNull();
    expect(r.diagnostics).toHaveLength(BROKEN);
    expect(r.diagnostics.every((d) => d.code === 'schema.required' && d.message.includes('`transport_type`'))).toBe(true);
    const last = r.diagnostics[BROKEN - 1]!;
    expect(last.loc).toEqual({ file: 'big.yaml', line: BROKEN + 2, col: 5 });
    expect(last.address).toBe(`action["A${BROKEN - 1}"]`);
  }, 120_000);
});

describe('deeply nested input', () => {
  it.each([
    ['flow', `version: 1\nactions: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`],
    ['block', ['version: 1', 'x:', ...Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i + 1)}- `)].join('\n')],
  ])('%s nesting fails with a located error that says what to do, not a crash', (_, text) => {
    const r = load(text);
    expect(r.state).toBeNull();
    expect(new Set(r.diagnostics.map((d) => d.code))).toEqual(new Set(['yaml.syntax']));
    expect(r.diagnostics[0]!.message).toContain('nested hundreds of levels deep');
    expect(r.diagnostics[0]!.loc?.line).toBeGreaterThan(1);
  });
});
