// Ctrl-C on a reading command stops it at once with 130 (apply's graceful stop is tested in test/apply).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ latencyMs: 5000 }); // every answer takes 5 s
  dir = mkdtempSync(join(tmpdir(), 'menuctl-int-'));
  writeFileSync(join(dir, 'menuctl.yaml'), 'version: 1\nactions: []\n');
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('interrupting a reading command', () => {
  it.each(['plan', 'drift', 'export'])('%s exits 130 on SIGINT without waiting for the API', async (command) => {
    const child = spawn(process.execPath, [join(process.cwd(), 'dist/cli/main.js'), command], {
      cwd: dir,
      env: { PATH: process.env.PATH, MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    let sentAt = 0;
    setTimeout(() => { sentAt = Date.now(); child.kill('SIGINT'); }, 700);
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(130);
    // The API answers after 5 s: exiting well before that means it did not wait for it.
    expect(Date.now() - sentAt).toBeLessThan(2500);
    expect(stderr).toContain('Interrupted (SIGINT)');
  });
});
