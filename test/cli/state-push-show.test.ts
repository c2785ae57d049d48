// Issue 34 item 5, through the real CLI against the reference server: `state push --to
// "$MENUCTL_STATE"` with MENUCTL_STATE exported pushes the record file beside the config (the
// first push docs/ci.md describes) and says the file left behind is now a stale copy; `state
// show` prints an adopted action's unknown step details as "unknown", as the record holds them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CONFIG = `version: 1
actions:
  - name: Balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps: [ { press: 1 }, pin ]
`;

let server: TestServer;
let dir: string;
let org = 3400;
beforeAll(async () => {
  server = await startTestServer({ specOnly: true });
  dir = mkdtempSync(join(tmpdir(), 'menuctl-state-push-show-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function applied(): Promise<{ work: string; env: Record<string, string> }> {
  const work = mkdtempSync(join(dir, 'work-'));
  const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: await server.mintToken(++org) };
  writeFileSync(join(work, 'menuctl.yaml'), CONFIG);
  const r = await runCli(['apply', '--yes'], { cwd: work, env });
  expect(r.code, r.stderr).toBe(0);
  return { work, env };
}

describe('state push with MENUCTL_STATE exported', () => {
  it('--to "$MENUCTL_STATE" pushes the file beside the config there, and says the file is now a stale copy', async () => {
    const { work, env } = await applied();
    execFileSync('git', ['init', '-q', '--bare', join(work, 'state.git')]);
    const remote = `git+file://${join(work, 'state.git')}#menuctl-state`;
    const exported = { ...env, MENUCTL_STATE: remote };
    const pushed = await runCli(['state', 'push', '--to', remote], { cwd: work, env: exported });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain(`from menuctl.lock to ${remote}`);
    expect(pushed.stdout).toContain('menuctl.lock is now a stale copy: a command run without --state or MENUCTL_STATE still reads it');
    expect(pushed.stdout).toContain('`git rm menuctl.lock`');
    // The remote holds what the file held; with MENUCTL_STATE exported, list reads the remote.
    const fromFile = await runCli(['state', 'list', '--state', 'file:menuctl.lock'], { cwd: work, env });
    const fromRemote = await runCli(['state', 'list'], { cwd: work, env: exported });
    expect(fromRemote.stdout).toBe(fromFile.stdout);
    expect(fromRemote.stdout).toContain('action["Balance"]');
  });

  it('an explicit --state that is --to is still refused: that really is pushing a backend onto itself', async () => {
    const { work, env } = await applied();
    const r = await runCli(['state', 'push', '--state', 'file:menuctl.lock', '--to', 'file:menuctl.lock'], { cwd: work, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--to names the state being pushed');
  });

  it('MENUCTL_STATE naming another backend than --to is the source, as for every other command', async () => {
    const { work, env } = await applied();
    const moved = await runCli(['state', 'push', '--to', 'file:elsewhere.lock'], { cwd: work, env: { ...env, MENUCTL_STATE: 'file:menuctl.lock' } });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('from menuctl.lock to elsewhere.lock');
  });
});

describe('state show', () => {
  it('an action adopted by export shows its step details as "unknown", not as empty lists', async () => {
    const { env } = await applied();
    const adopted = mkdtempSync(join(dir, 'adopted-'));
    const exported = await runCli(['export', '--out', 'config/'], { cwd: adopted, env });
    expect(exported.code, exported.stderr).toBe(0);
    const shown = await runCli(['state', 'show', 'action["Balance"]', 'config/'], { cwd: adopted, env });
    expect(shown.code, shown.stderr).toBe(0);
    const line = JSON.parse(shown.stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ address: 'action["Balance"]', steps: 'unknown', operator_ids: 'unknown' });
    expect(line).not.toHaveProperty('details');
  });

  it('an applied action shows the steps it was applied with', async () => {
    const { work, env } = await applied();
    const shown = await runCli(['state', 'show', 'action["Balance"]'], { cwd: work, env });
    const line = JSON.parse(shown.stdout) as { steps: { kind: string }[]; operator_ids: number[] };
    expect(line.steps.map((s) => s.kind)).toEqual(['press', 'pin']);
    expect(line.operator_ids).toEqual([2172]);
  });
});
