// No input size crashes validation: a config of 125,000 actions (generated in memory) either
// loads or fails with one located diagnostic per problem, never a stack overflow.
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';

const ACTIONS = 125_000;

/** One flow-style action per line: quick to generate and to parse. */
function config(action: (i: number) => string): string {
  const lines = ['version: 1', 'actions:'];
  for (let i = 0; i < ACTIONS; i++) lines.push(`  - ${action(i)}`);
  return `${lines.join('\n')}\n`;
}

const load = (text: string) => loadSources([{ file: 'big.yaml', text }], { env: {}, cwd: '/' });

describe(`a config of ${ACTIONS.toLocaleString('en')} actions`, () => {
  it('loads when valid', () => {
    const r = load(config((i) => `{ name: A${i}, root_code: "*1${i}#", transport_type: ussd, operators: [2172], steps: [pin] }`));
    expect(r.diagnostics).toEqual([]);
    expect(r.state?.actions).toHaveLength(ACTIONS);
  }, 120_000);

  it('reports every broken action at its line when each one has an error', () => {
    const r = load(config((i) => `{ name: A${i}, root_code: "*1${i}#", operators: [2172] }`));
    expect(r.state).toBeNull();
    expect(r.diagnostics).toHaveLength(ACTIONS);
    expect(r.diagnostics.every((d) => d.code === 'schema.required' && d.message.includes('`transport_type`'))).toBe(true);
    const last = r.diagnostics[ACTIONS - 1]!;
    expect(last.loc).toEqual({ file: 'big.yaml', line: ACTIONS + 2, col: 5 });
    expect(last.address).toBe(`action["A${ACTIONS - 1}"]`);
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
