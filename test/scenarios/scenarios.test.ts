// Scenario folders: test/scenarios/NNN-name/ with
//   config.yaml          the config (loaded by the real config loader)
//   live.json            the LiveState
//   expected-plan.json   the whole Plan, written by hand
//   options.json         optional: { targets?, prune?, resend? }
//   expected-errors.json optional: [{ code, address }] of the planner's error diagnostics
// Hashes cannot be written by hand: write "<fingerprint>" / "<digest>" and run once with
// SCENARIO_FILL_HASHES=1, which fills ONLY those placeholders, from fingerprint() of the live
// resource with the change's id and configDigest() of the loaded config.
import { readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { fingerprint } from '../../src/model/fingerprint.js';
import type { DesiredState, LiveState } from '../../src/model/types.js';
import { buildPlan, type PlanOptions } from '../../src/plan/build-plan.js';
import { configDigest } from '../../src/plan/digest.js';
import type { Plan } from '../../src/plan/types.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SCENARIOS = readdirSync(HERE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^\d{3}-/.test(d.name))
  .map((d) => d.name)
  .sort();

const readJson = <T>(dir: string, file: string, fallback?: T): T => {
  const path = join(HERE, dir, file);
  if (!existsSync(path) && fallback !== undefined) return fallback;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
};

function loadDesired(dir: string, live: LiveState): DesiredState {
  const text = readFileSync(join(HERE, dir, 'config.yaml'), 'utf8');
  const loaded = loadSources([{ file: 'config.yaml', text }], { env: {}, cwd: join(HERE, dir), catalog: live.operators });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return loaded.state!;
}

function fillHashes(dir: string, expected: Plan, desired: DesiredState, live: LiveState): void {
  for (const c of expected.changes) {
    if (c.fingerprint !== '<fingerprint>') continue;
    const r =
      c.type === 'action' ? fingerprint('action', live.actions.find((a) => a.id === c.id)!)
      : c.type === 'parser' ? fingerprint('parser', live.parsers.find((p) => p.id === c.id)!)
      : fingerprint('app', live.apps.find((a) => a.id === c.id)!);
    c.fingerprint = r;
  }
  if (expected.config_digest === '<digest>') expected.config_digest = configDigest(desired);
  writeFileSync(join(HERE, dir, 'expected-plan.json'), JSON.stringify(expected, null, 2) + '\n');
}

describe('scenarios', () => {
  it('has at least 10 scenarios', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(10);
  });

  for (const dir of SCENARIOS) {
    it(dir, () => {
      const live = readJson<LiveState>(dir, 'live.json');
      const options = readJson<PlanOptions>(dir, 'options.json', {});
      const expected = readJson<Plan>(dir, 'expected-plan.json');
      const expectedErrors = readJson<{ code: string; address?: string }[]>(dir, 'expected-errors.json', []);
      const desired = loadDesired(dir, live);
      if (process.env.SCENARIO_FILL_HASHES === '1') fillHashes(dir, expected, desired, live);

      const { plan, diagnostics } = buildPlan(desired, live, options);
      const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, address: d.address }));
      expect(errors).toEqual(expectedErrors);
      expect(plan).toEqual(expected);
    });
  }
});
