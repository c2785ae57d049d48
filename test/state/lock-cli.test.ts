// Locking through the CLI (CONTRACT.md "State"): two applies at once on one record send each
// change once; the refused one names the holder and how to release the lock; a lock left by a
// killed apply is reported, never taken over, until `menuctl state unlock ID`.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tempDir } from '../apply/cli-world.js';
import { scopeKey } from '../../src/record/record.js';

const CONFIG = [
  'version: 1',
  'actions:',
  ...Array.from({ length: 6 }, (_, i) => [`  - name: Menu ${i}`, `    root_code: "*${100 + i}#"`, '    transport_type: ussd', '    operators: [2172]', '    steps: [ { press: 1 } ]'].join('\n')),
  'apps:',
  '  - { name: Kiosk, package_name: com.example.kiosk }',
].join('\n') + '\n';

describe('state locks through the CLI (spec-only server, 30 ms a request)', () => {
  let server: TestServer;
  let org = 300;
  beforeAll(async () => { server = await startTestServer({ specOnly: true, latencyMs: 30 }); });
  afterAll(async () => { await server.close(); });

  async function workspace() {
    const dir = tempDir();
    writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
    const token = await server.mintToken(++org);
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: token };
    return { dir, org, env, cli: (args: string[]) => runCli(args, { env, cwd: dir }) };
  }

  it('two applies at once: each change is sent once; the other is refused naming the lock, or waits and finds nothing to do', async () => {
    const w = await workspace();
    server.resetStats();
    const [a, b] = await Promise.all([
      w.cli(['apply', '--yes', '--discard-secrets']),
      w.cli(['apply', '--yes', '--discard-secrets']),
    ]);
    const posts = server.stats().byRoute;
    expect(posts['POST /api/apps'] ?? 0).toBe(1);
    expect(posts['POST /api/actions'] ?? 0).toBe(6);
    const refused = [a, b].filter((r) => r.code !== 0);
    expect(refused.length).toBeLessThanOrEqual(1);
    for (const r of refused) {
      expect(r.stderr).toMatch(/is locked: held by .* running `menuctl apply` since .*, lock id [0-9a-f-]{36}\. Nothing was changed\./);
      expect(r.stderr).toContain('menuctl state unlock');
    }
    expect(readdirSync(w.dir).filter((n) => n.endsWith('.lock-info'))).toEqual([]);
    const plan = await w.cli(['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toBe('');
  });

  it('with --lock-timeout the second apply waits for the first, then sends nothing', async () => {
    const w = await workspace();
    server.resetStats();
    const first = w.cli(['apply', '--yes', '--discard-secrets']);
    // The second starts once the first holds the lock (its lock file exists).
    while (!readdirSync(w.dir).some((n) => n.endsWith('.lock-info'))) await new Promise((r) => setTimeout(r, 5));
    const second = await w.cli(['apply', '--yes', '--discard-secrets', '--lock-timeout', '2m']);
    expect((await first).code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^Waiting up to 120 s for the state lock of .*: held by .* running `menuctl apply`/m);
    expect(second.stdout).toContain('No changes');
    expect(server.stats().byRoute['POST /api/actions']).toBe(6);
  });

  async function leaveLock(dir: string, key: string, host: string) {
    // What a SIGKILLed apply leaves: its lock file, its process gone.
    const lock = { id: '0e4c6c5e-1111-4222-8333-944445555666', scope: key, who: 'ci', host, command: 'apply', started: '2026-11-27T01:00:00.000Z', pid: 2 ** 22 + 17 };
    const { createHash } = await import('node:crypto');
    const tag = createHash('sha256').update(key).digest('hex').slice(0, 16);
    writeFileSync(join(dir, `.menuctl.lock.${tag}.lock-info`), JSON.stringify(lock));
    return lock;
  }

  it('a lock left by a killed apply on this host is taken over and reported, never silently', async () => {
    const w = await workspace();
    const lock = await leaveLock(w.dir, scopeKey(server.url, w.org), hostname());
    const r = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Warning: the state lock of ${scopeKey(server.url, w.org)} was left by ci@${hostname()} running \`menuctl apply\``);
    expect(r.stderr).toContain(`(lock id ${lock.id}), which stopped without releasing it`);
    expect(readdirSync(w.dir).filter((n) => n.includes('.lock-info'))).toEqual([]);
  });

  it('a lock left by a run on another host is reported with its id, never taken over, until state unlock', async () => {
    const w = await workspace();
    const lock = await leaveLock(w.dir, scopeKey(server.url, w.org), 'runner-7f3a');
    server.resetStats();
    const refused = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`lock id ${lock.id}`);
    expect(refused.stderr).toContain(`if that run was killed, release the lock with \`menuctl state unlock ${lock.id}\``);
    expect(Object.keys(server.stats().byRoute).filter((r) => !r.startsWith('GET'))).toEqual([]);

    const listed = await w.cli(['state', 'list']);
    expect(listed.stderr).toContain(`lock id ${lock.id}`);
    const unlocked = await w.cli(['state', 'unlock', lock.id]);
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain(`Released lock ${lock.id}`);
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    expect(readFileSync(join(w.dir, 'menuctl.lock'), 'utf8')).toContain('app[\\"com.example.kiosk\\"]');
  });

  it('state rm forgets an address under the lock; the live resource is untouched', async () => {
    const w = await workspace();
    expect((await w.cli(['apply', '--yes', '--discard-secrets'])).code).toBe(0);
    server.resetStats();
    const rm = await w.cli(['state', 'rm', 'action["Menu 0"]']);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toMatch(/^Removed action\["Menu 0"\] \(id [0-9a-z]+\)/);
    expect(Object.keys(server.stats().byRoute)).toEqual([]);
    const list = await w.cli(['state', 'list']);
    expect(list.stdout).not.toContain('action["Menu 0"]');
    expect(list.stdout).toContain('action["Menu 1"]');
    const again = await w.cli(['state', 'rm', 'action["Menu 0"]']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has no line for action["Menu 0"]');
  });

  it('a run whose lock is released under it (state unlock --force) stops before its next write; the next apply finishes it, nothing twice', async () => {
    const w = await workspace();
    const many = CONFIG.replace('apps:', [...Array.from({ length: 24 }, (_, i) => [`  - name: More ${i}`, `    root_code: "*${300 + i}#"`, '    transport_type: ussd', '    operators: [2172]', '    steps: [ { press: 1 } ]'].join('\n')), 'apps:'].join('\n'));
    writeFileSync(join(w.dir, 'menuctl.yaml'), many);
    server.resetStats();
    const first = runCli(['apply', '--yes', '--discard-secrets', '--concurrency', '2'], { env: w.env, cwd: w.dir });
    // Released once the first has sent a few creates.
    while ((server.stats().byRoute['POST /api/actions'] ?? 0) < 3) await new Promise((r) => setTimeout(r, 5));
    const file = readdirSync(w.dir).find((n) => n.endsWith('.lock-info'))!;
    const { id } = JSON.parse(readFileSync(join(w.dir, file), 'utf8')) as { id: string };
    const unlocked = await w.cli(['state', 'unlock', id, '--force']);
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain('If that run still works, it stops at its next write.');
    const stopped = await first;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Error[state.lock-lost]');
    expect(stopped.stderr).toContain(`this run no longer holds the state lock of ${scopeKey(server.url, w.org)} (lock id ${id})`);
    expect(stopped.stdout).toMatch(/Apply stopped: \d+ applied/);
    const sentByFirst = server.stats().byRoute['POST /api/actions'] ?? 0;
    // At most the creates already in flight (two slots) went out after the release.
    expect(sentByFirst).toBeLessThan(30);

    const second = await w.cli(['apply', '--yes', '--discard-secrets']);
    expect(second.code).toBe(0);
    const routes = server.stats().byRoute;
    expect(routes['POST /api/actions']).toBe(30);
    expect(routes['POST /api/apps'] ?? 0).toBe(1);
    const plan = await w.cli(['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  });

  it('state unlock refuses the lock of a run still alive on this host unless --force', async () => {
    const w = await workspace();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const key = scopeKey(server.url, w.org);
      const lock = await leaveLock(w.dir, key, hostname());
      const { createHash } = await import('node:crypto');
      const tag = createHash('sha256').update(key).digest('hex').slice(0, 16);
      writeFileSync(join(w.dir, `.menuctl.lock.${tag}.lock-info`), JSON.stringify({ ...lock, pid: child.pid }));
      const refused = await w.cli(['state', 'unlock', lock.id]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`process ${child.pid} on this host`);
      expect(refused.stderr).toContain('--force');
      expect(readdirSync(w.dir).some((n) => n.endsWith('.lock-info'))).toBe(true);
      // And apply never takes it over: its holder runs.
      const apply = await w.cli(['apply', '--yes', '--discard-secrets']);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(`lock id ${lock.id}`);
      expect(apply.stderr).toContain(`Its process ${child.pid} still runs on this host`);
      expect(apply.stderr).toContain(`\`menuctl state unlock ${lock.id} --force\``);
      const forced = await w.cli(['state', 'unlock', lock.id, '--force']);
      expect(forced.code).toBe(0);
      expect(readdirSync(w.dir).some((n) => n.endsWith('.lock-info'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
