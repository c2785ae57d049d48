// Environments (issue 14) end to end: one config, staging = organization 81 and production = 82
// on one real reference server over loopback, real JWTs per organization, the CLI in-process.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runCli } from '../helpers/run-cli.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const config = (url: string) => `version: 1
environments:
  staging:
    api_url: "${url}"
    organization_id: 81
    variables: { HOOKS: "https://staging-hooks.example.com" }
  production:
    api_url: "${url}"
    organization_id: 82
    variables: { HOOKS: "https://hooks.example.com" }
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps: [{ press: 1 }, pin]
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is (?<balance>[\\d,.]+).*'
  - name: Beta menu
    environments: [staging]
    root_code: "*145#"
    transport_type: ussd
    operators: [2172]
apps:
  - name: Wallet
    package_name: com.example.wallet
    webhook_url: "\${HOOKS}/in"
`;

describe.each(SERVER_MODES)('environments against the $name', (mode) => {
  let server: TestServer;
  let dir: string;
  let staging: string;
  let production: string;

  beforeEach(async () => {
    server = await startTestServer(mode.options);
    [staging, production] = await Promise.all([server.mintToken(81), server.mintToken(82)]);
    dir = mkdtempSync(join(tmpdir(), 'menuctl-env-'));
    writeFileSync(join(dir, 'menuctl.yaml'), config(server.url));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { cwd: dir, env });
  const tokens = () => ({ MENUCTL_TOKEN_STAGING: staging, MENUCTL_TOKEN_PRODUCTION: production });

  it('plan without --env refuses, naming both environments, and reads nothing', async () => {
    server.resetStats();
    const r = await cli(['plan'], tokens());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('`staging`, `production`');
    expect(r.stderr).toContain('--env NAME');
    expect(server.stats().requests).toBe(0);
  });

  it('a resource limited to staging is planned only there; plans name their environment', async () => {
    const s = await cli(['plan', '--env', 'staging', '--format', 'json'], tokens());
    expect(s.stderr).toBe('');
    const sPlan = JSON.parse(s.stdout);
    expect(sPlan.environment).toBe('staging');
    expect(sPlan.organization_id).toBe(81);
    expect(sPlan.changes.map((c: { address: string }) => c.address)).toContain('action["Beta menu"]');

    const p = await cli(['plan', '--format', 'json'], { ...tokens(), MENUCTL_ENV: 'production' });
    const pPlan = JSON.parse(p.stdout);
    expect(pPlan.environment).toBe('production');
    expect(pPlan.organization_id).toBe(82);
    const addresses = pPlan.changes.map((c: { address: string }) => c.address);
    expect(addresses).toContain('action["Check balance"]');
    expect(addresses).not.toContain('action["Beta menu"]');

    const text = await cli(['plan', '--env', 'production'], tokens());
    expect(text.stdout).toContain('in organization 82 (environment production)');
  });

  it('a production plan takes its token from MENUCTL_TOKEN_PRODUCTION, over MENUCTL_TOKEN', async () => {
    const r = await cli(['plan', '--env', 'production', '--format', 'json'], { MENUCTL_TOKEN: staging, MENUCTL_TOKEN_PRODUCTION: production });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).organization_id).toBe(82);
    for (const token of [staging, production]) expect(r.stdout + r.stderr).not.toContain(token);
  });

  it('a staging token used with --env production is refused by the organization guard, before anything is read', async () => {
    server.resetStats();
    const r = await cli(['plan', '--env', 'production'], { MENUCTL_TOKEN: staging });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('organization mismatch: the credentials act for organization 81');
    expect(r.stderr).toContain("environment production's organization_id is 82");
    expect(r.stdout).toBe('');
    expect(Object.keys(server.stats().byRoute).filter((k) => k.includes('/api/actions'))).toEqual([]);
  });

  it("each environment's variables reach its live apps; both scopes are kept in one menuctl.lock", async () => {
    for (const env of ['staging', 'production']) {
      const r = await cli(['apply', '--env', env, '--yes', '--discard-secrets'], tokens());
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const lock = readFileSync(join(dir, 'menuctl.lock'), 'utf8');
    const lines = lock.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { scope: string; address: string; id: string });
    const appId = (scope: string) => lines.find((l) => l.scope === scope && l.address === 'app["com.example.wallet"]')!.id;
    expect(new Set(lines.map((l) => l.scope))).toEqual(new Set(['environment staging', 'environment production']));
    expect(lines.filter((l) => l.scope === 'environment production').map((l) => l.address)).not.toContain('action["Beta menu"]');

    for (const [env, token, hook] of [['staging', staging, 'https://staging-hooks.example.com/in'], ['production', production, 'https://hooks.example.com/in']] as const) {
      const client = createClient({ baseUrl: server.url, token });
      try {
        expect((await client.getApp(appId(`environment ${env}`)))?.webhook_url).toBe(hook);
      } finally {
        await client.close();
      }
      const again = await cli(['plan', '--env', env, '--detailed-exitcode'], tokens());
      expect(again.code, again.stdout + again.stderr).toBe(0);
    }
  });

  it('a saved plan records its environment, and apply --plan refuses it for another', async () => {
    const made = await cli(['plan', '--env', 'staging', '--out', 'staging.plan.json'], tokens());
    expect(made.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'staging.plan.json'), 'utf8')).environment).toBe('staging');
    server.resetStats();
    const r = await cli(['apply', '--plan', 'staging.plan.json', '--env', 'production', '--yes'], tokens());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the plan was made for environment staging, but this is environment production');
    expect(server.stats().requests).toBe(0);
    // Without --env the plan's own environment is used.
    const ok = await cli(['apply', '--plan', 'staging.plan.json', 'menuctl.yaml', '--yes', '--discard-secrets'], tokens());
    expect(ok.stderr).not.toContain('Error');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('in organization 81 (environment staging)');
  });

  it('diff-env: the same after both are applied (variables and ids ignored), then what staging has that production lacks', async () => {
    for (const env of ['staging', 'production']) expect((await cli(['apply', '--env', env, '--yes', '--discard-secrets'], tokens())).code).toBe(0);
    const same = await cli(['diff-env', 'staging', 'production', '--format', 'json'], tokens());
    expect(same.code, same.stderr).toBe(0);
    const sameDiff = JSON.parse(same.stdout);
    expect(sameDiff.same).toBe(true);
    expect(sameDiff.masked_variables).toEqual(['HOOKS']);
    expect(sameDiff.only_in_config).toEqual([{ address: 'action["Beta menu"]', environment: 'staging' }]);

    // A change promoted to staging only.
    writeFileSync(join(dir, 'menuctl.yaml'), config(server.url).replace('Your balance is', 'Balance:').replace('"${HOOKS}/in"', '"${HOOKS}/v2"'));
    expect((await cli(['apply', '--env', 'staging', '--yes', '--discard-secrets'], tokens())).code).toBe(0);
    const differ = await cli(['diff-env', 'staging', 'production'], tokens());
    expect(differ.code, differ.stderr).toBe(2);
    expect(differ.stdout).toContain('~ action["Check balance"].parser["balance"]');
    expect(differ.stdout).toMatch(/regex: +"Balance: \(\?<balance>.*" in staging, "Your balance is .*" in production/);
    expect(differ.stdout).toContain('webhook_url: "${HOOKS}/v2" in staging, "${HOOKS}/in" in production');
    expect(differ.stdout).toContain('staging and production differ: 2 resources');
  });

  it('diff-env refuses MENUCTL_API_URL, which would send both environments to one API', async () => {
    const r = await cli(['diff-env', 'staging', 'production'], { ...tokens(), MENUCTL_API_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MENUCTL_API_URL would send both to one API: unset it for diff-env');
  });

  it("export --env reads that environment's organization, guarded by its organization_id", async () => {
    for (const env of ['staging', 'production']) expect((await cli(['apply', '--env', env, '--yes', '--discard-secrets'], tokens())).code).toBe(0);
    const prod = await cli(['export', '--env', 'production'], tokens());
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stdout).toContain('name: Check balance');
    expect(prod.stdout).not.toContain('Beta menu');
    const stag = await cli(['export'], { ...tokens(), MENUCTL_ENV: 'staging' });
    expect(stag.stdout).toContain('Beta menu');
    const wrong = await cli(['export', '--env', 'production'], { MENUCTL_TOKEN: staging });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('organization mismatch');
    expect(wrong.stdout).toBe('');
  });

  it('drift names the environment', async () => {
    const r = await cli(['drift', '--env', 'staging', '--format', 'json'], tokens());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).environment).toBe('staging');
    const md = await cli(['drift', '--env', 'staging', '--format', 'markdown'], tokens());
    expect(md.stdout).toContain('## menuctl drift: environment <code>staging</code>');
  });
});

describe('environments: choosing one', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'menuctl-env-'));
    writeFileSync(join(dir, 'menuctl.yaml'), config('http://127.0.0.1:9'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an unknown --env is refused with the closest name', async () => {
    const r = await runCli(['drift', '--env', 'prod'], { cwd: dir, env: { MENUCTL_TOKEN: 'x.y.z' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--env prod: no such environment');
    expect(r.stderr).toContain('`staging`, `production`');
  });

  it('export refuses without --env when the config in the directory defines environments', async () => {
    const r = await runCli(['export'], { cwd: dir, env: { MENUCTL_TOKEN: 'x.y.z' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('choose one with --env NAME');
  });

  it('export --config takes the environments from that file, and refuses a path it cannot read', async () => {
    const missing = await runCli(['export', '--config', 'nope.yaml', '--env', 'staging'], { cwd: dir, env: { MENUCTL_TOKEN: 'x.y.z' } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the config nope.yaml');
    const elsewhere = await runCli(['export', '--config', join(dir, 'menuctl.yaml'), '--env', 'prod'], { cwd: tmpdir(), env: { MENUCTL_TOKEN: 'x.y.z' } });
    expect(elsewhere.stderr).toContain('--env prod: no such environment');
  });

  it('--env on a config without environments is refused', async () => {
    writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\n');
    const r = await runCli(['plan', '--env', 'staging'], { cwd: dir, env: { MENUCTL_TOKEN: 'x.y.z', MENUCTL_API_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the config defines no environments');
  });
});
