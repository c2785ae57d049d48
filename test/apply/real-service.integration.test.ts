// Issue 9, "Done when", against both servers (test/helpers/modes.ts): the examples applied
// twice send nothing the second time and warn about nothing; one POST /api/apps per app, ever;
// a change only the record can see (a step's expect text, variable -> select) plans one update
// with a field-level diff and is clean after apply; without a record the plan says so once.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { tempDir } from './cli-world.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

describe.each(SERVER_MODES)('against the $name', (mode) => {
  let server: TestServer;
  let org = 500;
  beforeAll(async () => { server = await startTestServer(mode.options); });
  afterAll(async () => { await server.close(); });

  async function workspace() {
    const dir = tempDir();
    cpSync(EXAMPLES, join(dir, 'config'), { recursive: true });
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: await server.mintToken(++org) };
    const cli = (args: string[]) => runCli([...args], { env, cwd: dir });
    return { dir, cli, config: join(dir, 'config') };
  }
  const posts = () => server.stats().byRoute['POST /api/apps'] ?? 0;
  /** Applies the examples, then drops the agent app's token from the secrets file: what a lost write leaves. */
  async function applyThenLoseAgentToken(cli: Awaited<ReturnType<typeof workspace>>['cli'], dir: string) {
    expect((await cli(['apply', 'config', '--yes', '--secrets-file', 'secrets.json'])).code).toBe(0);
    const file = join(dir, 'secrets.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const lost = doc['app["com.example.agent"]'];
    delete doc['app["com.example.agent"]'];
    writeFileSync(file, JSON.stringify(doc));
    return { file, lost };
  }

  it('applies the examples twice: the second apply and plan change nothing and warn about nothing', async () => {
    const { cli } = await workspace();
    server.resetStats();
    const first = await cli(['apply', 'config', '--yes', '--secrets-file', 'secrets.json']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(posts()).toBe(2);
    server.resetStats();
    const second = await cli(['apply', 'config', '--yes', '--secrets-file', 'secrets.json']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('No changes. The live API matches the configuration.\n');
    expect(second.stderr).toBe('');
    expect(writeRequests(server)).toBe(0);
    const plan = await cli(['plan', 'config', '--format', 'json']);
    expect(plan.stderr).toBe('');
    const doc = JSON.parse(plan.stdout);
    expect(doc.changes).toEqual([]);
    expect(doc.warnings).toEqual([]);
    const drift = await cli(['drift', 'config']);
    expect(drift.code).toBe(0);
    expect(drift.stderr).toBe('');
    await cli(['apply', 'config', '--yes', '--secrets-file', 'secrets.json']);
    expect(posts()).toBe(0);
  });

  it('plans a change to a step\'s expect text or kind as one update with field paths, clean after apply', async () => {
    const { cli, config } = await workspace();
    expect((await cli(['apply', 'config', '--yes', '--secrets-file', 's.json'])).code).toBe(0);
    const file = join(config, 'uganda-momo.yaml');
    const yaml = readFileSync(file, 'utf8');
    writeFileSync(file, yaml.replace('expect: Airtime\n', 'expect: Sell Airtime\n').replace('      - variable: amount\n', '      - select: amount\n'));
    const plan = JSON.parse((await cli(['plan', 'config', '--format', 'json'])).stdout);
    expect(plan.changes.map((c: { op: string; address: string }) => `${c.op} ${c.address}`)).toEqual(['update action["MoMo sell airtime"]']);
    expect(plan.changes[0].fields).toEqual([
      { path: 'steps[0].expect', before: 'Airtime', after: 'Sell Airtime' },
      { path: 'steps[2].kind', before: 'variable', after: 'select' },
    ]);
    expect(plan.warnings).toEqual([]);
    const drift = await cli(['drift', 'config', '--format', 'json']);
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).drift[0].fields.map((f: { path: string }) => f.path)).toEqual(['steps[0].expect', 'steps[2].kind']);
    server.resetStats();
    expect((await cli(['apply', 'config', '--yes'])).code).toBe(0);
    expect(writeRequests(server)).toBe(1);
    const again = JSON.parse((await cli(['plan', 'config', '--format', 'json'])).stdout);
    expect(again.changes).toEqual([]);
    expect(again.warnings).toEqual([]);
  });

  it('without a record says so once, and --resend all establishes it', async () => {
    const { cli, dir } = await workspace();
    expect((await cli(['apply', 'config', '--yes', '--secrets-file', 's.json'])).code).toBe(0);
    // The record is lost (a new clone, a deleted file): the apps are pinned so only the record of steps is missing.
    const record = readFileSync(join(dir, 'config', 'menuctl.lock'), 'utf8');
    const ids = [...record.matchAll(/"address":"app\[\\"([^\\]+)\\"\]","id":"(\d+)"/g)].map((m) => [m[1]!, m[2]!]);
    expect(ids).toHaveLength(2);
    writeFileSync(join(dir, 'config', 'menuctl.lock'), '');
    const apps = join(dir, 'config', 'apps.yaml');
    let text = readFileSync(apps, 'utf8');
    for (const [pkg, id] of ids) text = text.replace(`package_name: ${pkg}\n`, `package_name: ${pkg}\n    id: "${id}"\n`);
    writeFileSync(apps, text);
    const plan = JSON.parse((await cli(['plan', 'config', '--format', 'json'])).stdout);
    expect(plan.changes).toEqual([]);
    expect(plan.warnings).toHaveLength(1);
    expect(plan.diagnostics).toEqual([{ severity: 'warning', code: 'plan.hidden-steps', message: plan.warnings[0] }]);
    expect(plan.warnings[0]).toMatch(/^5 unchanged actions have step details the API does not echo .* config\/menuctl\.lock has no record for this API yet .*`menuctl apply --resend all`/);
    expect((await cli(['apply', 'config', '--yes', '--resend', 'all'])).code).toBe(0);
    const clean = JSON.parse((await cli(['plan', 'config', '--format', 'json'])).stdout);
    expect(clean.warnings).toEqual([]);
    expect(clean.changes).toEqual([]);
  });

  it('completes a token missing from the secrets file from GET /api/apps/{id}, writing nothing to the API', async () => {
    const { cli, dir } = await workspace();
    const { file, lost } = await applyThenLoseAgentToken(cli, dir);
    server.resetStats();
    const r = await cli(['apply', 'config', '--yes', '--secrets-file', 'secrets.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Completed the secrets file secrets\.json: the token of 1 app it lacked \(app\["com\.example\.agent"\]\)/);
    expect(r.stdout).not.toContain('No changes');
    expect(r.stdout + r.stderr).not.toContain(lost.token);
    expect(writeRequests(server)).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))['app["com.example.agent"]']).toEqual(lost);
  });

  it('apply --plan FILE PATH (the CI path) also completes a token missing from the secrets file', async () => {
    const { cli, dir } = await workspace();
    const { file, lost } = await applyThenLoseAgentToken(cli, dir);
    // Something to apply, so the saved plan is carried out rather than short-circuited.
    const yaml = join(dir, 'config', 'apps.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('name: Field agent', 'name: Field agent (renamed)'));
    expect((await cli(['plan', 'config', '--out', 'plan.json'])).code).toBe(0);
    const r = await cli(['apply', '--plan', 'plan.json', 'config', '--yes', '--secrets-file', 'secrets.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))['app["com.example.agent"]']).toEqual(lost);
  });

  it('refuses to carry out a saved app create again once the record holds the app: never a second app', async () => {
    const { cli, dir } = await workspace();
    // Only the apps, so the plan holds nothing but app creates (the actions' would be stale anyway).
    expect((await cli(['plan', 'config/apps.yaml', '--out', 'plan.json'])).code).toBe(0);
    expect((await cli(['apply', '--plan', 'plan.json', '--yes', '--secrets-file', 'secrets.json'])).code).toBe(0);
    const tokens = readFileSync(join(dir, 'secrets.json'), 'utf8');
    server.resetStats();
    // The same plan again, without PATH: the API (spec-only) cannot show the app exists.
    const again = await cli(['apply', '--plan', 'plan.json', '--yes', '--secrets-file', 'secrets.json']);
    expect(again.code).toBe(1);
    // Where the API lists apps, the live app itself makes the plan stale; where it cannot, the record does.
    expect(again.stderr).toMatch(mode.specOnly
      ? /app\["com\.example\.agent"\]: the applied-state record holds this app as id \d+/
      : /app\["com\.example\.agent"\]: a live resource with this identity appeared/);
    expect(posts()).toBe(0);
    expect(writeRequests(server)).toBe(0);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toBe(tokens);
  });

  it('exports with the record: exact step kinds and details, the recorded apps, and a plan of the export is clean', async () => {
    const { cli, dir } = await workspace();
    expect((await cli(['apply', 'config', '--yes', '--secrets-file', 's.json'])).code).toBe(0);
    const r = await cli(['export', '--out', 'exported', '--record', 'config/menuctl.lock']);
    expect(r.code, r.stderr).toBe(0);
    const momo = readFileSync(join(dir, 'exported', 'momo-sell-airtime.yaml'), 'utf8');
    expect(momo).toContain('- press: 1\n        expect: Airtime');
    expect(momo).toContain('- variable: phone\n        description: Customer phone number, e.g. 256770000000');
    expect(readFileSync(join(dir, 'exported', 'apps.yaml'), 'utf8')).toContain('package_name: com.example.merchant.till');
    const plan = await cli(['plan', 'exported', '--format', 'json', '--record', 'config/menuctl.lock']);
    expect(plan.stderr).toBe('');
    expect(JSON.parse(plan.stdout)).toMatchObject({ changes: [], warnings: [] });
  });
});
