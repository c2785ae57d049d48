// Issue 36 item 1 through the CLI on the network backends: an apply whose lock is released under it
// (`state unlock ID --force` from another terminal) stops before its next write, on a real git
// remote and a real PostgreSQL; the next apply finishes the job with nothing made twice.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.mjs';

const ACTIONS = 40;
const CONFIG = [
  'version: 1',
  'actions:',
  ...Array.from({ length: ACTIONS }, (_, i) => [`  - name: Menu ${i}`, `    root_code: "*${100 + i}#"`, '    transport_type: ussd', '    operators: [2172]', '    steps: [ { press: 1 } ]'].join('\n')),
  'apps:',
  '  - { name: Kiosk, package_name: com.example.kiosk }',
].join('\n') + '\n';

let server: TestServer;
let postgres: TestPostgres;
const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
let org = 900;
let table = 0;

beforeAll(async () => {
  [server, postgres] = await Promise.all([startTestServer({ specOnly: true, latencyMs: 100 }), startPostgres()]);
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.close(), postgres?.stop()]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const backends: { name: string; state: () => { url: string; env: Record<string, string> } }[] = [
  {
    name: 'git',
    state: () => {
      const home = tmp('menuctl-lost-home-');
      const bare = join(tmp('menuctl-lost-git-'), 'state.git');
      execFileSync('git', ['init', '--bare', '--quiet', bare]);
      return { url: `git+file://${bare}#menuctl-state`, env: { HOME: home, GIT_CONFIG_NOSYSTEM: '1' } };
    },
  },
  { name: 'PostgreSQL', state: () => ({ url: `${postgres.url}?table=lost${++table}`, env: {} }) },
];

describe.each(backends)('a lock released under a running apply ($name)', ({ state }) => {
  it('stops it before its next write; the next apply finishes with nothing twice', async () => {
    const dir = tmp('menuctl-lost-');
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
    const s = state();
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: await server.mintToken(++org), MENUCTL_STATE: s.url, ...s.env };
    const cli = (args: string[]) => runCli(args, { env, cwd: dir });
    server.resetStats();
    const first = cli(['apply', '--yes', '--discard-secrets', '--concurrency', '2']);
    while ((server.stats().byRoute['POST /api/actions'] ?? 0) < 3) await new Promise((r) => setTimeout(r, 5));
    const listed = await cli(['state', 'list']);
    const id = /lock id ([0-9a-f-]{36})/.exec(listed.stderr)?.[1];
    expect(id, listed.stderr).toBeDefined();
    const unlocked = await cli(['state', 'unlock', id!, '--force']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    const stopped = await first;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Error[state.lock-lost]');
    expect(stopped.stdout).toMatch(/Apply stopped: \d+ applied/);
    expect(server.stats().byRoute['POST /api/actions'] ?? 0).toBeLessThan(ACTIONS);

    const second = await cli(['apply', '--yes', '--discard-secrets']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(server.stats().byRoute['POST /api/actions']).toBe(ACTIONS);
    expect(server.stats().byRoute['POST /api/apps'] ?? 0).toBe(1);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});
