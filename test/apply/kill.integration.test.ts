// A real `menuctl apply` process, stopped midway: by SIGINT (clean stop, exit 130) and by
// SIGKILL (no chance to clean up). Either way the next plan tells the truth and the next
// apply finishes the job without duplicates. Runs dist/ (built by `pretest`; built here if absent).
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { configYaml, envFor, tempDir, writeConfig } from './cli-world.js';
import { census, clientFor, planFor, action, parser, state } from './world.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = `${ROOT}dist/cli/main.js`;
const ACTIONS = 30;
const PARSERS = ['p0', 'p1', 'p2'];

let server: TestServer;
let org = 300;

beforeAll(async () => {
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', '.'], { cwd: ROOT, stdio: 'ignore' });
  // A little latency so the child is still working when it is stopped.
  server = await startTestServer({ latencyMs: 10 });
}, 120_000);
afterAll(async () => { await server.close(); });

const names = Array.from({ length: ACTIONS }, (_, i) => `K${String(i).padStart(2, '0')}`);
const desired = state(names.map((n) => action(n, PARSERS.map((p) => parser(p)))));

/** Starts `menuctl apply --yes`, and sends `sig` once `after` changes have finished. */
function applyChild(env: Record<string, string>, dir: string, sig: NodeJS.Signals, after: number) {
  const child = spawn(process.execPath, [MAIN, 'apply', '--yes', '--concurrency', '2', 'menuctl.yaml'], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (!sent && (stdout.match(/^✓ /gm) ?? []).length >= after) {
      sent = true;
      child.kill(sig);
    }
  });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function expectConvergedAfterSecondApply(token: string, dir: string): Promise<void> {
  const client = clientFor(server, { token });
  // The next plan shows the truth: exactly what is missing is created, nothing else.
  const before = await census(client);
  expect([...before.actions.values()].every((n) => n === 1)).toBe(true);
  expect([...before.parsers.values()].every((n) => n === 1)).toBe(true);
  const plan = await planFor(client, desired);
  expect(plan.changes.every((c) => c.op === 'create')).toBe(true);
  expect(plan.changes.filter((c) => c.type === 'action')).toHaveLength(ACTIONS - before.actions.size);
  expect(plan.changes.filter((c) => c.type === 'parser')).toHaveLength(ACTIONS * PARSERS.length - before.activeParsers);
  const second = await runCli(['apply', '--yes', 'menuctl.yaml'], { env: envFor(server, token), cwd: dir });
  expect(second.code, second.stderr).toBe(0);
  const after = await census(client);
  expect(after.actions.size).toBe(ACTIONS);
  expect([...after.actions.values()].every((n) => n === 1)).toBe(true);
  expect(after.parsers.size).toBe(ACTIONS * PARSERS.length);
  expect(after.activeParsers).toBe(ACTIONS * PARSERS.length);
  expect((await planFor(client, desired)).changes).toEqual([]);
}

function setup(): { dir: string; token: Promise<string> } {
  const dir = tempDir();
  writeConfig(dir, configYaml(names.map((name) => ({ name, parsers: PARSERS }))));
  return { dir, token: server.mintToken(++org) };
}

describe('stopping a running apply', () => {
  it('SIGINT: in-flight changes finish, the rest is reported skipped, exit 130; the next apply finishes', async () => {
    const { dir, token: t } = setup();
    const token = await t;
    const r = await applyChild(envFor(server, token), dir, 'SIGINT', 8);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/^- skipped create .*\(interrupted\)$/m);
    expect(r.stdout).toContain('Apply interrupted');
    await expectConvergedAfterSecondApply(token, dir);
  }, 30_000);

  it('SIGKILL: the next plan shows the truth and the next apply finishes without duplicates', async () => {
    const { dir, token: t } = setup();
    const token = await t;
    // Past the 30 action creates: killed among the parser creates.
    const r = await applyChild(envFor(server, token), dir, 'SIGKILL', 40);
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout).not.toContain('Apply complete');
    await expectConvergedAfterSecondApply(token, dir);
  }, 30_000);
});
