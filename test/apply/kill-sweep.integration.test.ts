// The kill-point sweep (issue 10, "Also"; issue 9 item 3): a real `menuctl apply` process with
// apps is SIGKILLed just after the server answered its k-th write, for every k of the run, then
// run again. Invariant, against both servers: no duplicate, nothing missing, every app's token
// in the secrets file. Against the spec-only server an app create whose answer never reached
// the killed process cannot be looked up (no apps index), so the re-run may instead stop with
// the in-flight message naming the app; resolved as a user would (pin the id when it exists,
// --recreate when it does not), the run converges with the same invariant.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { SERVER_MODES } from '../helpers/modes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';
import { census, clientFor } from './world.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = `${ROOT}dist/cli/main.js`;
const ACTIONS = ['K0', 'K1', 'K2'];
const APPS = ['com.example.one', 'com.example.two'];
/** Writes of one whole run: 3 actions, 3 parsers, 2 apps. */
const WRITES = ACTIONS.length * 2 + APPS.length;

describe.each(SERVER_MODES)('SIGKILL at every write against the $name', (mode) => {
  let server: TestServer;
  let org = 700;
  /** Called with each access-log line: the test's kill switch. */
  let onLine: (line: string) => void = () => undefined;
  beforeAll(async () => {
    if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', '.'], { cwd: ROOT, stdio: 'ignore' });
    server = await startTestServer({ ...mode.options, latencyMs: 5, log: (line) => onLine(line) });
  }, 120_000);
  afterAll(async () => { await server.close(); });

  /** Live apps per package name, read from the server's database (a user would look in the console). */
  function appsByPackage(orgId: number): Map<string, string[]> {
    const db = new Database(server.dataFile, { readonly: true });
    try {
      const rows = db.prepare('SELECT id, package_name FROM apps WHERE organization_id = ? AND archived_at IS NULL').all(orgId) as { id: number; package_name: string }[];
      const out = new Map<string, string[]>();
      for (const r of rows) out.set(r.package_name, [...(out.get(r.package_name) ?? []), String(r.id)]);
      return out;
    } finally {
      db.close();
    }
  }

  function killedApply(env: Record<string, string>, dir: string, k: number): Promise<void> {
    const child = spawn(process.execPath, [MAIN, 'apply', '--yes', '--concurrency', '2', '--secrets-file', 'secrets.json', 'menuctl.yaml'], {
      cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: 'ignore',
    });
    let writes = 0;
    onLine = (line) => {
      if (/ (POST|PATCH|PUT|DELETE) /.test(line) && ++writes === k) child.kill('SIGKILL');
    };
    return new Promise((resolve) => child.on('close', () => { onLine = () => undefined; resolve(); }));
  }

  for (let k = 1; k <= WRITES; k++) {
    it(`killed after write ${k} of ${WRITES}: the re-run leaves no duplicate, nothing missing, every token kept`, async () => {
      const orgId = ++org;
      const token = await server.mintToken(orgId);
      const env = envFor(server, token);
      const dir = tempDir();
      const config = join(dir, 'menuctl.yaml');
      writeConfig(dir, configYaml(ACTIONS.map((name) => ({ name, parsers: ['p'] })), { apps: APPS }));
      await killedApply(env, dir, k);

      const args = ['apply', '--yes', '--secrets-file', 'secrets.json', 'menuctl.yaml'];
      let again = await runCli(args, { env, cwd: dir });
      if (again.code !== 0 && mode.specOnly) {
        // Only an app create lost in flight may stop the re-run, and the message says what to do.
        expect(again.stderr).toMatch(/plan\.create-in-flight/);
        // The way out it names: import the app that exists, or confirm a new create.
        const live = appsByPackage(orgId);
        const recreate: string[] = [];
        for (const m of again.stderr.matchAll(/Error\[plan\.create-in-flight\]: an earlier apply sent the create of app\["([^"]+)"\] and/g)) {
          const ids = live.get(m[1]!) ?? [];
          if (ids.length === 1) expect((await runCli(['import', `app["${m[1]}"]`, ids[0]!, 'menuctl.yaml'], { env, cwd: dir })).code).toBe(0);
          else recreate.push('--recreate', `app["${m[1]}"]`);
        }
        again = await runCli([...args, ...recreate], { env, cwd: dir });
      }
      expect(again.code, again.stderr).toBe(0);

      const c = await census(clientFor(server, { token }));
      expect(Object.fromEntries(c.actions)).toEqual(Object.fromEntries(ACTIONS.map((n) => [n, 1])));
      expect(c.activeParsers).toBe(ACTIONS.length);
      const apps = appsByPackage(orgId);
      expect(Object.fromEntries([...apps].map(([pkg, ids]) => [pkg, ids.length]))).toEqual(Object.fromEntries(APPS.map((p) => [p, 1])));
      const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'));
      for (const pkg of APPS) expect(secrets[`app["${pkg}"]`]).toMatchObject({ id: apps.get(pkg)![0], token: expect.stringMatching(/^[0-9a-f]{32}$/) });
      const plan = await runCli(['plan', '--format', 'json', 'menuctl.yaml'], { env, cwd: dir });
      expect(JSON.parse(plan.stdout)).toMatchObject({ changes: [], warnings: [] });
    }, 30_000);
  }
});
