// diffEnvironments on plain data: canonical forms, ids ignored, per-environment variables read back.
import { describe, expect, it } from 'vitest';
import { diffEnvironments, type EnvSide } from '../../src/plan/diff-env.js';
import { renderEnvDiffText } from '../../src/report/env-diff.js';
import type { DesiredState, LiveApp, LiveState } from '../../src/model/types.js';

const desiredApp = (webhook: string): DesiredState => ({
  actions: [], files: ['m.yaml'],
  apps: [{ name: 'Wallet', package_name: 'com.example.wallet', webhook_url: webhook }],
});
const liveApp = (id: string, webhook: string | null, o: Partial<LiveApp> = {}): LiveApp => ({
  id, name: 'Wallet', package_name: 'com.example.wallet', webhook_url: webhook, organization_id: 1, archived_at: null, updated_at: '2026-01-01T00:00:00Z', ...o,
});
const live = (apps: LiveApp[]): LiveState => ({ organization_id: 1, actions: [], parsers: [], apps, apps_listed: true, operators: [], warnings: [] });

function side(name: string, hooks: string, app: LiveApp | null, variables: Record<string, string> = { HOOKS: hooks }): EnvSide {
  return { name, desired: desiredApp(`${hooks}/in`), live: live(app ? [app] : []), variables };
}

describe('diffEnvironments', () => {
  it('is the same when only ids and per-environment variable values differ', () => {
    const { diff } = diffEnvironments(
      side('staging', 'https://s.example.com', liveApp('11', 'https://s.example.com/in')),
      side('production', 'https://p.example.com', liveApp('99', 'https://p.example.com/in')),
    );
    expect(diff.same).toBe(true);
    expect(diff.masked_variables).toEqual(['HOOKS']);
  });

  it('shows a difference outside the variable, with the variable read back as ${NAME}', () => {
    const { diff } = diffEnvironments(
      side('staging', 'https://s.example.com', liveApp('11', 'https://s.example.com/v2')),
      side('production', 'https://p.example.com', liveApp('99', 'https://p.example.com/in')),
    );
    expect(diff.differences).toEqual([{ type: 'app', address: 'app["com.example.wallet"]', class: 'changed',
      fields: [{ path: 'webhook_url', a: '${HOOKS}/v2', b: '${HOOKS}/in' }] }]);
  });

  it('does not mask a variable both environments set alike', () => {
    const { diff } = diffEnvironments(
      side('staging', 'https://same.example.com', liveApp('11', 'https://same.example.com/in')),
      side('production', 'https://same.example.com', liveApp('99', 'https://same.example.com/x')),
    );
    expect(diff.masked_variables).toEqual([]);
    expect(diff.differences[0]!.fields).toEqual([{ path: 'webhook_url', a: 'https://same.example.com/in', b: 'https://same.example.com/x' }]);
  });

  it('reports a resource missing or archived in one environment, and not one absent in both', () => {
    const missing = diffEnvironments(side('staging', 'h', liveApp('11', 'h/in')), side('production', 'h2', null)).diff;
    expect(missing.differences).toMatchObject([{ class: 'missing', in: 'production' }]);
    const archived = diffEnvironments(side('staging', 'h', liveApp('11', 'h/in')), side('production', 'h2', liveApp('9', 'h2/in', { archived_at: '2026-01-02T00:00:00Z' }))).diff;
    expect(archived.differences).toMatchObject([{ class: 'archived', in: 'production' }]);
    const neither = diffEnvironments(side('staging', 'h', null), side('production', 'h2', null)).diff;
    expect(neither).toMatchObject({ same: true, not_applied: ['app["com.example.wallet"]'] });
  });
});

describe('diffEnvironments: an identity written with a per-environment variable', () => {
  const appSide = (name: string, pkg: string, webhook: string | null): EnvSide => ({
    name, variables: { PKG: pkg },
    desired: { actions: [], files: ['m.yaml'], apps: [{ name: 'Wallet', package_name: pkg, webhook_url: 'https://h.example.com/in' }] },
    live: live(webhook === null ? [] : [liveApp('1', webhook, { package_name: pkg })]),
  });

  it('is compared as one resource, under its address with the variable read back', () => {
    const same = diffEnvironments(appSide('staging', 'com.example.wallet_stg', 'https://h.example.com/in'), appSide('production', 'com.example.wallet_prd', 'https://h.example.com/in')).diff;
    expect(same).toMatchObject({ same: true, only_in_config: [], differences: [] });
    const differ = diffEnvironments(appSide('staging', 'com.example.wallet_stg', 'https://h.example.com/v2'), appSide('production', 'com.example.wallet_prd', 'https://h.example.com/in')).diff;
    expect(differ.only_in_config).toEqual([]);
    expect(differ.differences).toEqual([{ type: 'app', address: 'app["${PKG}"]', class: 'changed',
      fields: [{ path: 'webhook_url', a: 'https://h.example.com/v2', b: 'https://h.example.com/in' }] }]);
    const missing = diffEnvironments(appSide('staging', 'com.example.wallet_stg', 'https://h.example.com/in'), appSide('production', 'com.example.wallet_prd', null)).diff;
    expect(missing.differences).toMatchObject([{ address: 'app["${PKG}"]', class: 'missing', in: 'production' }]);
  });
});

describe('renderEnvDiffText', () => {
  it('shows a regex as written, backslashes not doubled (as plan and drift do)', () => {
    const diff = { format_version: 1 as const, a: 'staging', b: 'production', same: false, only_in_config: [], masked_variables: [], not_applied: [],
      differences: [{ type: 'parser' as const, address: 'action["A"].parser["p"]', class: 'changed' as const,
        fields: [{ path: 'regex', a: 'Bal (?<b>\\d+) 5.*', b: 'Bal (?<b>\\d+) 6.*' }] }] };
    expect(renderEnvDiffText(diff, { color: false })).toContain('regex: "Bal (?<b>\\d+) 5.*" in staging, "Bal (?<b>\\d+) 6.*" in production');
  });
});
