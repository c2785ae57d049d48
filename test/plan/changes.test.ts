// Every op, ownership, prune, protection, canonical comparison and idempotence.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { fingerprint } from '../../src/model/fingerprint.js';
import type { DesiredState, LiveState } from '../../src/model/types.js';
import { desired, desiredAction, desiredApp, desiredParser, live, liveAction, liveApp, liveParser } from './builders.js';

const ARCH = '2024-02-02T00:00:00Z';
const errors = (r: ReturnType<typeof buildPlan>) => r.diagnostics.filter((d) => d.severity === 'error');

describe('ops', () => {
  it('creates an action and its parsers with action_id null and the action as parent', () => {
    const r = buildPlan(desired({ actions: [desiredAction()] }), live(), {});
    expect(r.plan.changes.map((c) => [c.op, c.type, c.address])).toEqual([
      ['create', 'action', 'action["Check balance"]'],
      ['create', 'parser', 'action["Check balance"].parser["balance"]'],
    ]);
    expect(r.plan.changes[1]).toMatchObject({ id: null, fingerprint: null, action_id: null, parent: 'action["Check balance"]' });
    expect(r.plan.changes[0]).toMatchObject({
      desired: { name: 'Check balance', operator_ids: [2172], steps: [{ kind: 'press', value: '1' }, { kind: 'pin' }] },
    });
    expect(r.plan.summary).toEqual({ create: 2, update: 0, archive: 0, restore: 0 });
  });

  it('a create is plain data to JSON, keys and spreads: its fields in their place, an action\'s operators by name', () => {
    const r = buildPlan(desired({ actions: [desiredAction()] }), live(), {});
    const [action, parser] = r.plan.changes;
    const keys = ['op', 'id', 'address', 'fingerprint', 'fields', 'type', 'desired'];
    expect(Object.keys(action!)).toEqual(keys);
    expect(Object.keys(parser!)).toEqual([...keys, 'parent', 'action_id']);
    expect(JSON.parse(JSON.stringify(action))).toEqual({ ...action });
    expect(action!.fields).toContainEqual({ path: 'operators', before: null, after: ['Safaricom Ltd.'] });
    expect({ ...parser }.fields).toContainEqual({ path: 'category', before: null, after: 'balance' });
    expect(JSON.stringify(parser)).toContain('"fingerprint":null,"fields":[{"path":"status"');
  });

  it('a create lists every field it sets with before null', () => {
    const r = buildPlan(desired({ apps: [desiredApp()] }), live(), {});
    expect(r.plan.changes[0]!.fields).toEqual([
      { path: 'name', before: null, after: 'Field agent' },
      { path: 'package_name', before: null, after: 'com.example.agent' },
      { path: 'webhook_url', before: null, after: 'https://hooks.example.com/agent' },
    ]);
  });

  it('updates only the differing fields, before = live, after = desired, with the live fingerprint', () => {
    const lp = liveParser({ regex: 'old', user_message: 'Hi' });
    const r = buildPlan(desired({ actions: [desiredAction()] }), live({ actions: [liveAction()], parsers: [lp] }), {});
    expect(r.plan.changes).toEqual([
      {
        op: 'update', type: 'parser', id: 'p1', address: 'action["Check balance"].parser["balance"]',
        parent: 'action["Check balance"]', action_id: 'a1', fingerprint: fingerprint('parser', lp),
        fields: [
          { path: 'regex', before: 'old', after: 'Your balance is (?<balance>[\\d,.]+).*' },
          { path: 'user_message', before: 'Hi', after: '' },
        ],
        desired: resolvedParser(),
      },
    ]);
  });

  it('restores an archived match with the patch of differing fields, never a duplicate create', () => {
    const la = liveAction({ archived_at: ARCH, root_code: '*100#' });
    const r = buildPlan(desired({ actions: [desiredAction()] }), live({ actions: [la], parsers: [liveParser()] }), {});
    expect(r.plan.changes).toEqual([
      expect.objectContaining({
        op: 'restore', type: 'action', id: 'a1', fingerprint: fingerprint('action', la),
        fields: [{ path: 'root_code', before: '*100#', after: '*144#' }],
      }),
    ]);
    expect(r.plan.summary).toEqual({ create: 0, update: 0, archive: 0, restore: 1 });
  });

  it('restores an archived parser and app with no patch when nothing else differs', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction()], apps: [desiredApp()] }),
      live({ actions: [liveAction()], parsers: [liveParser({ archived_at: ARCH })], apps: [liveApp({ archived_at: ARCH })] }),
      {},
    );
    expect(r.plan.changes.map((c) => [c.op, c.type, c.fields])).toEqual([
      ['restore', 'app', []],
      ['restore', 'parser', []],
    ]);
  });
});

