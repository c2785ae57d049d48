// Scenario folders: test/scenarios/NNN-name/ with
//   config.yaml          the config (loaded by the real config loader)
//   live.json            the LiveState
//   expected-plan.json   the whole Plan, written by hand
//   options.json         optional: { targets?, prune?, resend? }
//   expected-errors.json optional: [{ code, address }] of the planner's error diagnostics
// Hashes are masked: a golden says "<fingerprint>" / "<digest>", and the test checks each one
// against fingerprint() of the live resource with the change's id and configDigest() of the
// loaded config, so a change to the canonical form does not churn every golden.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { fingerprint } from '../../src/model/fingerprint.js';
import { kindOf } from '../../src/model/kinds/index.js';
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

/**
 * The plan with its hashes replaced by the placeholders, each after checking it is the hash of
 * what it names: a fingerprint of the live resource the change was planned against (null for
 * creates), the digest of the loaded config.
 */
function maskHashes(plan: Plan, desired: DesiredState, live: LiveState): Plan {
  expect(plan.config_digest).toBe(configDigest(desired));
  const changes = plan.changes.map((c) => {
    if (c.id === null) {
      expect(c.fingerprint, c.address).toBeNull();
      return c;
    }
    const resource = kindOf(c.type).liveIn(live).find((r: { id: string }) => r.id === c.id);
    expect(c.fingerprint, c.address).toBe(fingerprint(c.type, resource));
    return { ...c, fingerprint: '<fingerprint>' };
  });
  return { ...plan, config_digest: '<digest>', changes };
}

describe('scenarios', () => {
  for (const dir of SCENARIOS) {
    it(dir, () => {
      const live = readJson<LiveState>(dir, 'live.json');
      const options = readJson<PlanOptions>(dir, 'options.json', {});
      const expected = readJson<Plan>(dir, 'expected-plan.json');
      const expectedErrors = readJson<{ code: string; address?: string }[]>(dir, 'expected-errors.json', []);
      const desired = loadDesired(dir, live);

      const { plan, diagnostics } = buildPlan(desired, live, options);
      const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, address: d.address }));
      expect(errors).toEqual(expectedErrors);
      expect(maskHashes(plan, desired, live)).toEqual(expected);
    });
  }
});
