// Drift classes, with the same matching as the plan.
import { describe, expect, it } from 'vitest';
import { buildDriftResult } from '../../src/plan/build-drift.js';
import { desired, desiredAction, desiredApp, desiredParser, live, liveAction, liveApp, liveParser } from './builders.js';

const ARCH = '2024-02-02T00:00:00Z';
const driftOf = (...args: Parameters<typeof buildDriftResult>) => buildDriftResult(...args).drift;

describe('drift', () => {
  it('is in sync when live matches the config', () => {
    const d = driftOf(desired({ actions: [desiredAction()], apps: [desiredApp()] }), live({ actions: [liveAction()], parsers: [liveParser()], apps: [liveApp()] }), {});
    expect(d).toEqual({ format_version: 1, in_sync: true, drift: [], warnings: [] });
  });

  it('classifies changed, archived, missing and unmanaged, sorted like the plan', () => {
    const d = desired({
      actions: [
        desiredAction({ parsers: [desiredParser(), desiredParser({ category: 'gone' })] }),
        desiredAction({ name: 'Shelved', parsers: [] }),
        desiredAction({ name: 'Never made', parsers: [desiredParser()] }),
      ],
      apps: [desiredApp()],
    });
    const l = live({
      actions: [liveAction({ root_code: '*999#' }), liveAction({ id: 'a2', name: 'Shelved', archived_at: ARCH }), liveAction({ id: 'a3', name: 'Handmade' })],
      parsers: [liveParser(), liveParser({ id: 'p2', category: 'extra' })],
      apps: [liveApp({ webhook_url: null })],
    });
    const drift = driftOf(d, l, {});
    expect(drift.in_sync).toBe(false);
    expect(drift.drift).toEqual([
      { class: 'changed', type: 'action', address: 'action["Check balance"]', id: 'a1', fields: [{ path: 'root_code', expected: '*144#', live: '*999#' }] },
      { class: 'missing', type: 'action', address: 'action["Never made"]', id: null, fields: [] },
      { class: 'archived', type: 'action', address: 'action["Shelved"]', id: 'a2', fields: [] },
      { class: 'changed', type: 'app', address: 'app["com.example.agent"]', id: '7', fields: [{ path: 'webhook_url', expected: 'https://hooks.example.com/agent', live: null }] },
      { class: 'missing', type: 'parser', address: 'action["Check balance"].parser["gone"]', id: null, fields: [] },
      { class: 'missing', type: 'parser', address: 'action["Never made"].parser["balance"]', id: null, fields: [] },
      { class: 'unmanaged', type: 'parser', address: 'action["Check balance"].parser["extra"]', id: 'p2', fields: [] },
      { class: 'unmanaged', type: 'action', address: 'action["Handmade"]', id: 'a3', fields: [] },
    ]);
  });

  it('a renamed live resource shows as changed in its identity field', () => {
    const drift = driftOf(
      desired({ actions: [desiredAction({ parsers: [desiredParser({ category: 'bal', renamed_from: 'balance' })] })] }),
      live({ actions: [liveAction()], parsers: [liveParser()] }),
      {},
    );
    expect(drift.drift).toEqual([
      { class: 'changed', type: 'parser', address: 'action["Check balance"].parser["bal"]', id: 'p1', fields: [{ path: 'category', expected: 'bal', live: 'balance' }] },
    ]);
  });

  it('targets limit the report', () => {
    const drift = driftOf(
      desired({ actions: [desiredAction(), desiredAction({ name: 'B', parsers: [] })] }),
      live({ actions: [liveAction({ root_code: 'x' })], parsers: [liveParser({ regex: 'z' })] }),
      { targets: ['action["B"]'] },
    );
    expect(drift.drift.map((i) => `${i.class} ${i.address}`)).toEqual(['missing action["B"]']);
    // "in sync" would speak for the targets only: said, as plan says it.
    expect(drift.warnings.map((w) => w.code)).toContain('drift.target-partial');
    const whole = driftOf(desired({ actions: [desiredAction({ name: 'B', parsers: [] })] }), live({}), {});
    expect(whole.warnings.map((w) => w.code)).not.toContain('drift.target-partial');
  });

  it('matching errors come back as diagnostics, not as drift', () => {
    const args = [desired({ actions: [desiredAction({ parsers: [] })] }), live({ actions: [liveAction({ id: 'x' }), liveAction({ id: 'y' })] }), {}] as const;
    const res = buildDriftResult(...args);
    expect(res.diagnostics.map((d) => d.code)).toEqual(['plan.ambiguous-match']);
    expect(res.drift.drift).toEqual([]);
    expect(res.diagnostics[0]!.message).toMatch(/^2 active live actions/);
  });

  it('warns that step details the API does not echo cannot be seen', () => {
    const drift = driftOf(
      desired({ actions: [desiredAction({ steps: [{ kind: 'variable', name: 'v' }], parsers: [] })] }),
      live({ actions: [liveAction({ steps: ['v'] })] }),
      {},
    );
    expect(drift.in_sync).toBe(true);
    expect(drift.warnings).toEqual([expect.objectContaining({ code: 'drift.hidden-steps', message: expect.stringContaining('1 action has step details the API does not echo') })]);
  });
});
