// The planner with an applied-state record (pure data): what the API does not echo is compared
// against what was applied, apps are matched by recorded id, creates in flight stop the plan.
import { reasonText } from '../../src/plan/reasons.js';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { buildDriftResult } from '../../src/plan/build-drift.js';
import { emptyScope, type ScopeRecord } from '../../src/record/record.js';
import { desired, desiredAction, desiredApp, live, liveAction, liveApp } from './builders.js';

function scope(fill: (s: ScopeRecord) => void): ScopeRecord {
  const s = emptyScope();
  fill(s);
  return s;
}
const applied = (over: Partial<{ id: string; operator_ids: number[] }> = {}) => ({
  id: 'a1', operator_ids: [2172],
  steps: [{ kind: 'press' as const, value: '1', expect: null, description: '' }, { kind: 'pin' as const, description: '' }],
  ...over,
});

describe('plan with a record', () => {
  it('moving an action between two operators of the same name plans an operator_ids update', () => {
    const a = desiredAction({ operators: [{ ref: 1803 }], parsers: [] }); // MTN Cameroon
    const l = live({ actions: [liveAction({ operators: ['MTN'] })] }); // applied: MTN Ghana
    const recorded = { file: 'menuctl.lock', scope: scope((s) => s.actions.set('action["Check balance"]', applied({ operator_ids: [2001] }))) };
    const { plan } = buildPlan(desired({ actions: [a] }), l, { recorded });
    expect(plan.changes.map((c) => [c.op, c.fields])).toEqual([['update', [{ path: 'operator_ids', before: [2001], after: [1803] }]]]);
    expect(plan.warnings).toEqual([]);
  });

  it('a record of another live id says nothing, and the one warning says why', () => {
    const a = desiredAction({ steps: [{ kind: 'press', value: '1', expect: 'Menu' }, { kind: 'pin' }], parsers: [] });
    const l = live({ actions: [liveAction()] });
    const recorded = { file: 'menuctl.lock', scope: scope((s) => s.actions.set('action["Check balance"]', applied({ id: 'other' }))) };
    const { plan } = buildPlan(desired({ actions: [a] }), l, { recorded });
    expect(plan.changes).toEqual([]);
    expect(plan.warnings).toEqual([expect.objectContaining({ code: 'plan.hidden-steps', message: expect.stringMatching(/^1 unchanged action has step details .* menuctl\.lock has no record of them/) })]);
    const drift = buildDriftResult(desired({ actions: [a] }), l, { recorded });
    expect(drift.drift.warnings).toEqual([expect.objectContaining({ code: 'drift.hidden-steps', message: expect.stringMatching(/menuctl\.lock has no record of them/) })]);
  });

  it('trusts a recorded app id only while the live app still has that package_name; an `id:` pin renames it back', () => {
    const l = live({ apps: [liveApp({ id: '7', package_name: 'com.renamed' })], apps_listed: false });
    const recorded = { file: 'menuctl.lock', scope: scope((s) => s.apps.set('app["com.example.agent"]', { id: '7' })) };
    const distrusted = buildPlan(desired({ apps: [desiredApp()] }), l, { recorded });
    expect(distrusted.plan.changes).toEqual([]);
    expect(distrusted.diagnostics.map((d) => [d.severity, d.code, d.address])).toEqual([['warning', 'plan.record-disagrees', 'app["com.example.agent"]']]);
    const pinned = buildPlan(desired({ apps: [desiredApp({ id: '7' })] }), l, { recorded });
    expect(pinned.plan.changes.map((c) => [c.op, c.id, reasonText(c.reasons)])).toEqual([['update', '7', 'renamed from "com.renamed"']]);
  });

  it('a recorded id that an `id:` in the config pins goes to that app: the old package_name, reused in the same change, is a create', () => {
    // Renamed through its pin and the old package_name given to a new app, before any apply moved the line.
    const l = live({ apps: [liveApp({ id: '7', package_name: 'com.example.agent' })], apps_listed: false });
    const recorded = { file: 'menuctl.lock', scope: scope((s) => s.apps.set('app["com.example.agent"]', { id: '7' })) };
    const config = desired({ apps: [desiredApp({ package_name: 'com.example.agent2', id: '7' }), desiredApp({ name: 'New agent' })] });
    const { plan, diagnostics } = buildPlan(config, l, { recorded });
    expect(diagnostics).toEqual([]);
    expect(plan.changes.map((c) => [c.op, c.address, c.id])).toEqual([
      ['create', 'app["com.example.agent"]', null],
      ['update', 'app["com.example.agent2"]', '7'],
    ]);
  });

  it('an app create in flight is held back, alone, only where apps cannot be listed', () => {
    const pending = scope((s) => s.apps.set('app["com.example.agent"]', { id: null, pending: 'create', lost: 'connection reset' }));
    const unlisted = live({ apps_listed: false });
    const recorded = { file: 'menuctl.lock', scope: pending };
    const other = { ...desiredApp(), name: 'Till', package_name: 'com.example.till' };
    const stopped = buildPlan(desired({ apps: [desiredApp(), other] }), unlisted, { recorded });
    expect(stopped.diagnostics).toEqual([]);
    expect(stopped.plan.changes.map((c) => [c.op, c.address])).toEqual([['create', 'app["com.example.till"]']]);
    // The other create goes on, with the warning every unverifiable app create carries (issue 34 item 1).
    expect(stopped.plan.warnings.map((w) => [w.code, w.address])).toEqual([
      ['plan.create-in-flight', 'app["com.example.agent"]'], ['plan.app-create-unverifiable', 'app["com.example.till"]'],
    ]);
    expect(stopped.plan.warnings[0]!.message).toContain('its answer was lost (connection reset)');
    expect(stopped.plan.warnings[0]!.message).toContain('menuctl import \'app["com.example.agent"]\' ID');
    const confirmed = buildPlan(desired({ apps: [desiredApp()] }), unlisted, { recreate: ['app["com.example.agent"]'], recorded });
    expect(confirmed.diagnostics).toEqual([]);
    expect(confirmed.plan.changes.map((c) => c.op)).toEqual(['create']);
    const listed = live({ apps: [] });
    expect(buildPlan(desired({ apps: [desiredApp()] }), listed, { recorded }).diagnostics).toEqual([]);
  });
});
