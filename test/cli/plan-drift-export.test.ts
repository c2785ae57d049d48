// plan, drift and export end to end: the real CLI (in-process) against the real reference
// server over loopback, the live state made through the real HTTP client.

import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/types.js';
import { runCli } from '../helpers/run-cli.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CONFIG = `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
      - pin
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is (?<balance>[\\d,.]+).*'
      - category: wrong-pin
        status: failed
        regex: '.*wrong PIN.*'
  - name: Buy airtime
    root_code: "*544#"
    transport_type: ussd
    operators: [2172, 2173]
    steps:
      - press: 2
      - variable: amount
      - pin
    parsers:
      - category: bought
        status: succeeded
        regex: 'You bought (?<amount>\\d+).*'
apps:
  - name: Field agent
    package_name: com.example.agent
    webhook_url: https://hooks.example.com/agent
`;

/** World operators in data/world-operators.tsv (one list, paged in spec-only mode). */
const OPERATORS = 110;

describe.each(SERVER_MODES)('against the $name', (mode) => {
  const pages = (n: number): number => (mode.options.pageSize ? Math.max(1, Math.ceil(n / mode.options.pageSize)) : 1);

  let server: TestServer;
  let client: ApiClient;
  let dir: string;
  let env: Record<string, string>;

  // A server per test: every test seeds the same names.
  beforeEach(async () => {
    server = await startTestServer(mode.options);
    client = createClient({ baseUrl: server.url, token: server.token });
    env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
    dir = mkdtempSync(join(tmpdir(), 'menuctl-cli-'));
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Makes the live state equal to CONFIG through the API (not through apply, which is tested elsewhere). */
  async function seed(): Promise<{ balance: string; airtime: string; extra: string }> {
    const balance = await client.createAction({
      name: 'Check balance', root_code: '*144#', transport_type: 'ussd', operator_ids: [2172],
      steps: [{ kind: 'press', value: '1' }, { kind: 'pin' }],
    });
    await client.createParser(balance.id, { category: 'balance', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'Your balance is (?<balance>[\\d,.]+).*', user_message: '' });
    await client.createParser(balance.id, { category: 'wrong-pin', status: 'failed', target_type: 'ussd', sender: null, regex: '.*wrong PIN.*', user_message: '' });
    const airtime = await client.createAction({
      name: 'Buy airtime', root_code: '*544#', transport_type: 'ussd', operator_ids: [2173, 2172],
      steps: [{ kind: 'press', value: '2' }, { kind: 'variable', name: 'amount' }, { kind: 'pin' }],
    });
    await client.createParser(airtime.id, { category: 'bought', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'You bought (?<amount>\\d+).*', user_message: '' });
    const app = await client.createApp({ name: 'Field agent', package_name: 'com.example.agent', webhook_url: 'https://hooks.example.com/agent' });
    // As an earlier apply would have: where the API cannot list apps, the record knows this one.
    if (mode.specOnly) {
      writeFileSync(join(dir, 'menuctl.lock'), `${JSON.stringify({ scope: `${server.url} org 1`, address: 'app["com.example.agent"]', id: app.app.id })}\n`);
    }
    // Not in the config: unmanaged, and its parsers are not read.
    const extra = await client.createAction({ name: 'Someone else', root_code: '*100#', transport_type: 'ussd', operator_ids: [2172], steps: [] });
    await client.createParser(extra.id, { category: 'x', status: 'succeeded', target_type: 'ussd', sender: null, regex: 'x', user_message: '' });
    return { balance: balance.id, airtime: airtime.id, extra: extra.id };
  }

  describe('plan', () => {
    it('plans every create on an empty organization, as the contract JSON, with three reads', async () => {
      server.resetStats();
      const r = await runCli(['plan', '--format', 'json'], { cwd: dir, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const plan = JSON.parse(r.stdout);
      expect(plan.format_version).toBe(1);
      expect(plan.summary).toEqual({ create: 6, update: 0, archive: 0, restore: 0 });
      expect(plan.changes.map((c: { op: string; address: string }) => `${c.op} ${c.address}`)).toEqual([
        'create action["Buy airtime"]',
        'create action["Check balance"]',
        'create app["com.example.agent"]',
        'create action["Buy airtime"].parser["bought"]',
        'create action["Check balance"].parser["balance"]',
        'create action["Check balance"].parser["wrong-pin"]',
      ]);
      for (const c of plan.changes) expect(c).toMatchObject({ id: null, type: expect.any(String), fields: expect.any(Array) });
      // Nothing live: the actions list, the apps list and the operator catalog, and no more.
      expect(server.stats().byRoute).toEqual({ 'GET /api/actions': 1, 'GET /api/apps': 1, 'GET /api/world_operators': pages(OPERATORS) });
    });

    it('shows no changes when live matches, reading only the managed actions\' parsers', async () => {
      await seed();
      server.resetStats();
      const r = await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('No changes');
      expect(r.stdout).toContain('action["Someone else"]'); // listed as unmanaged
      // Spec-only: the app is read by its recorded id; lists come in pages.
      expect(server.stats().requests).toBe(3 + 2 + (mode.specOnly ? 1 : 0) + pages(OPERATORS) - 1);
      expect(server.stats().byRoute['GET /api/actions/:id/parsers']).toBe(2);
    });

    it('--detailed-exitcode exits 2 on changes, and --out saves a plan without secrets', async () => {
      const ids = await seed();
      await client.updateParser((await client.listParsers(ids.balance)).find((p) => p.category === 'balance')!.id, { regex: 'changed' });
      const out = join(dir, 'plan.json');
      const r = await runCli(['plan', '--detailed-exitcode', '--out', out], { cwd: dir, env });
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(/~ .*action\["Check balance"\]\.parser\["balance"\]/);
      const saved = readFileSync(out, 'utf8');
      const plan = JSON.parse(saved);
      expect(plan.changes).toHaveLength(1);
      expect(plan.changes[0].fields).toEqual([{ path: 'regex', before: 'changed', after: 'Your balance is (?<balance>[\\d,.]+).*' }]);
      expect(saved).not.toContain(server.token);
      expect(saved).not.toMatch(/token|webhook_secret/);
    });

    it('refuses an organization mismatch before reading anything else', async () => {
      writeFileSync(join(dir, 'menuctl.yaml'), CONFIG.replace('version: 1\n', 'version: 1\norganization_id: 2\n'));
      server.resetStats();
      const r = await runCli(['plan'], { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/organization mismatch: the credentials act for organization 1/);
      expect(server.stats().requests).toBe(0);
    });
  });

  describe('problems', () => {
    it('an invalid config is reported with its source line, before any request', async () => {
      writeFileSync(join(dir, 'menuctl.yaml'), CONFIG.replace('status: failed', 'status: faild'));
      server.resetStats();
      const r = await runCli(['plan'], { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^menuctl\.yaml:15:17: error\[schema\.\S+\] action\["Check balance"\]\.parser\["wrong-pin"\]: .*faild/m);
      expect(r.stderr).toContain(' 15 |         status: faild');
      expect(r.stderr).toMatch(/Error: the config is not valid; nothing was read or changed/);
      expect(server.stats().requests).toBe(0);
    });

    it('two live actions with one name stop the plan, naming both ids at the config line', async () => {
      const spec = { name: 'Check balance', root_code: '*144#', transport_type: 'ussd' as const, operator_ids: [2172], steps: [] };
      const a = await client.createAction(spec);
      const b = await client.createAction(spec);
      const r = await runCli(['plan'], { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^menuctl\.yaml:3:\d+: error\[[^\]]+\] action\["Check balance"\]: /m);
      expect(r.stderr).toContain(a.id);
      expect(r.stderr).toContain(b.id);
      expect(r.stderr).toMatch(/Error: cannot make a plan; nothing was changed/);
    });
  });

  describe('apply --plan', () => {
    it('refuses a plan made for another organization before reading anything by id', async () => {
      const ids = await seed();
      await client.updateParser((await client.listParsers(ids.balance)).find((p) => p.category === 'balance')!.id, { regex: 'changed' });
      const out = join(dir, 'plan.json');
      expect((await runCli(['plan', '--out', out], { cwd: dir, env })).code).toBe(0);
      const other = await server.mintToken(2);
      server.resetStats();
      const r = await runCli(['apply', '--plan', out, '--yes'], { cwd: dir, env: { ...env, MENUCTL_TOKEN: other } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the plan was made for organization 1, but the credentials act for organization 2');
      expect(server.stats().requests).toBe(0);
    });
  });

  describe('drift', () => {
    it('reports an out-of-band edit as changed, with the field, and exits 2', async () => {
      const ids = await seed();
      const wrongPin = (await client.listParsers(ids.balance)).find((p) => p.category === 'wrong-pin')!;
      await client.updateParser(wrongPin.id, { status: 'pending' });
      await client.archiveAction(ids.airtime);
      const r = await runCli(['drift', '--format', 'json'], { cwd: dir, env });
      expect(r.code).toBe(2);
      const drift = JSON.parse(r.stdout);
      expect(drift.in_sync).toBe(false);
      const byAddress = Object.fromEntries(drift.drift.map((d: { address: string }) => [d.address, d]));
      expect(byAddress['action["Check balance"].parser["wrong-pin"]']).toMatchObject({
        class: 'changed', type: 'parser', id: wrongPin.id,
        fields: [{ path: 'status', expected: 'failed', live: 'pending' }],
      });
      expect(byAddress['action["Buy airtime"]']).toMatchObject({ class: 'archived', type: 'action', id: ids.airtime });
      expect(byAddress['action["Someone else"]']).toMatchObject({ class: 'unmanaged', id: ids.extra });
    });

    it('exits 0 in sync, writes --report-file in the format asked, and the step summary', async () => {
      await seed();
      await client.archiveAction((await client.listActions()).find((a) => a.name === 'Someone else')!.id);
      const report = join(dir, 'drift.xml');
      const summary = join(dir, 'summary.md');
      writeFileSync(summary, '');
      const r = await runCli(['drift', '--format', 'junit', '--report-file', report], { cwd: dir, env: { ...env, GITHUB_STEP_SUMMARY: summary } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('No drift');
      // Every managed resource is a passing testcase: 2 actions, 3 parsers, 1 app.
      expect(readFileSync(report, 'utf8')).toMatch(/^<\?xml[\s\S]*<testsuites name="menuctl drift" tests="6" failures="0"/);
      expect(readFileSync(summary, 'utf8')).toContain('<!-- menuctl:drift -->');
    });
  });

  describe('export', () => {
    it('exports a directory that plans with no changes', async () => {
      await seed();
      const out = join(dir, 'exported');
      const r = await runCli(['export', '--out', out], { cwd: dir, env });
      expect(r.code).toBe(0);
      // The record (beside the export, or the one found where it runs) adopts what it declares (CONTRACT.md "Ownership").
      expect(readdirSync(out).filter((f) => f.endsWith('.yaml')).sort()).toEqual(['apps.yaml', 'buy-airtime.yaml', 'check-balance.yaml', 'someone-else.yaml']);
      expect(r.stdout).toMatch(/Recorded \d+ exported resources as managed in .*menuctl\.lock; the step details the API does not show are recorded as unknown/);
      const all = readdirSync(out).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
      expect(all).toMatch(/^# yaml-language-server: \$schema=/);
      expect(all).not.toMatch(/token|webhook_secret/);
      const plan = await runCli(['plan', out, '--detailed-exitcode', '--prune'], { cwd: dir, env });
      expect(plan.stderr).toBe('');
      expect(plan.stdout).toContain('No changes');
      expect(plan.code).toBe(0);
    });

    it('exports the apps so that the export plans no creates on its own, finding the record where it runs', async () => {
      await seed();
      const out = join(dir, 'exported');
      // No --record: out/ has none, so the one in the working directory is read.
      const r = await runCli(['export', '--out', out], { cwd: dir, env });
      expect(r.code).toBe(0);
      const apps = readFileSync(join(out, 'apps.yaml'), 'utf8');
      expect(apps).toContain('package_name: com.example.agent');
      // Where the API cannot list apps, only a pinned id lets a plan of the export find the app.
      if (mode.specOnly) expect(apps).toMatch(/^ {4}id: "?1"?$/m);
      else expect(apps).not.toMatch(/^ {4}id:/m);
      // out/ has no record of its own: the plan must still not create the app a second time.
      const plan = await runCli(['plan', out, '--format', 'json'], { cwd: dir, env });
      expect(plan.code).toBe(0);
      expect(JSON.parse(plan.stdout).summary).toEqual({ create: 0, update: 0, archive: 0, restore: 0 });
    });

    it('refuses to overwrite without --force', async () => {
      await seed();
      const out = join(dir, 'one.yaml');
      writeFileSync(out, 'keep me');
      const r = await runCli(['export', '--out', out], { cwd: dir, env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/not overwriting one\.yaml: pass --force/);
      expect(readFileSync(out, 'utf8')).toBe('keep me');
      expect((await runCli(['export', '--out', out, '--force'], { cwd: dir, env })).code).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain('Check balance');
    });
  });
});
