// Found by an end-to-end pass against `serve --spec-only` (and the full server for comparison):
// - an app update that adds a webhook URL makes the API generate a webhook secret, which the
//   secrets file must get (and lose when the URL is removed);
// - an app renamed through its pinned id keeps one record line, so a later app with the old
//   package_name is not matched to the renamed app's id;
// - an action archived and restored keeps its record line, so the restore's plan sees step
//   details changed meanwhile and the plan after it is clean.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { client } from '../server/http.js';
import { workspaceOn } from './cli-world.js';

const ACTION = [
  '  - name: Push menu',
  '    root_code: "*100#"',
  '    transport_type: push',
  '    operators: [2172]',
  '    steps:',
  '      - { ok: true, description: DESCRIPTION }',
  '      - pin',
].join('\n');

function config(o: { action?: string; apps: string[] }): string {
  return ['version: 1', o.action !== undefined ? `actions:\n${o.action}` : 'actions: []', 'apps:', ...o.apps].join('\n') + '\n';
}

describe.each(SERVER_MODES)('end to end against the $name', (mode) => {
  let server: TestServer;
  let org = 900;
  beforeAll(async () => { server = await startTestServer(mode.options); });
  afterAll(async () => { await server.close(); });

  async function workspace() {
    const w = await workspaceOn(server, ++org);
    const liveApp = async (id: string) => (await client(server, w.token)('GET', `/api/apps/${id}`)).body.data.attributes;
    const secrets = () => JSON.parse(readFileSync(join(w.dir, 'secrets.json'), 'utf8'));
    return { ...w, liveApp, secrets };
  }
  const apply = ['apply', '--yes', '--secrets-file', 'secrets.json'];

  it('keeps the webhook secret an app update makes the API generate, and drops it when the URL goes', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk'] }));
    expect((await w.cli(apply)).code).toBe(0);
    const id: string = w.secrets()['app["com.example.kiosk"]'].id;
    expect(w.secrets()['app["com.example.kiosk"]'].webhook_secret).toBeNull();

    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk', '    webhook_url: https://hooks.example.com/kiosk'] }));
    const added = await w.cli(apply);
    expect(added.code).toBe(0);
    const live = await w.liveApp(id);
    expect(live.webhook_secret).toMatch(/^[0-9a-f]{32}$/);
    expect(w.secrets()['app["com.example.kiosk"]']).toEqual({ id, token: live.token, webhook_secret: live.webhook_secret });
    expect(added.stdout + added.stderr).not.toContain(live.webhook_secret);

    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk'] }));
    expect((await w.cli(apply)).code).toBe(0);
    expect(w.secrets()['app["com.example.kiosk"]']).toEqual({ id, token: live.token, webhook_secret: null });
  });

  it('keeps the webhook secret an update of a saved plan makes the API generate, also without the config PATH', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk'] }));
    expect((await w.cli(apply)).code).toBe(0);
    const id: string = w.secrets()['app["com.example.kiosk"]'].id;
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk', '    webhook_url: https://hooks.example.com/kiosk'] }));
    expect((await w.cli(['plan', '--out', 'plan.json'])).code).toBe(0);
    expect((await w.cli([...apply, '--plan', 'plan.json'])).code).toBe(0);
    const live = await w.liveApp(id);
    expect(live.webhook_secret).toMatch(/^[0-9a-f]{32}$/);
    expect(w.secrets()['app["com.example.kiosk"]']).toEqual({ id, token: live.token, webhook_secret: live.webhook_secret });
  });

  it('--format json keeps stdout to the one document when apply reads secrets back (with changes, and without)', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk'] }));
    expect((await w.cli(apply)).code).toBe(0);
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk', '    webhook_url: https://hooks.example.com/kiosk'] }));
    const updated = await w.cli([...apply, '--format', 'json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout).summary).toMatchObject({ applied: 1, failed: 0 });
    expect(updated.stderr).toContain('Completed the secrets file');
    writeFileSync(join(w.dir, 'secrets.json'), '{}');
    const unchanged = await w.cli([...apply, '--format', 'json']);
    expect(unchanged.code).toBe(0);
    expect(JSON.parse(unchanged.stdout).outcomes).toEqual([]);
    expect(unchanged.stderr).toContain('Completed the secrets file');
  });

  it('an app update that changes no secret leaves the secrets file alone and does not say it lacked a token', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk'] }));
    expect((await w.cli(apply)).code).toBe(0);
    const before = readFileSync(join(w.dir, 'secrets.json'), 'utf8');
    w.write(config({ apps: ['  - name: Kiosk renamed', '    package_name: com.example.kiosk'] }));
    const renamed = await w.cli(apply);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain('1 applied');
    expect(renamed.stdout).not.toContain('Completed the secrets file');
    expect(readFileSync(join(w.dir, 'secrets.json'), 'utf8')).toBe(before);
  });

  it('completes a webhook secret the file lacks although the app has one live, and then says No changes', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Kiosk', '    package_name: com.example.kiosk', '    webhook_url: https://hooks.example.com/k'] }));
    expect((await w.cli(apply)).code).toBe(0);
    const doc = w.secrets();
    const entry = doc['app["com.example.kiosk"]'];
    writeFileSync(join(w.dir, 'secrets.json'), JSON.stringify({ 'app["com.example.kiosk"]': { ...entry, webhook_secret: null } }));
    const again = await w.cli(apply);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Completed the secrets file');
    expect(w.secrets()['app["com.example.kiosk"]']).toEqual(entry);
    expect((await w.cli(apply)).stdout).toBe('No changes. The live API matches the configuration.\n');
  });

  it('a lost record does not make a second app: the secrets file names the live one, and its pin adopts it', async () => {
    const w = await workspace();
    const kiosk = ['  - name: Kiosk', '    package_name: com.example.kiosk'];
    w.write(config({ apps: kiosk }));
    expect((await w.cli(apply)).code).toBe(0);
    const id: string = w.secrets()['app["com.example.kiosk"]'].id;
    rmSync(join(w.dir, 'menuctl.lock'));
    const again = await w.cli(apply);
    const apps = async () => (await client(server, w.token)('GET', `/api/apps/${id}`)).status;
    if (mode.specOnly) {
      // Nothing can tell menuctl the app exists but the secrets file: the create is refused.
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`app["com.example.kiosk"]: id ${id}`);
      expect(again.stderr).toMatch(/Pin each with `id: "N"` in the config .*Nothing was changed\./s);
      expect(w.secrets()['app["com.example.kiosk"]'].id).toBe(id);
      w.write(config({ apps: [...kiosk, `    id: "${id}"`] }));
      expect((await w.cli(apply)).stdout).toBe('No changes. The live API matches the configuration.\n');
      // App ids are sequential here: a second app would be the next one.
      expect((await client(server, w.token)('GET', `/api/apps/${Number(id) + 1}`)).status).toBe(404);
    } else {
      // The full server lists apps: the planner finds it by package_name.
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe('No changes. The live API matches the configuration.\n');
    }
    expect(await apps()).toBe(200);
    expect(w.secrets()['app["com.example.kiosk"]'].id).toBe(id);
  });

  it('an app renamed through its pinned id is not taken by a later app with the old package_name', async () => {
    const w = await workspace();
    w.write(config({ apps: ['  - name: Till', '    package_name: com.example.till'] }));
    expect((await w.cli(apply)).code).toBe(0);
    const id: string = w.secrets()['app["com.example.till"]'].id;
    w.write(config({ apps: ['  - name: Till', '    package_name: com.example.till2', `    id: "${id}"`] }));
    expect((await w.cli(apply)).code).toBe(0);
    // The pin is dropped (the record knows the app now) and the old package_name comes back as a new app.
    w.write(config({ apps: ['  - name: Till', '    package_name: com.example.till2', '  - name: Old till', '    package_name: com.example.till'] }));
    const planned = async () => JSON.parse((await w.cli(['plan', '--format', 'json'])).stdout).changes
      .map((c: { op: string; address: string; id: string | null }) => [c.op, c.address, c.id]);
    expect(await planned()).toEqual([['create', 'app["com.example.till"]', null]]);
    // A record written before the rename moved the line holds the id under both addresses.
    const lock = join(w.dir, 'menuctl.lock');
    const line = readFileSync(lock, 'utf8').split('\n').find((l) => l.includes('com.example.till2'))!;
    writeFileSync(lock, `${readFileSync(lock, 'utf8')}${line.replace('com.example.till2', 'com.example.till')}\n`);
    expect(await planned()).toEqual([['create', 'app["com.example.till"]', null]]);
  });

  it('an action archived and restored keeps its step details: a change made meanwhile is planned, and the plan after is clean', async () => {
    const w = await workspace();
    const appLines = ['  - name: Kiosk', '    package_name: com.example.kiosk'];
    w.write(config({ action: ACTION.replace('DESCRIPTION', 'accept'), apps: appLines }));
    expect((await w.cli(apply)).code).toBe(0);
    w.write(config({ apps: appLines }));
    expect((await w.cli([...apply, '--prune'])).code).toBe(0);
    w.write(config({ action: ACTION.replace('DESCRIPTION', 'accept the prompt'), apps: appLines }));
    const plan = JSON.parse((await w.cli(['plan', '--format', 'json'])).stdout);
    expect(plan.warnings).toEqual([]);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ op: 'restore', address: 'action["Push menu"]' });
    expect(plan.changes[0].fields).toEqual([{ path: 'steps[0].description', before: 'accept', after: 'accept the prompt' }]);
    expect((await w.cli(apply)).code).toBe(0);
    const after = JSON.parse((await w.cli(['plan', '--format', 'json'])).stdout);
    expect(after.changes).toEqual([]);
    expect(after.warnings).toEqual([]);
  });
});