function resolvedParser() {
  const { category, status, target_type, sender, regex, user_message } = desiredParser();
  return { category, status, target_type, sender, regex, user_message };
}

describe('ownership and prune', () => {
  const state = (): { d: DesiredState; l: LiveState } => ({
    d: desired({ actions: [desiredAction()], apps: [desiredApp()] }),
    l: live({
      actions: [liveAction(), liveAction({ id: 'a2', name: 'Legacy' }), liveAction({ id: 'a3', name: 'Gone', archived_at: ARCH })],
      parsers: [liveParser(), liveParser({ id: 'p2', category: 'stale' }), liveParser({ id: 'p3', category: 'old', archived_at: ARCH })],
      apps: [liveApp(), liveApp({ id: '8', package_name: 'com.example.old' })],
    }),
  });

  it('archives live active parsers of a managed action that are not in the config', () => {
    const { d, l } = state();
    const r = buildPlan(d, l, {});
    expect(r.plan.changes).toEqual([
      {
        op: 'archive', type: 'parser', id: 'p2', address: 'action["Check balance"].parser["stale"]',
        parent: 'action["Check balance"]', action_id: 'a1', reasons: [{ code: 'not-in-config' }], fields: [], fingerprint: fingerprint('parser', l.parsers[1]!),
      },
    ]);
  });

  it('lists unmanaged actions and apps without archiving them; archived ones are ignored', () => {
    const { d, l } = state();
    const r = buildPlan(d, l, {});
    expect(r.plan.unmanaged).toEqual([
      { type: 'action', address: 'action["Legacy"]', id: 'a2' },
      { type: 'app', address: 'app["com.example.old"]', id: '8' },
    ]);
    expect(r.plan.prune).toBe(false);
  });

  it('with prune archives them too (reason "prune"), parser archives before action and app archives', () => {
    const { d, l } = state();
    const r = buildPlan(d, l, { prune: true });
    expect(r.plan.changes.map((c) => [c.op, c.address, c.reasons])).toEqual([
      ['archive', 'action["Check balance"].parser["stale"]', [{ code: 'not-in-config' }]],
      ['archive', 'action["Legacy"]', [{ code: 'prune' }]],
      ['archive', 'app["com.example.old"]', [{ code: 'prune' }]],
    ]);
    expect(r.plan.prune).toBe(true);
    expect(r.plan.summary.archive).toBe(3);
  });
});

describe('protection', () => {
  it('a protected parser whose category is shared by a second live parser cannot be archived through it', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ parsers: [desiredParser({ id: 'p1', protected: true, loc: { file: 'm.yaml', line: 9, col: 9 } })] })] }),
      live({ actions: [liveAction()], parsers: [liveParser({ id: 'p1' }), liveParser({ id: 'p2' })] }),
      {},
    );
    expect(errors(r)).toEqual([
      expect.objectContaining({ code: 'plan.protected-archive', address: 'action["Check balance"].parser["balance"]', loc: { file: 'm.yaml', line: 9, col: 9 } }),
    ]);
    expect(errors(r)[0]!.message).toContain('id "p2"');
  });

  it('prune of a live action sharing a protected pinned action\'s name is an error', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ id: 'a1', protected: true, parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2' })] }),
      { prune: true },
    );
    expect(errors(r).map((d) => d.code)).toEqual(['plan.protected-archive']);
  });

  it('without prune the same state is fine: nothing is archived', () => {
    const r = buildPlan(
      desired({ actions: [desiredAction({ id: 'a1', protected: true, parsers: [] })] }),
      live({ actions: [liveAction({ id: 'a1' }), liveAction({ id: 'a2' })] }),
      {},
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.unmanaged).toEqual([expect.objectContaining({ type: 'action', id: 'a2' })]);
  });

  it('protected resources that are updated are fine', () => {
    const r = buildPlan(
      desired({ apps: [desiredApp({ protected: true, name: 'New' })] }),
      live({ apps: [liveApp()] }),
      { prune: true },
    );
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes.map((c) => c.op)).toEqual(['update']);
  });
});

