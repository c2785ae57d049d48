// Adopting an organization against `serve --spec-only` (issue 24): export and import record what
// they adopt as managed, step details the API does not show as unknown, never assumed; a plan never
// sends steps over them unless the action is named in --resend; apps are adopted by id and their
// secrets read by it; one secrets file serves several environments.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { actionBody, client, step } from '../server/http.js';
import { tempDir } from '../apply/cli-world.js';

describe('adopting against the spec-only API', () => {
  let server: TestServer;
  let org = 1200;
  beforeAll(async () => { server = await startTestServer({ specOnly: true }); });
  afterAll(async () => { await server.close(); });

  async function workspace() {
    const dir = tempDir();
    const token = await server.mintToken(++org);
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
    return { dir, token, env, api: client(server, token), cli: (args: string[], cwd = dir) => runCli(args, { env, cwd }) };
  }

  /** A hand-made action whose steps carry what the API never shows: an expect text, a description, a select step. */
  async function handMade(api: ReturnType<typeof client>) {
    const body = actionBody({
      name: 'My account',
      custom_steps_attributes: {
        0: step(0, 'press', '1', { expected_text: 'My account', description: 'open the account menu' }),
        1: step(1, 'select', 'bundle'),
        2: step(2, 'pin'),
      },
    });
    return (await api('POST', '/api/actions', body)).body.data.id as string;
  }

  const liveSteps = async (api: ReturnType<typeof client>, id: string) => {
    const { attributes } = (await api('GET', `/api/actions/${id}`)).body.data;
    return JSON.stringify(attributes.steps ?? attributes.custom_steps ?? attributes);
  };

  it('export records the organization as managed; plan is clean and quiet; --resend all wipes nothing', async () => {
    const w = await workspace();
    const id = await handMade(w.api);
    const before = await liveSteps(w.api, id);
    const out = join(w.dir, 'config');
    const exported = await w.cli(['export', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(join(out, 'menuctl.lock'), 'utf8')).toContain(`"id":"${id}","operator_ids":"unknown","steps":"unknown"`);

    const plan = await w.cli(['plan', 'config/', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);

    server.resetStats();
    const resent = await w.cli(['apply', 'config/', '--yes', '--resend', 'all']);
    expect(resent.code, resent.stderr).toBe(0);
    expect(writeRequests(server)).toBe(0);
    expect(await liveSteps(w.api, id)).toBe(before);
  });

  it('a change that would send an adopted action\'s steps is refused, naming what is unknown; --resend ADDRESS confirms it', async () => {
    const w = await workspace();
    const id = await handMade(w.api);
    const out = join(w.dir, 'config');
    expect((await w.cli(['export', '--out', out])).code).toBe(0);
    const file = readdirYaml(out).find((f) => readFileSync(f, 'utf8').includes('My account'))!;
    writeFileSync(file, readFileSync(file, 'utf8').replace('root_code: "*144#"', 'root_code: "*145#"'));
    const refused = await w.cli(['plan', 'config/']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error[plan.unknown-step-details]');
    expect(refused.stderr).toContain("step kinds (variable or select), expect texts, descriptions and operator ids are unknown");
    expect(refused.stderr).toContain(`--resend 'action["My account"]'`);
    server.resetStats();
    expect((await w.cli(['apply', 'config/', '--yes'])).code).toBe(1);
    expect(writeRequests(server)).toBe(0);

    const confirmed = await w.cli(['apply', 'config/', '--yes', '--resend', 'action["My account"]']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(readFileSync(join(out, 'menuctl.lock'), 'utf8')).not.toContain(`"id":"${id}","operator_ids":"unknown"`);
    const after = await w.cli(['plan', 'config/', '--detailed-exitcode']);
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
  });

  it('import adopts a hand-made app by id: no create, a clean plan, its secrets pulled by the id', async () => {
    const w = await workspace();
    const app = (await w.api('POST', '/api/apps', { app: { name: 'Till', package_name: 'com.acme.till', webhook_url: 'https://h.example.com/t' } })).body.data;
    writeFileSync(join(w.dir, 'menuctl.yaml'), 'version: 1\napps:\n  - { name: Till, package_name: com.acme.till, webhook_url: "https://h.example.com/t" }\n');
    server.resetStats();
    const imported = await w.cli(['import', 'app["com.acme.till"]', app.id]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(writeRequests(server)).toBe(0);
    const plan = await w.cli(['plan', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const pulled = await w.cli(['secrets', 'pull', '--out', 'secrets.env', '--format', 'env']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toBe('Wrote the secrets of 1 app to secrets.env (mode 0600): app["com.acme.till"].\n');
    const text = readFileSync(join(w.dir, 'secrets.env'), 'utf8');
    expect(text).toContain(`MENUCTL_APP_COM_ACME_TILL_TOKEN=${app.attributes.token}`);
    expect(statSync(join(w.dir, 'secrets.env')).mode & 0o777).toBe(0o600);
    // Then managed: removed from the config, it is archived.
    writeFileSync(join(w.dir, 'menuctl.yaml'), 'version: 1\napps: []\n');
    const removal = JSON.parse((await w.cli(['plan', '--format', 'json'])).stdout);
    expect(removal.changes.map((c: { op: string; address: string }) => `${c.op} ${c.address}`)).toEqual(['archive app["com.acme.till"]']);
  });

  it.each([
    ['a parser address', ['import', 'action["A"].parser["ok"]', '3'], /parsers are not imported/],
    ['an address the config lacks', ['import', 'app["com.nowhere"]', '3'], /is not in the config: add it first/],
    ['an id that is not live', ['import', 'app["com.acme.pos"]', '987654'], /there is no live app with id "987654"/],
    ['a live app of another package', ['import', 'app["com.acme.pos"]', 'OTHER'], /has package_name "com.acme.other", not "com.acme.pos": it is another resource/],
  ])('import refuses %s, recording nothing', async (_what, args, message) => {
    const w = await workspace();
    const other = (await w.api('POST', '/api/apps', { app: { name: 'Other', package_name: 'com.acme.other' } })).body.data;
    writeFileSync(join(w.dir, 'menuctl.yaml'), 'version: 1\napps:\n  - { name: Pos, package_name: com.acme.pos }\n');
    const r = await w.cli(args.map((a) => (a === 'OTHER' ? other.id : a)));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(() => readFileSync(join(w.dir, 'menuctl.lock'), 'utf8')).toThrow();
  });

  it('one secrets file for two environments: each keeps its own section, nothing flips between applies', async () => {
    const w = await workspace();
    const stagingToken = await server.mintToken(++org);
    const staging = org;
    const prodToken = await server.mintToken(++org);
    const production = org;
    writeFileSync(join(w.dir, 'menuctl.yaml'), `version: 1
environments:
  staging: { api_url: "${server.url}", organization_id: ${staging} }
  production: { api_url: "${server.url}", organization_id: ${production} }
apps:
  - { name: Agent, package_name: com.acme.agent }
`);
    const run = (name: string, token: string) => runCli(['apply', '--yes', '--env', name, '--secrets-file', 'secrets.json'], { env: { [`MENUCTL_TOKEN_${name.toUpperCase()}`]: token }, cwd: w.dir });
    expect((await run('staging', stagingToken)).code).toBe(0);
    expect((await run('production', prodToken)).code).toBe(0);
    const doc = JSON.parse(readFileSync(join(w.dir, 'secrets.json'), 'utf8'));
    const s = doc['environment staging']['app["com.acme.agent"]'];
    const p = doc['environment production']['app["com.acme.agent"]'];
    expect(s.token).toMatch(/^[0-9a-f]{32}$/);
    expect(p.token).toMatch(/^[0-9a-f]{32}$/);
    expect(s.token).not.toBe(p.token);
    const again = await run('staging', stagingToken);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes');
    expect(JSON.parse(readFileSync(join(w.dir, 'secrets.json'), 'utf8'))).toEqual(doc);
  });

  it('warns when the secrets file would be committed: inside a git work tree and not ignored', async () => {
    const w = await workspace();
    execFileSync('git', ['init', '-q', w.dir]);
    writeFileSync(join(w.dir, 'menuctl.yaml'), 'version: 1\napps:\n  - { name: Kiosk, package_name: com.acme.kiosk }\n');
    const tracked = await w.cli(['apply', '--yes', '--secrets-file', 'app-secrets.json']);
    expect(tracked.code).toBe(0);
    expect(tracked.stderr).toContain('Warning: the secrets file app-secrets.json is inside a git work tree and not ignored');
    writeFileSync(join(w.dir, '.gitignore'), 'app-secrets.json\n');
    const ignored = await w.cli(['apply', '--yes', '--secrets-file', 'app-secrets.json']);
    expect(ignored.stderr).not.toContain('git work tree');
  });
});

function readdirYaml(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => join(dir, f));
}
