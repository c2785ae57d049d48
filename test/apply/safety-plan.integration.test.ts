// The archive thresholds are judged when the plan is made, shown to the reviewer in every
// format, recorded in a saved plan, and judged again by apply with the same numbers, against
// the real reference server.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRequests } from '../helpers/server.js';
import { configYaml, useCliWorld, writeConfig, type YamlAction } from './cli-world.js';
import { census } from './world.js';

const w = useCliWorld(900);
const { cli } = w;
const names = (n: number, parsers: string[] = []): YamlAction[] => Array.from({ length: n }, (_, i) => ({ name: `A${i}`, parsers }));
const REFUSAL = 'apply will refuse: 15 of 20 managed resources archived (75%) > 25%: pass --force after review';

/** 20 live actions, a config that keeps 5 of them. */
async function fifteenOfTwenty(): Promise<void> {
  writeConfig(w.dir, configYaml(names(20)));
  expect((await cli(['apply', '--yes'])).code).toBe(0);
  writeConfig(w.dir, configYaml(names(5)));
}

describe('plan says what apply will refuse', () => {
  it('shows the refusal in text, markdown and JSON', async () => {
    await fifteenOfTwenty();
    const text = await cli(['plan', '--prune']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`✗ ${REFUSAL}`);
    const md = await cli(['plan', '--prune', '--format', 'markdown']);
    // GitHub shows `&gt;` as `>`; the text is escaped like every other line of the comment.
    expect(md.stdout).toContain(`> [!CAUTION]\n> ${REFUSAL.replace('>', '&gt;')}`);
    const json = JSON.parse((await cli(['plan', '--prune', '--format', 'json'])).stdout);
    expect(json.safety).toEqual({
      archives: 15, managed: 20, percent: 75, max_archive: 10, max_archive_percent: 25, exceeded: true, force: false, refusal: REFUSAL, protected: [],
    });
  });

  it('a saved plan is refused by apply --plan with the numbers plan showed, then carried out once made with --force', async () => {
    await fifteenOfTwenty();
    expect((await cli(['plan', '--prune', '--out', join(w.dir, 'plan.json')])).code).toBe(0);
    w.server.resetStats();
    const refused = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing to archive 15 of 20 managed resources \(75%\).*plan --force --out FILE/);
    expect(writeRequests(w.server)).toBe(0);

    const forced = await cli(['plan', '--prune', '--force', '--out', join(w.dir, 'plan.json')]);
    expect(forced.stdout).toContain('! --force acknowledged: apply will archive 15 of 20 managed resources (75%)');
    expect(JSON.parse(readFileSync(join(w.dir, 'plan.json'), 'utf8')).safety).toMatchObject({ force: true, refusal: null });
    const applied = await cli(['apply', '--plan', 'plan.json', '--yes', 'menuctl.yaml']);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await census(w.client)).actions.size).toBe(5);
  });

  it('fresh and saved plans count the same managed resources (the parsers of the config\'s actions)', async () => {
    // 20 actions; the 9 kept have 3 parsers each: 11 archives of 20 + 27 = 47 managed (23%), under 25%.
    writeConfig(w.dir, configYaml([...names(9, ['p', 'q', 'r']), ...names(20).slice(9)]));
    expect((await cli(['apply', '--yes'])).code).toBe(0);
    writeConfig(w.dir, configYaml(names(9, ['p', 'q', 'r'])));
    expect((await cli(['plan', '--prune', '--out', join(w.dir, 'plan.json')])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(w.dir, 'plan.json'), 'utf8')).safety).toMatchObject({ archives: 11, managed: 47, exceeded: false });
    // Before the plan recorded its count, apply --plan counted only the parsers of actions the
    // plan touches (none here): 11 of 20, 55%, and refused what a fresh apply allows.
    const saved = await cli(['apply', '--plan', 'plan.json', '--yes']);
    expect(saved.code, saved.stderr).toBe(0);
    expect((await census(w.client)).actions.size).toBe(9);
  });

  it('shows an archive that protected: forbids in every format, exits 1 and saves nothing', async () => {
    const keep = await w.client.createAction({ name: 'Dup', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
    const other = await w.client.createAction({ name: 'Dup', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
    writeConfig(w.dir, configYaml([{ name: 'Dup', extra: `    id: "${keep.id}"\n    protected: true` }]));
    const note = `apply will refuse: action["Dup"] (id ${other.id}) is protected by action["Dup"] and this plan archives it`;
    const text = await cli(['plan', '--prune', '--force', '--out', join(w.dir, 'plan.json')]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`✗ ${note}`);
    expect(text.stderr).toContain('plan.protected-archive'); // located at the config, as before
    expect(text.stderr).toContain('apply would refuse this plan: it archives 1 protected resource (listed above); ');
    expect(existsSync(join(w.dir, 'plan.json'))).toBe(false);
    const md = await cli(['plan', '--prune', '--format', 'markdown']);
    expect(md.stdout).toContain(`> [!CAUTION]\n> ${note}`);
    const json = await cli(['plan', '--prune', '--format', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).safety.protected).toEqual([{ address: 'action["Dup"]', id: other.id, protected_by: 'action["Dup"]' }]);
  });

  it('refuses --max-archive with --plan: the saved plan carries the limits it was reviewed with', async () => {
    writeConfig(w.dir, configYaml(names(1)));
    expect((await cli(['plan', '--out', join(w.dir, 'plan.json')])).code).toBe(0);
    const r = await cli(['apply', '--plan', 'plan.json', '--yes', '--max-archive', '50']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--max-archive shapes a plan when it is made: pass it to `menuctl plan --out`');
  });
});
