// Ctrl-C on a reading command stops it at once with 130 (apply's graceful stop is tested in test/apply).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../helpers/server.js';

// An API that takes every request and never answers: a command that exits on SIGINT after its
// first request arrived did not wait for the API (if it did, the test would time out).
let api: Server;
let url: string;
let token: string;
let dir: string;
beforeAll(async () => {
  api = createServer(() => { /* never answers */ });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  token = await new SignJWT({ organization_id: 1 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h')
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
  dir = mkdtempSync(join(tmpdir(), 'menuctl-int-'));
  writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\nactions: []\n');
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise((r) => api.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('interrupting a reading command', () => {
  it.each(['plan', 'drift', 'export'])('%s exits 130 on SIGINT without waiting for the API', async (command) => {
    const arrived = once(api, 'request') as Promise<[IncomingMessage]>;
    const child = spawn(process.execPath, [join(process.cwd(), 'dist/cli/main.js'), command], {
      cwd: dir,
      env: { PATH: process.env.PATH, MENUCTL_API_URL: url, MENUCTL_TOKEN: token, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    const [request] = await arrived;
    expect(request.method).toBe('GET'); // reading: the command is waiting for an answer
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('Interrupted (SIGINT)');
  });
});
