// checkAgainstConfig on the scenario folders (config + live state + options): every honest plan,
// through the plan file and back, is what its config plans (renames, restores, pins, --prune,
// --target, --resend); edited ones are not, each named with why.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkAgainstConfig } from '../../src/apply/against-config.js';
import { loadSources } from '../../src/config/load.js';
import type { DesiredState, LiveState } from '../../src/model/types.js';
import { buildPlan, type PlanOptions } from '../../src/plan/build-plan.js';
import { parsePlan, serializePlan } from '../../src/plan/plan-file.js';
import type { Change, Plan } from '../../src/plan/types.js';

const SCENARIOS = join(dirname(fileURLToPath(import.meta.url)), '../scenarios');
const read = <T>(dir: string, file: string, fallback?: T): T =>
  existsSync(join(SCENARIOS, dir, file)) || fallback === undefined ? JSON.parse(readFileSync(join(SCENARIOS, dir, file), 'utf8')) as T : fallback;

function scenario(dir: string): { desired: DesiredState; live: LiveState; plan: Plan } {
  const live = read<LiveState>(dir, 'live.json');
  const text = readFileSync(join(SCENARIOS, dir, 'config.yaml'), 'utf8');
  const desired = loadSources([{ file: 'config.yaml', text }], { env: {}, cwd: join(SCENARIOS, dir), catalog: live.operators }).state!;
  const options = read<PlanOptions>(dir, 'options.json', {});
  const { plan } = buildPlan(desired, live, { ...options, thresholds: { maxArchive: 10, maxArchivePercent: 25 } });
  // Through the file and back, as apply --plan sees it.
  return { desired, live, plan: parsePlan(serializePlan(plan)) };
}

const honest = readdirSync(SCENARIOS).filter((d) => /^\d{3}-/.test(d) && !existsSync(join(SCENARIOS, d, 'expected-errors.json'))).sort();

describe('checkAgainstConfig', () => {
  it.each(honest)('passes the plan %s makes', (dir) => {
    const { desired, live, plan } = scenario(dir);
    expect(checkAgainstConfig(plan, desired, live)).toMatchObject({ ok: true, unplanned: [], errors: [] });
  });

  const edited = (dir: string, edit: (changes: Change[]) => void) => {
    const { desired, live, plan } = scenario(dir);
    edit(plan.changes);
    return checkAgainstConfig(plan, desired, live);
  };

  it('refuses changed desired values, naming what differs', () => {
    const r = edited('003-update-fields', (changes) => {
      const c = changes.find((x) => x.type === 'action' && x.op === 'update')!;
      if (c.op === 'update' && c.type === 'action') c.desired = { ...c.desired, root_code: '*999#' };
    });
    expect(r.ok).toBe(false);
    expect(r.unplanned).toEqual([{ address: 'action["Check balance"]', why: 'not what the config plans: its desired differ from what the config plans now' }]);
  });

  it('refuses an update re-aimed at another live id', () => {
    const r = edited('003-update-fields', (changes) => { changes.find((x) => x.op === 'update')!.id = 'zz'; });
    expect(r.unplanned[0]!.why).toMatch(/the config plans no update of (action|parser|app) id zz at this address/);
  });

  it('refuses a --resend that was not asked for, and a --prune archive added without --prune', () => {
    const resent = edited('003-update-fields', (changes) => { Object.assign(changes[0]!, { forced: true }); });
    expect(resent.ok).toBe(false);
    const { desired, live, plan } = scenario('008-prune');
    const archive = plan.changes.find((c) => c.op === 'archive' && c.type === 'action')!;
    const r = checkAgainstConfig({ ...plan, prune: false, changes: [archive] }, desired, live);
    expect(r.unplanned).toEqual([{ address: archive.address, why: `not what the config plans: the config plans no archive of action id ${archive.id} at this address` }]);
  });
});
