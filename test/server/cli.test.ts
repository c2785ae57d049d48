import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { client } from './http.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'menuctl-cli-'));

/** Builds dist/ when any server or serve/token source is newer than the built entry point. */
function ensureBuilt(): void {
  const built = (() => { try { return statSync(join(ROOT, 'dist/server/index.js')).mtimeMs; } catch { return 0; } })();
  const sources = [
    ...readdirSync(join(ROOT, 'src/server'), { recursive: true }).map((f) => join(ROOT, 'src/server', String(f))),
    join(ROOT, 'src/cli/serve.ts'), join(ROOT, 'src/cli/token.ts'),
  ].filter((f) => f.endsWith('.ts'));
  if (sources.some((f) => statSync(f).mtimeMs > built)) {
    spawnSync('npx', ['tsc', '-p', '.'], { cwd: ROOT, stdio: 'ignore' });
  }
}

function startServe(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', ...args], {
    cwd: dir, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((done, fail) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) {
        const m = /^menuctl api listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
        if (m && Number(m[2]) > 0) done({ child, url: m[1]!, lines });
        else fail(new Error(`unexpected first line: ${line}`));
      }
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('menuctl serve and menuctl token', () => {
  it('serve prints the listening line, accepts tokens from `menuctl token --data`, and stops on SIGTERM', async () => {
    const data = join(dir, 'serve.sqlite');
    const { child, url, lines } = await startServe(['--data', data, '--user', 'ops@example.com:pw:5']);
    try {
      const minted = await runCli(['token', '--org', '1', '--data', data]);
      expect(minted.code).toBe(0);
      const token = minted.stdout.trim();
      const api = client({ url, token });
      expect((await api('POST', '/api/apps', { app: { name: 'a', package_name: 'com.a.b' } })).status).toBe(201);
      const login = await client({ url, token: '' }, null)('POST', '/api/authenticate', { email: 'ops@example.com', password: 'pw' });
      expect(login.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
      // Access log lines follow the listening line, and never carry a token.
      expect(lines.slice(1).some((l) => l.includes('POST /api/apps 201'))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
      expect(lines.join('\n')).not.toContain(login.body.auth_token);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serve honours MENUCTL_JWT_SECRET and the fault flags', async () => {
    const { child, url } = await startServe(['--data', ':memory:', '--fail-rate', '1', '--no-access-log'], { MENUCTL_JWT_SECRET: 'env-secret' });
    try {
      const token = (await runCli(['token', '--org', '1', '--jwt-secret', 'env-secret'])).stdout.trim();
      expect((await client({ url, token })('GET', '/api/actions')).status).toBe(503);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('serve --spec-only --page-size N: no apps index, no meta, lists in pages', async () => {
    const { child, url } = await startServe(['--data', ':memory:', '--spec-only', '--page-size', '50', '--no-access-log'], { MENUCTL_JWT_SECRET: 'env-secret' });
    try {
      const token = (await runCli(['token', '--org', '1', '--jwt-secret', 'env-secret'])).stdout.trim();
      const api = client({ url, token });
      expect((await api('GET', '/api/apps')).status).toBe(404);
      const ops = await api('GET', '/api/world_operators');
      expect(ops.body.data).toHaveLength(50);
      expect(ops.body.links).toEqual({ next: '?page=2' });
      expect(ops.body).not.toHaveProperty('meta');
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('serve rejects bad flags with a clear message', async () => {
    const r = await runCli(['serve', '--port', 'x', '--data', ':memory:']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--port must be a whole number');
    const u = await runCli(['serve', '--user', 'nocolon', '--data', ':memory:']);
    expect(u.stderr).toContain('--user must be EMAIL:PASSWORD[:ORG]');
    const p = await runCli(['serve', '--page-size', '0', '--data', ':memory:']);
    expect(p.stderr).toContain('--page-size must be a whole number from 1 to 100000');
  });

  it('token prints a JWT with organization_id and exp that verifies with the secret', async () => {
    const r = await runCli(['token', '--org', '42', '--expires', '30m'], { env: { MENUCTL_JWT_SECRET: 's3cret' } });
    expect(r.code).toBe(0);
    const { payload, protectedHeader } = await jwtVerify(r.stdout.trim(), new TextEncoder().encode('s3cret'));
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.organization_id).toBe(42);
    expect(payload.exp! - payload.iat!).toBe(1800);
  });

  it('token fails cleanly without a secret, with a bad org or duration', async () => {
    const none = await runCli(['token', '--org', '1', '--data', join(dir, 'never.sqlite')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no JWT secret');
    expect(none.stdout).toBe('');
    expect((await runCli(['token', '--org', 'x', '--jwt-secret', 's'])).stderr).toContain('--org must be a positive integer');
    expect((await runCli(['token', '--org', '1', '--jwt-secret', 's', '--expires', 'soon'])).stderr).toContain('--expires');
  });
});
