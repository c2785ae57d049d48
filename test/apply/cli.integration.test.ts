// `menuctl apply` end to end in-process (runCli), against the reference server over loopback.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, writeRequests, type TestServer } from '../helpers/server.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';
import { census, clientFor } from './world.js';

let server: TestServer;
let org = 100;
let token: string;
let client: ApiClient;
let dir: string;

beforeEach(async () => {
  org++;
  token = await server.mintToken(org);
  client = clientFor(server, { token });
  dir = tempDir();
});

describe.each(SERVER_MODES)('$name', (mode) => {
  beforeAll(async () => { server = await startTestServer(mode.options); });
  afterAll(async () => { await server.close(); });

  const apply = (args: string[], opts: { tty?: boolean; stdin?: string } = {}) =>
    runCli(['apply', ...args], { env: envFor(server, token), cwd: dir, ...opts });

  describe('menuctl apply', () => {
    it('applies with --yes, then says there is nothing to do', async () => {
      writeConfig(dir, configYaml([{ name: 'Check balance', parsers: ['balance', 'wrong-pin'] }]));
      const first = await apply(['--yes']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('+ create');
      expect(first.stdout).toMatch(/Apply complete: 3 applied \(3 created\), 0 failed, 0 skipped/);
      const second = await apply(['--yes']);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('No changes');
    });

    it('refuses without a terminal and without --yes, writing nothing', async () => {
      writeConfig(dir, configYaml([{ name: 'A', parsers: ['p'] }]));
      server.resetStats();
      const r = await apply([]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no terminal to ask on.*--yes/);
      expect(writeRequests(server)).toBe(0);
    });

    it('asks on a terminal: only "yes" applies', async () => {
      writeConfig(dir, configYaml([{ name: 'A' }]));
      const no = await apply([], { tty: true, stdin: 'y\n' });
      expect(no.code).toBe(1);
      expect(no.stderr).toContain('Apply cancelled');
      expect((await client.listActions()).length).toBe(0);
      const yes = await apply([], { tty: true, stdin: 'yes\n' });
      expect(yes.code).toBe(0);
      expect((await client.listActions()).length).toBe(1);
    });

    it('prints only one JSON document with --format json', async () => {
      writeConfig(dir, configYaml([{ name: 'A', parsers: ['p'] }]));
      const r = await apply(['--yes', '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.summary).toEqual({ applied: 2, failed: 0, skipped: 0 });
      expect(doc.outcomes.map((o: { address: string }) => o.address)).toEqual(['action["A"]', 'action["A"].parser["p"]']);
    });

    it('refuses to archive beyond the threshold without --force, naming the count', async () => {
      writeConfig(dir, configYaml(Array.from({ length: 12 }, (_, i) => ({ name: `A${i}` }))));
      expect((await apply(['--yes'])).code).toBe(0);
      writeConfig(dir, configYaml([{ name: 'A0' }]));
      server.resetStats();
      const refused = await apply(['--yes', '--prune']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/refusing to archive 11 of 12 managed resources .*--force/);
      expect(writeRequests(server)).toBe(0);
      const raised = await apply(['--yes', '--prune', '--max-archive', '11']);
      expect(raised.code).toBe(0);
      expect(raised.stdout).toContain('11 archived');
    });

    it('archives beyond the threshold with --force', async () => {
      writeConfig(dir, configYaml(Array.from({ length: 12 }, (_, i) => ({ name: `A${i}` }))));
      await apply(['--yes']);
      writeConfig(dir, configYaml([]));
      const r = await apply(['--yes', '--prune', '--force']);
      expect(r.code).toBe(0);
      expect((await census(client)).actions.size).toBe(0);
    });

    it('never archives a protected action, even with --prune --force', async () => {
      const first = await client.createAction({ name: 'Dup', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
      await client.createAction({ name: 'Dup', root_code: '*1#', transport_type: 'ussd', operator_ids: [1662], steps: [] });
      writeConfig(dir, configYaml([{ name: 'Dup', extra: `    id: "${first.id}"\n    protected: true` }]));
      server.resetStats();
      const r = await apply(['--yes', '--prune', '--force']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('plan.protected-archive');
      expect(writeRequests(server)).toBe(0);
      expect((await client.listActions()).filter((a) => a.archived_at === null)).toHaveLength(2);
    });

    it('refuses a config for another organization before any request that writes', async () => {
      writeConfig(dir, configYaml([{ name: 'A' }], { org: 999 }));
      server.resetStats();
      const r = await apply(['--yes']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/organization mismatch/);
      expect(writeRequests(server)).toBe(0);
    });

    it('writes created apps\' secrets only to the secrets file (0600, merged), never to the output', async () => {
      writeConfig(dir, configYaml([], { apps: ['com.example.one', 'com.example.two'] }));
      // Without a secrets file the apps are created and their ids recorded; the secrets stay with the API.
      const bare = await apply(['--yes']);
      expect(bare.code, bare.stderr).toBe(0);
      expect(bare.stdout).toContain('menuctl secrets pull --out FILE');
      const file = join(dir, 'secrets.json');
      writeFileSync(file, JSON.stringify({ 'app["com.example.old"]': { id: '9', token: 'kept', webhook_secret: null } }));
      // A secrets file given later is completed from the API by the recorded ids.
      const r = await apply(['--yes', '--secrets-file', 'secrets.json']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Completed the secrets file');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      expect(Object.keys(doc).sort()).toEqual(['app["com.example.old"]', 'app["com.example.one"]', 'app["com.example.two"]']);
      expect(doc['app["com.example.old"]']).toEqual({ id: '9', token: 'kept', webhook_secret: null });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      for (const entry of [doc['app["com.example.one"]'], doc['app["com.example.two"]']]) {
        expect(entry.token).toMatch(/^[0-9a-f]{32}$/);
        expect(entry.webhook_secret).toMatch(/^[0-9a-f]{32}$/);
        expect(r.stdout + r.stderr).not.toContain(entry.token);
        expect(r.stdout + r.stderr).not.toContain(entry.webhook_secret);
        expect(bare.stdout + bare.stderr).not.toContain(entry.token);
      }
    });
  });
});
