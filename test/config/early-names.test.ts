// The overlapped load (issue 17): what a config names before its validation ends, and when the
// loader tells. cli/pipeline.ts starts reading the live state from it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadSources } from '../../src/config/load.js';
import { earlyNames, type EarlyNames } from '../../src/config/early-names.js';
import { wantParsers } from '../../src/plan/want-parsers.js';

const CONFIG = `version: 1
organization_id: 7
environments:
  staging: { organization_id: 8 }
  production: {}
actions:
  - name: Check balance
    id: 0042
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    parsers:
      - { category: ok, status: succeeded, regex: ok }
  - name: Buy airtime
    renamed_from: Airtime
    root_code: "*100#"
    transport_type: ussd
    operators: [2172]
    environments: [staging]
  - name: \${ACTION_NAME}
    root_code: "*1#"
    transport_type: ussd
    operators: [2172]
apps:
  - { name: Agent, package_name: com.example.agent, webhook_url: "https://h.example/x", id: 91 }
  - { name: Other, package_name: com.example.other, webhook_url: "https://h.example/y", environments: [staging] }
`;

/** Loads with the overlap on, and returns what the loader handed out when the files were read. */
async function early(text: string, environment?: string, env: Record<string, string> = { ACTION_NAME: 'From env' }) {
  const dir = mkdtempSync(join(tmpdir(), 'menuctl-early-'));
  writeFileSync(join(dir, 'menuctl.yaml'), text);
  let names: EarlyNames | null | undefined;
  const loaded = await loadConfig(['menuctl.yaml'], {
    env, cwd: dir, ...(environment ? { environment } : {}),
    overlap: { parsed: (files, def) => { names = earlyNames(files, def); } },
  });
  return { names, loaded };
}

describe('earlyNames', () => {
  it('names the actions, ids as written, renames and pinned apps of the environment, with its organization', async () => {
    const staging = await early(CONFIG, 'staging');
    expect(staging.names).toEqual({
      organization_id: 8,
      actions: [{ name: 'Check balance', id: '0042' }, { name: 'Buy airtime', renamed_from: 'Airtime' }, { name: 'From env' }],
      appIds: ['91'],
    });
    const production = await early(CONFIG, 'production');
    expect(production.names).toEqual({ organization_id: 7, actions: [{ name: 'Check balance', id: '0042' }, { name: 'From env' }], appIds: ['91'] });
  });

  it('selects exactly the live actions the validated config selects', async () => {
    for (const environment of ['staging', 'production']) {
      const { names, loaded } = await early(CONFIG, environment);
      expect(loaded.state).not.toBeNull();
      const live = ['Check balance', 'Buy airtime', 'Airtime', 'From env', 'Unmanaged'].map((name, i) => ({ id: `x${i}`, name }))
        .concat([{ id: '0042', name: 'Renamed live' }]) as never[];
      const byNames = live.filter(wantParsers(names!));
      const byState = live.filter(wantParsers(loaded.state!));
      expect(byNames).toEqual(byState);
    }
  });

  it('is handed out for a config the schema then rejects, so the reads can start meanwhile', async () => {
    const { names, loaded } = await early(CONFIG.replace('status: succeeded', 'status: succeded'), 'production');
    expect(names?.actions.map((a) => a.name)).toEqual(['Check balance', 'From env']);
    expect(loaded.state).toBeNull();
    expect(loaded.diagnostics.some((d) => d.code.startsWith('schema.'))).toBe(true);
  });

  it('is not handed out when a file does not read as YAML, or an environment is unknown', async () => {
    expect((await early(CONFIG.replace('regex: ok }', 'regex: [ok }'), 'production')).names).toBeUndefined();
    expect((await early(CONFIG, 'qa')).names).toBeUndefined();
  });

  it('gives up (null) on values the model builder would not take as they are', async () => {
    for (const bad of [
      CONFIG.replace('organization_id: 7', 'organization_id: "7"'),
      CONFIG.replace('  - name: Buy airtime', '  - name: [Buy airtime]'),
      CONFIG.replace('actions:\n', 'actions: 3\nunused:\n'),
    ]) {
      const { names, loaded } = await early(bad, 'staging');
      expect(names).toBeNull();
      expect(loaded.state).toBeNull();
    }
  });

  it('the overlapped load and the straight one give the same result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'menuctl-early-'));
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
    const options = { env: { ACTION_NAME: 'From env' }, cwd: dir, environment: 'staging' };
    const straight = await loadConfig(['menuctl.yaml'], options);
    const overlapped = await loadConfig(['menuctl.yaml'], { ...options, overlap: { parsed: () => undefined } });
    expect(overlapped).toEqual(straight);
    expect(loadSources([{ file: 'menuctl.yaml', text: CONFIG }], options).diagnostics).toEqual(straight.diagnostics);
  });
});
