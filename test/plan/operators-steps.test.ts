// Operators (ids and names against the live catalog; names are what the API echoes) and the
// visibility limit of steps (only values are echoed), with --resend.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { desired, desiredAction, live, liveAction } from './builders.js';

const errors = (r: ReturnType<typeof buildPlan>) => r.diagnostics.filter((d) => d.severity === 'error');

describe('operators', () => {
  it('resolves ids and exact names into sorted unique operator_ids', () => {
    const a = desiredAction({ operators: [{ ref: 'Safaricom Ltd.' }, { ref: 2001 }, { ref: 2172 }], parsers: [] });
    const r = buildPlan(desired({ actions: [a] }), live(), {});
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes[0]).toMatchObject({ desired: { operator_ids: [2001, 2172] } });
  });

  it('compares desired ids mapped to names with the live names, as a sorted multiset', () => {
    const a = desiredAction({ operators: [{ ref: 2001 }, { ref: 2341 }, { ref: 2172 }], parsers: [] });
    const same = live({ actions: [liveAction({ operators: ['MTN', 'Safaricom Ltd.', 'MTN'] })] });
    expect(buildPlan(desired({ actions: [a] }), same, {}).plan.changes).toEqual([]);
    const fewer = live({ actions: [liveAction({ operators: ['Safaricom Ltd.', 'MTN'] })] });
    expect(buildPlan(desired({ actions: [a] }), fewer, {}).plan.changes[0]!.fields).toEqual([
      { path: 'operators', before: ['MTN', 'Safaricom Ltd.'], after: ['MTN', 'MTN', 'Safaricom Ltd.'] },
    ]);
  });

  it('a switch between two operators of the same name is invisible (documented limit)', () => {
    const a = desiredAction({ operators: [{ ref: 1803 }], parsers: [] }); // MTN Cameroon
    const r = buildPlan(desired({ actions: [a] }), live({ actions: [liveAction({ operators: ['MTN'] })] }), {}); // live: MTN Ghana
    expect(r.plan.changes).toEqual([]);
  });

  it('an ambiguous operator name is an error listing the candidate ids with countries', () => {
    const loc = { file: 'm.yaml', line: 4, col: 17 };
    const a = desiredAction({ operators: [{ ref: 'MTN', loc }], parsers: [] });
    const r = buildPlan(desired({ actions: [a] }), live(), {});
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'semantic.operator-ambiguous', loc, address: 'action["Check balance"]' })]);
    expect(errors(r)[0]!.message).toContain('1803 "MTN" (cm), 2001 "MTN" (gh), 2341 "MTN" (ng)');
  });

  it('an unknown operator is an error, with a near miss suggested', () => {
    const a = desiredAction({ operators: [{ ref: 'safaricom ltd.' }, { ref: 99999 }], parsers: [] });
    const r = buildPlan(desired({ actions: [a] }), live(), {});
    // The rule validate applies offline (model/catalog.ts unresolvedOperator): one code, one wording.
    expect(errors(r).map((d) => d.code)).toEqual(['semantic.operator-unknown', 'semantic.operator-unknown']);
    expect(errors(r)[0]!.message).toContain('Did you mean 2172 "Safaricom Ltd." (ke)');
  });
});

describe('steps', () => {
  it('compares step values: press value, variable/select name, pin, ok as "-"', () => {
    const a = desiredAction({
      steps: [{ kind: 'press', value: '1' }, { kind: 'variable', name: 'phone' }, { kind: 'select', name: 'bundle' }, { kind: 'pin' }, { kind: 'ok' }],
      parsers: [],
    });
    const r = buildPlan(desired({ actions: [a] }), live({ actions: [liveAction({ steps: ['1', 'phone', 'pin'] })] }), {});
    expect(r.plan.changes[0]!.fields).toEqual([
      { path: 'steps', before: ['1', 'phone', 'pin'], after: ['1', 'phone', 'bundle', 'pin', '-'] },
    ]);
  });

  it('a change only in kind/expect/description is invisible: one warning counts such actions', () => {
    const hidden = [{ kind: 'press' as const, value: '1', expect: 'My account' }, { kind: 'pin' as const }];
    const d = desired({
      actions: [
        desiredAction({ steps: hidden, parsers: [] }),
        desiredAction({ name: 'B', steps: [{ kind: 'select', name: 'x' }], parsers: [] }),
        desiredAction({ name: 'C', parsers: [] }), // plain press + pin: nothing hidden
      ],
    });
    const l = live({ actions: [liveAction(), liveAction({ id: 'b', name: 'B', steps: ['x'] }), liveAction({ id: 'c', name: 'C' })] });
    const r = buildPlan(d, l, {});
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.warnings).toHaveLength(1);
    expect(r.plan.warnings[0]!.code).toBe('plan.hidden-steps');
    expect(r.plan.warnings[0]!.message).toMatch(/^2 unchanged actions have step details the API does not echo.*--resend ADDRESS/);
  });

  it('an action already updated does not count toward the warning', () => {
    const d = desired({ actions: [desiredAction({ root_code: '*1#', steps: [{ kind: 'variable', name: 'v' }], parsers: [] })] });
    const r = buildPlan(d, live({ actions: [liveAction({ steps: ['v'] })] }), {});
    expect(r.plan.changes.map((c) => c.op)).toEqual(['update']);
    expect(r.plan.warnings).toEqual([]);
  });

  it('--resend ADDRESS forces an update that re-sends the steps', () => {
    const d = desired({ actions: [desiredAction({ steps: [{ kind: 'variable', name: 'v', description: 'x' }], parsers: [] })] });
    const r = buildPlan(d, live({ actions: [liveAction({ steps: ['v'] })] }), { resend: ['action["Check balance"]'] });
    expect(r.plan.changes).toEqual([
      expect.objectContaining({ op: 'update', id: 'a1', fields: [], reasons: [{ code: 'resend' }], forced: true, desired: expect.objectContaining({ steps: [{ kind: 'variable', name: 'v', description: 'x' }] }) }),
    ]);
    expect(r.plan.warnings).toEqual([]);
  });

  it('--resend all forces every matched action; creates stay creates', () => {
    const d = desired({ actions: [desiredAction({ parsers: [] }), desiredAction({ name: 'New', parsers: [] })] });
    const r = buildPlan(d, live({ actions: [liveAction()] }), { resend: ['all'] });
    expect(r.plan.changes.map((c) => [c.op, c.address, c.reasons])).toEqual([
      ['update', 'action["Check balance"]', [{ code: 'resend' }]],
      ['create', 'action["New"]', undefined],
    ]);
  });

  it('--resend of something that is not an action in the config is an error', () => {
    const r = buildPlan(desired({ actions: [desiredAction({ parsers: [] })] }), live({ actions: [liveAction()] }), { resend: ['action["Nope"]', 'app["x"]'] });
    expect(errors(r).map((d) => d.code)).toEqual(['plan.resend-unknown', 'plan.resend-unknown']);
  });
});
