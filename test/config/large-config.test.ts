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
