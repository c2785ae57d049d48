// --target scoping and the deterministic order of changes.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { desired, desiredAction, desiredApp, desiredParser, live, liveAction, liveApp, liveParser } from './builders.js';

const errors = (r: ReturnType<typeof buildPlan>) => r.diagnostics.filter((d) => d.severity === 'error');

function world() {
  return {
    d: desired({
      actions: [
        desiredAction({ root_code: '*2#', parsers: [desiredParser({ regex: 'x' }), desiredParser({ category: 'new' })] }),
        desiredAction({ name: 'Other', root_code: '*9#', parsers: [desiredParser({ regex: 'y' })] }),
        desiredAction({ name: 'Fresh', parsers: [desiredParser(), desiredParser({ category: 'b' })] }),
      ],
      apps: [desiredApp({ name: 'Renamed app' })],
    }),
    l: live({
      actions: [liveAction(), liveAction({ id: 'a2', name: 'Other' }), liveAction({ id: 'a3', name: 'Zombie' })],
      parsers: [liveParser(), liveParser({ id: 'p2', category: 'stale' }), liveParser({ id: 'p3', action_id: 'a2' })],
      apps: [liveApp()],
    }),
  };
}

describe('ordering', () => {
  it('creates/restores/updates top-down, then archives bottom-up, each class by address', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { prune: true });
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual([
      'update action["Check balance"]',
      'create action["Fresh"]',
      'update action["Other"]',
      'update app["com.example.agent"]',
      'update action["Check balance"].parser["balance"]',
      'create action["Check balance"].parser["new"]',
      'create action["Fresh"].parser["b"]',
      'create action["Fresh"].parser["balance"]',
      'update action["Other"].parser["balance"]',
      'archive action["Check balance"].parser["stale"]',
      'archive action["Zombie"]',
    ]);
    expect(r.plan.summary).toEqual({ create: 4, update: 5, archive: 2, restore: 0 });
  });

  it('is deterministic whatever the input order', () => {
    const { d, l } = world();
    const a = buildPlan(d, l, { prune: true });
    const b = buildPlan(
      { ...d, actions: [...d.actions].reverse() },
      { ...l, actions: [...l.actions].reverse(), parsers: [...l.parsers].reverse() },
      { prune: true },
    );
    expect(JSON.stringify(b.plan)).toBe(JSON.stringify(a.plan));
  });
});

describe('--target', () => {
  it('an action target includes its parsers (updates, creates and not-in-config archives)', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { targets: ['action["Check balance"]'], prune: true });
    expect(errors(r)).toEqual([]);
    expect(r.plan.targets).toEqual(['action["Check balance"]']);
    expect(r.plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual([
      'update action["Check balance"]',
      'update action["Check balance"].parser["balance"]',
      'create action["Check balance"].parser["new"]',
      'archive action["Check balance"].parser["stale"]',
    ]);
    expect(r.plan.unmanaged).toEqual([]);
    expect(r.plan.warnings).toContainEqual(expect.objectContaining({ code: 'plan.target-partial', message: expect.stringContaining('limited by --target') }));
  });

  it('a parser target includes only that parser', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { targets: ['action["Other"].parser["balance"]'] });
    expect(r.plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual(['update action["Other"].parser["balance"]']);
  });

  it('a parser target whose action does not exist yet pulls in the action create, with a warning', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { targets: ['action["Fresh"].parser["b"]'] });
    expect(r.plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual(['create action["Fresh"]', 'create action["Fresh"].parser["b"]']);
    expect(r.plan.warnings).toContainEqual({
      severity: 'warning', code: 'plan.target-parent', address: 'action["Fresh"].parser["b"]',
      message: '--target action["Fresh"].parser["b"]: its action action["Fresh"] does not exist live yet, so it is created too.',
    });
  });

  it('an unmanaged action can be targeted for prune', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { targets: ['action["Zombie"]'], prune: true });
    expect(r.plan.changes.map((c) => `${c.op} ${c.address}`)).toEqual(['archive action["Zombie"]']);
    expect(r.plan.unmanaged).toEqual([{ type: 'action', address: 'action["Zombie"]', id: 'a3' }]);
  });

  it('an unknown or malformed target is an error', () => {
    const { d, l } = world();
    const r = buildPlan(d, l, { targets: ['action["Nope"]', 'action[Check balance]'] });
    expect(errors(r).map((x) => x.code).sort()).toEqual(['plan.target-invalid', 'plan.target-unknown']);
    expect(r.plan.changes).toEqual([]);
  });
});
