// Ownership (CONTRACT.md "Ownership"): a managed action or app removed from the config is
// archived (reason removed-from-config); a hand-made one is left alone unless --prune; drift
// tells the two apart; `ignore:` keeps a scheduled drift job green beside hand-made resources.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { actionBody, client } from '../server/http.js';
import { tempDir, workspaceOn } from '../apply/cli-world.js';

const action = (name: string, code: string) => `  - { name: "${name}", root_code: "${code}", transport_type: ussd, operators: [2172], steps: [{ press: 1 }] }`;

function config(actions: string[], apps: string[] = [], extra = ''): string {
  return `version: 1\n${extra}actions:\n${actions.join('\n') || '  []'}\napps:\n${apps.join('\n') || '  []'}\n`.replace('actions:\n  []', 'actions: []').replace('apps:\n  []', 'apps: []');
}

describe.each(SERVER_MODES)('ownership against the $name', (mode) => {
  let server: TestServer;
  let org = 500;
  beforeAll(async () => { server = await startTestServer(mode.options); });
  afterAll(async () => { await server.close(); });

  async function workspace() {
    const w = await workspaceOn(server, ++org);
    return { ...w, api: client(server, w.token) };
  }

  it('archives a managed action and app removed from the config, never the hand-made one', async () => {
    const w = await workspace();
    const handMade = (await w.api('POST', '/api/actions', actionBody({ name: 'Hand made' }))).body.data.id;
    w.write(config([action('Keep', '*100#'), action('Drop', '*101#')], ['  - { name: Kiosk, package_name: com.example.kiosk }']));
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);

    w.write(config([action('Keep', '*100#')]));
    const plan = await w.cli(['plan', '--format', 'json', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    const json = JSON.parse(plan.stdout);
    expect(json.changes.map((c: { op: string; address: string; reasons: { code: string }[] }) => [c.op, c.address, c.reasons[0]!.code])).toEqual([
      ['archive', 'action["Drop"]', 'removed-from-config'],
      ['archive', 'app["com.example.kiosk"]', 'removed-from-config'],
    ]);
    expect(json.unmanaged.map((u: { address: string }) => u.address)).toEqual(['action["Hand made"]']);

    const drift = JSON.parse((await w.cli(['drift', '--format', 'json'])).stdout);
    expect(drift.drift.map((d: { class: string; address: string }) => [d.class, d.address])).toEqual([
      ['removed', 'action["Drop"]'], ['unmanaged', 'action["Hand made"]'], ['removed', 'app["com.example.kiosk"]'],
    ]);

    const text = await w.cli(['plan']);
    expect(text.stdout).toContain('removed from the configuration: menuctl created or imported it');

    expect((await w.cli(['apply', '--yes'])).code).toBe(0);
    expect((await w.api('GET', `/api/actions/${handMade}`)).body.data.attributes.archived_at ?? null).toBeNull();
    const after = await w.cli(['plan', '--detailed-exitcode']);
    expect(after.code).toBe(0);
    expect(after.stderr).toBe('');
  });

  it('a record line whose id now names another resource proves nothing: that resource is left alone', async () => {
    const w = await workspace();
    w.write(config([action('Mine', '*100#')]));
    expect((await w.cli(['apply', '--yes'])).code).toBe(0);
    const theirs = (await w.api('POST', '/api/actions', actionBody({ name: 'Theirs' }))).body.data.id;
    // The record edited so that our address holds their id.
    const { readFileSync } = await import('node:fs');
    const lock = join(w.dir, 'menuctl.lock');
    writeFileSync(lock, readFileSync(lock, 'utf8').replace(/"id":"[^"]+"/, `"id":"${theirs}"`));
    w.write(config([]));
    const plan = JSON.parse((await w.cli(['plan', '--format', 'json'])).stdout);
    expect(plan.changes).toEqual([]);
    expect(plan.unmanaged.map((u: { address: string }) => u.address).sort()).toEqual(['action["Mine"]', 'action["Theirs"]']);
  });

  it('ignore: hides named hand-made resources from drift and --prune; a managed one is still archived', async () => {
    const w = await workspace();
    await w.api('POST', '/api/actions', actionBody({ name: 'Legacy airtime' }));
    await w.api('POST', '/api/actions', actionBody({ name: 'Other' }));
    const ignore = 'ignore: [\'action["Legacy *"]\']\n';
    w.write(config([action('Keep', '*100#'), action('Legacy mine', '*102#')], [], ignore));
    expect((await w.cli(['apply', '--yes'])).code).toBe(0);
    w.write(config([action('Keep', '*100#')], [], ignore));
    const drift = JSON.parse((await w.cli(['drift', '--format', 'json'])).stdout);
    expect(drift.drift.map((d: { class: string; address: string }) => `${d.class} ${d.address}`)).toEqual(['removed action["Legacy mine"]', 'unmanaged action["Other"]']);
    const pruned = JSON.parse((await w.cli(['plan', '--prune', '--format', 'json'])).stdout);
    expect(pruned.changes.map((c: { address: string; reasons: { code: string }[] }) => `${c.address} ${c.reasons[0]!.code}`)).toEqual([
      'action["Legacy mine"] removed-from-config', 'action["Other"] prune',
    ]);
    w.write(config([action('Keep', '*100#'), action('Legacy mine', '*102#')], [], 'ignore: [\'action["Legacy *"]\', \'action["Other"]\']\n'));
    const green = await w.cli(['drift', '--format', 'json']);
    expect(green.code).toBe(0);
    expect(JSON.parse(green.stdout).in_sync).toBe(true);
  });
});

describe('an edited record takes over nothing (issue 28 item 3)', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer({ specOnly: true }); });
  afterAll(async () => { await server.close(); });

  it("a record line moved to another team's app id: the plan says the record disagrees, and apply leaves that app as it was", async () => {
    const dir = tempDir();
    const token = await server.mintToken(777);
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
    const cli = (args: string[]) => runCli(args, { env, cwd: dir });
    const api = client(server, token);
    writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\napps:\n  - { name: Ours, package_name: com.ours, webhook_url: "https://ours.example.com/hook" }\n');
    expect((await cli(['apply', '--yes'])).code).toBe(0);
    const theirs = (await api('POST', '/api/apps', { app: { name: 'Theirs', package_name: 'com.theirs', webhook_url: 'https://theirs.example.com/hook' } })).body.data;
    const { readFileSync } = await import('node:fs');
    const lock = join(dir, 'menuctl.lock');
    writeFileSync(lock, readFileSync(lock, 'utf8').replace(/"id":"[^"]+"/, `"id":"${theirs.id}"`));
    const before = (await api('GET', `/api/apps/${theirs.id}`)).body.data.attributes;

    const plan = await cli(['plan', '--format', 'json']);
    expect(JSON.parse(plan.stdout).changes).toEqual([]);
    expect(plan.stderr).toContain('warning[plan.record-disagrees]');
    expect(plan.stderr).toContain(`that app's package_name is "com.theirs"`);
    const applied = await cli(['apply', '--yes']);
    expect(applied.code).toBe(0);
    const after = (await api('GET', `/api/apps/${theirs.id}`)).body.data.attributes;
    expect({ name: after.name, package_name: after.package_name, webhook_url: after.webhook_url }).toEqual({ name: before.name, package_name: before.package_name, webhook_url: before.webhook_url });
  });
});