describe('canonical comparison', () => {
  it("treats '' and null sender as equal for ussd parsers, but not a real sender", () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ sender: '' })] })] });
    expect(buildPlan(d, live({ actions: [liveAction()], parsers: [liveParser({ sender: null })] }), {}).plan.changes).toEqual([]);
    const d2 = desired({ actions: [desiredAction()] });
    expect(buildPlan(d2, live({ actions: [liveAction()], parsers: [liveParser({ sender: '' })] }), {}).plan.changes).toEqual([]);
    const r = buildPlan(d2, live({ actions: [liveAction()], parsers: [liveParser({ sender: 'MPESA' })] }), {});
    expect(r.plan.changes[0]!.fields).toEqual([{ path: 'sender', before: 'MPESA', after: null }]);
  });

  it('an sms parser compares target_type and sender', () => {
    const d = desired({ actions: [desiredAction({ parsers: [desiredParser({ target_type: 'sms', sender: 'MPESA' })] })] });
    const r = buildPlan(d, live({ actions: [liveAction()], parsers: [liveParser()] }), {});
    expect(r.plan.changes[0]!.fields).toEqual([
      { path: 'target_type', before: 'ussd', after: 'sms' },
      { path: 'sender', before: null, after: 'MPESA' },
    ]);
  });

  it('app webhook_url changes show; secrets are not part of the plan at all', () => {
    const r = buildPlan(desired({ apps: [desiredApp({ webhook_url: null })] }), live({ apps: [liveApp()] }), {});
    expect(r.plan.changes[0]!.fields).toEqual([{ path: 'webhook_url', before: 'https://hooks.example.com/agent', after: null }]);
    expect(JSON.stringify(r.plan)).not.toMatch(/token|secret/);
  });

  it('is idempotent: a desired state built from the live state plans nothing', () => {
    const l = live({
      actions: [liveAction(), liveAction({ id: 'a2', name: 'Buy bundle', operators: ['MTN', 'Safaricom Ltd.'], steps: ['2', '-', 'pin'] })],
      parsers: [liveParser(), liveParser({ id: 'p2', category: 'fail', status: 'failed', target_type: 'sms', sender: 'MPESA', user_message: 'No' })],
      apps: [liveApp(), liveApp({ id: '8', package_name: 'com.b', webhook_url: null })],
    });
    const d = desiredFromLive(l);
    const r = buildPlan(d, l, { prune: true });
    expect(errors(r)).toEqual([]);
    expect(r.plan.changes).toEqual([]);
    expect(r.plan.unmanaged).toEqual([]);
    expect(r.plan.warnings).toEqual([]);
  });
});

/** What an export would write: steps inferred from values, operators as ids (MTN by the gh id). */
function desiredFromLive(l: LiveState): DesiredState {
  const idOf: Record<string, number> = { 'Safaricom Ltd.': 2172, MTN: 2001 };
  return desired({
    actions: l.actions.map((a) => ({
      name: a.name, root_code: a.root_code, transport_type: a.transport_type,
      operators: a.operators.map((n) => ({ ref: idOf[n]! })),
      steps: a.steps.map((v) => (v === 'pin' ? { kind: 'pin' as const } : v === '-' ? { kind: 'ok' as const } : { kind: 'press' as const, value: v })),
      parsers: l.parsers.filter((p) => p.action_id === a.id).map((p) => ({
        category: p.category, status: p.status, target_type: p.target_type, sender: p.sender, regex: p.regex, user_message: p.user_message,
      })),
      tests: [],
    })),
    apps: l.apps.map((a) => ({ name: a.name, package_name: a.package_name, webhook_url: a.webhook_url })),
  });
}
