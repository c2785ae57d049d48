// issue 28 item 5: an API that accepts a request and never answers. The first SIGTERM stops
// apply (cancelling the request in flight, exit 130, saying what state things are in), and a
// plan's read gives up on its own at the bound MENUCTL_READ_TIMEOUT sets. Order is asserted
// through the stand-in's events (the client closed the socket after the signal), never time.
// Runs dist/ (built by `pretest`; built here if absent).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startStandIn, type Decision, type StandIn, type StandInEvent } from '../helpers/stand-in.js';
import { configYaml, tempDir } from '../apply/cli-world.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = `${ROOT}dist/cli/main.js`;

let server: TestServer;
let api: StandIn | undefined;
let org = 950;
beforeAll(async () => {
  if (!existsSync(MAIN)) execFileSync('npx', ['tsc', '-p', '.'], { cwd: ROOT, stdio: 'ignore' });
  server = await startTestServer();
}, 120_000);
afterAll(async () => { await server.close(); });
afterEach(async () => { await api?.close(); api = undefined; });

async function world(names: string[], decide: (method: string, path: string) => Decision) {
  const token = await server.mintToken(++org);
  const dir = tempDir();
  writeFileSync(`${dir}/menuctl.yaml`, configYaml(names.map((name) => ({ name }))));
  api = await startStandIn({ upstream: server.url, decide: (req) => decide(req.method ?? '', req.url ?? '') });
  return { dir, env: { PATH: process.env.PATH, NO_COLOR: '1', MENUCTL_API_URL: api.url, MENUCTL_TOKEN: token } };
}

/** Spawns menuctl; once `inFlight` has arrived at the stand-in, sends SIGTERM once. */
async function stopOnce(args: string[], w: { dir: string; env: Record<string, string | undefined> }, inFlight: (e: StandInEvent) => boolean) {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: w.dir, env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
  const request = await api!.seen((e) => e.kind === 'request' && inFlight(e));
  const signalledAt = api!.events.length;
  child.kill('SIGTERM');
  const end = await exited;
  return { ...end, stdout, stderr, request, after: api!.events.slice(signalledAt) };
}

const closedBy = (after: StandInEvent[], request: StandInEvent) =>
  after.some((e) => e.kind === 'client-closed' && e.method === request.method && e.path === request.path);

describe('SIGTERM against an API that never answers', () => {
  it('apply --yes, stalled on a create: the create is cancelled, what was confirmed is kept, exit 130', async () => {
    let posts = 0;
    const w = await world(['a', 'b'], (method, path) => (method === 'POST' && path === '/api/actions' && ++posts === 2 ? 'hang' : 'pass'));
    let seenPosts = 0; // each event is matched once, in order
    const r = await stopOnce(['apply', '--yes', '--concurrency', '1', 'menuctl.yaml'], w, (e) => e.method === 'POST' && ++seenPosts === 2);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(closedBy(r.after, r.request)).toBe(true);
    expect(r.stdout).toMatch(/^✓ create action\["a"\]/m);
    expect(r.stdout).toMatch(/^✗ create action\["b"\]: interrupted before the API answered the create \(POST \/api\/actions: cancelled by the interrupt/m);
    expect(r.stdout).toContain('Apply interrupted: 1 applied');
    expect(r.stderr).toContain('menuctl: interrupted: no new change is started');
    // The next plan (straight to the reference server) sees the one that was confirmed.
    const next = await runCli(['plan', 'menuctl.yaml'], { cwd: w.dir, env: { ...w.env, MENUCTL_API_URL: server.url } });
    expect(next.stdout).toMatch(/^\s+\+ create\s+action\["b"\]/m);
    expect(next.stdout).not.toMatch(/action\["a"\]/);
  }, 60_000);

  it('apply --yes, stalled while reading: the read is cancelled at once, nothing was changed, exit 130', async () => {
    const w = await world(['a'], (method) => (method === 'GET' ? 'hang' : 'pass'));
    const r = await stopOnce(['apply', '--yes', 'menuctl.yaml'], w, (e) => e.method === 'GET');
    expect(r.code, r.stderr).toBe(130);
    expect(closedBy(r.after, r.request)).toBe(true);
    expect(r.stderr).toContain('Interrupted before any change was made. Nothing was changed.');
  }, 60_000);

  it('plan: exits 130 and the request is closed', async () => {
    const w = await world(['a'], (method) => (method === 'GET' ? 'hang' : 'pass'));
    const r = await stopOnce(['plan', 'menuctl.yaml'], w, (e) => e.method === 'GET');
    expect(r.code).toBe(130);
    expect(closedBy(r.after, r.request)).toBe(true);
  }, 60_000);
});

describe('a read against an API that never answers', () => {
  it('plan gives up at the MENUCTL_READ_TIMEOUT bound and says so', async () => {
    const w = await world(['a'], (method) => (method === 'GET' ? 'hang' : 'pass'));
    const r = await runCli(['plan', 'menuctl.yaml'], { cwd: w.dir, env: { ...w.env, MENUCTL_READ_TIMEOUT: '0.5' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \/api\/\S+: no answer from http:\/\/127\.0\.0\.1:\d+ in 0\.5 s over 1 try \(a read waits at most 0\.5 s in all; MENUCTL_READ_TIMEOUT sets it\)$/m);
    const asked = api!.events.filter((e) => e.kind === 'request');
    await Promise.all(asked.map((q) => api!.seen((e) => e.kind === 'client-closed' && e.path === q.path)));
  }, 60_000);

  it('MENUCTL_READ_TIMEOUT must be a positive number of seconds', async () => {
    const w = await world(['a'], () => 'pass');
    const r = await runCli(['plan', 'menuctl.yaml'], { cwd: w.dir, env: { ...w.env, MENUCTL_READ_TIMEOUT: '0' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MENUCTL_READ_TIMEOUT must be a number of seconds above 0 (got "0")');
  });
});
