// Identity rules: name / category / package_name, pinned ids, renamed_from, tiers, ambiguity.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { desired, desiredAction, desiredApp, desiredParser, live, liveAction, liveApp, liveParser } from './builders.js';

const errors = (r: ReturnType<typeof buildPlan>) => r.diagnostics.filter((d) => d.severity === 'error');

describe('identity', () => {
  it('matches an action by name, a parser by category within its action, an app by package_name', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction()], apps: [desiredApp()] }),
      live({ actions: [liveAction()], parsers: [liveParser()], apps: [liveApp()] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([]);
  });

  it('a parser of the same category under another action is not a match', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction()] }),
      live({ actions: [liveAction(), liveAction({ id: 'a2', name: 'Other' })], parsers: [liveParser({ action_id: 'a2' })] }),
      {},
    );
    const parser = r.plan.changes.find((c) => c.type === 'parser');
    expect(parser).toMatchObject({ op: 'create', action_id: 'a1', address: 'action["Check balance"].parser["balance"]' });
  });

  it('a pinned id wins over the name, and the name difference is a rename', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ id: 'a2', parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2', name: 'Balance (old)' })] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toHaveLength(1);
    expect(r.plan.changes[0]).toMatchObject({
      op: 'update', id: 'a2', reasons: [{ code: 'renamed', from: 'Balance (old)' }],
      fields: [{ path: 'name', before: 'Balance (old)', after: 'Check balance' }],
    });
    // The other live action of the same name is not the config's: it is unmanaged.
    expect(r.plan.unmanaged).toEqual([{ type: 'action', address: 'action["Check balance"]', id: 'a1' }]);
  });

  it('a pinned id that does not exist live is an error saying so', () => {
    const a = desiredAction({ id: 'nope', loc: { file: 'm.yaml', line: 3, col: 5 } });
    const r = buildPlan(desired({ actions: [a] }), live({ actions: [liveAction()] }), {});
    expect(errors(r)).toEqual([
      expect.objectContaining({ code: 'plan.pinned-id-not-found', address: 'action["Check balance"]', loc: a.loc }),
    ]);
    expect(errors(r)[0]!.message).toContain('"nope" does not exist live');
  });

  it('a pinned parser id under another action is an error naming both', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ parsers: [desiredParser({ id: 'p9' })] })] }),
      live({ actions: [liveAction(), liveAction({ id: 'a2', name: 'Other' })], parsers: [liveParser({ id: 'p9', action_id: 'a2' })] }),
      {},
    );
    expect(errors(r).map((d) => d.code)).toEqual(['plan.pinned-id-elsewhere']);
    expect(errors(r)[0]!.message).toMatch(/"p9" belongs to the action with id "a2"/);
  });

  it('renamed_from turns an action rename into an update of name, keeping its parsers', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance' })] }),
      live({ actions: [liveAction()], parsers: [liveParser()] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([
      expect.objectContaining({
        op: 'update', type: 'action', id: 'a1', address: 'action["Balance"]', reasons: [{ code: 'renamed', from: 'Check balance' }],
        fields: [{ path: 'name', before: 'Check balance', after: 'Balance' }],
      }),
    ]);
  });

  it('renamed_from on a parser turns a category rename into an update', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'bal', renamed_from: 'balance' })] })] }),
      live({ actions: [liveAction()], parsers: [liveParser()] }),
      {},
    );
    expect(r.plan.changes).toEqual([
      expect.objectContaining({
        op: 'update', type: 'parser', id: 'p1', address: 'action["Check balance"].parser["bal"]',
        fields: [{ path: 'category', before: 'balance', after: 'bal' }], action_id: 'a1',
      }),
    ]);
  });

  it('a rename whose old and new names both exist live is an error naming both ids', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance', parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2', name: 'Balance' })] }),
      {},
    );
    expect(errors(r).map((d) => d.code)).toEqual(['plan.rename-conflict']);
    expect(errors(r)[0]!.message).toMatch(/"Balance" \(id "a2"\).*"Check balance" \(id "a1"\)/);
    expect(r.plan.unmanaged).toEqual([]); // candidates of a failed match are not offered to --prune
  });

  it('a stale renamed_from does not steal the live resource another desired one is', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance', parsers: [] }), desiredAction({ parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2', name: 'Balance' })] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([]);
  });

  it('after the rename happened, renamed_from matches the new name and plans nothing', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance' })] }),
      live({ actions: [liveAction({ name: 'Balance' })], parsers: [liveParser()] }),
      {},
    );
    expect(r.plan.changes).toEqual([]);
  });

  it('prefers the active candidate over archived ones', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ parsers: [] })] }),
      live({ actions: [liveAction({ id: 'old', archived_at: '2023-01-01T00:00:00Z' }), liveAction({ id: 'a1' })] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.unmanaged).toEqual([]); // archived and not in config: neither unmanaged nor archived
  });

  it('two active candidates for one identity is an error naming both ids and suggesting id:', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2' })] }),
      {},
    );
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'plan.ambiguous-match', address: 'action["Check balance"]' })]);
    expect(errors(r)[0]!.message).toMatch(/ids "a1", "a2".*`id:`/);
  });

  it('two archived candidates (and no active one) is an error too', () => {
    const arch = '2023-01-01T00:00:00Z';
    const r = buildPlan(
      desired({ apps: [desiredApp()] }),
      live({ apps: [liveApp({ id: '1', archived_at: arch }), liveApp({ id: '2', archived_at: arch })] }),
      {},
    );
    expect(errors(r).map((d) => d.code)).toEqual(['plan.ambiguous-match']);
    expect(errors(r)[0]!.message).toContain('2 archived live apps');
  });

  it('two active parsers of one category under the action is an error', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction()] }),
      live({ actions: [liveAction()], parsers: [liveParser({ id: 'p1' }), liveParser({ id: 'p2' })] }),
      {},
    );
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'plan.ambiguous-match', address: 'action["Check balance"].parser["balance"]' })]);
    // Neither candidate is archived as "not in config".
    expect(r.plan.changes.filter((c) => c.op === 'archive')).toEqual([]);
  });

  it('a rename onto an archived old resource is a restore carrying the name change', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance', parsers: [] })] }),
      live({ actions: [liveAction({ archived_at: '2023-01-01T00:00:00Z' })] }),
      {},
    );
    expect(r.plan.changes).toEqual([
      expect.objectContaining({ op: 'restore', id: 'a1', reasons: [{ code: 'renamed', from: 'Check balance' }], fields: [{ path: 'name', before: 'Check balance', after: 'Balance' }] }),
    ]);
  });

  it('with renamed_from, an active old resource is preferred over an archived new one (tiers span both names)', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ name: 'Balance', renamed_from: 'Check balance', parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2', name: 'Balance', archived_at: '2023-01-01T00:00:00Z' })] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([expect.objectContaining({ op: 'update', id: 'a1', fields: [{ path: 'name', before: 'Check balance', after: 'Balance' }] })]);
  });
});
