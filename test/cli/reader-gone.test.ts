// `menuctl plan | head`: the reader of stdout goes away mid-plan. The command must finish with its
// own exit code and no stack trace (before: "Error: write EPIPE", or an unhandled 'error' event),
// whatever the format. A real process and a real pipe: only they give EPIPE.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyActionsYaml } from '../helpers/many-actions.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin', 'menuctl.js');
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'menuctl-reader-gone-'));
  writeFileSync(join(dir, 'menuctl.yaml'), manyActionsYaml(1500));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the bin, reads the first bytes of stdout and then closes the pipe. */
function planClosedEarly(format: string): Promise<{ code: number | null; stderr: string; read: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'plan', '--detailed-exitcode', '--format', format], {
      cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let read = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.once('data', (c: Buffer) => {
      read = c.toString().slice(0, 40);
      child.stdout.destroy();
    });
    child.on('close', (code) => done({ code, stderr, read }));
  });
}

describe('the reader of stdout goes away', () => {
  it.each(['text', 'json', 'markdown'])('plan --format %s exits with its own code (2: changes), quietly', async (format) => {
    const r = await planClosedEarly(format);
    expect(r.read.length).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at .*\(node:/);
    expect(r.code).toBe(2);
  });
});
