// What `menuctl serve` tells the user about minting a token: it must name the place the
// server's secret came from (a hint naming another source mints tokens the server rejects),
// and never print the secret. In-process: an already aborted signal makes serve start, print
// its lines, and stop at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'menuctl-serve-hint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (args: string[], env: Record<string, string> = {}) =>
  runCli(['serve', '--port', '0', '--no-access-log', ...args], { env, cwd: dir, signal: AbortSignal.abort() });

describe('serve: the token hint', () => {
  it('with --jwt-secret: says to pass the same --jwt-secret, without printing it or --data', async () => {
    const r = await serve(['--data', join(dir, 'flag.sqlite'), '--jwt-secret', 'flag-s3cret-value']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('menuctl token --org 1 --jwt-secret <secret>, with the same --jwt-secret this server was started with');
    expect(r.stderr).not.toContain('--data');
    expect(r.stdout + r.stderr).not.toContain('flag-s3cret-value');
  });

  it('with MENUCTL_JWT_SECRET: says to set the same variable, without printing it', async () => {
    const r = await serve(['--data', ':memory:'], { MENUCTL_JWT_SECRET: 'env-s3cret-value' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('menuctl token --org 1, with the same MENUCTL_JWT_SECRET set');
    expect(r.stderr).not.toContain('--data');
    expect(r.stdout + r.stderr).not.toContain('env-s3cret-value');
  });

  it('with the secret stored beside the database: names --data, and that command works', async () => {
    const r = await serve(['--data', 'stored.sqlite']);
    expect(r.code).toBe(0);
    const m = /mint a token with: menuctl token --org 1 --data (\S+)\n/.exec(r.stderr);
    expect(m?.[1]).toBe('stored.sqlite');
    const minted = await runCli(['token', '--org', '1', '--data', m![1]!], { cwd: dir });
    expect(minted.code).toBe(0);
  });

  it('with --data :memory: and no secret: says tokens cannot be minted, and what to do', async () => {
    const r = await serve(['--data', ':memory:']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tokens cannot be minted for this server');
    expect(r.stderr).toContain('Restart it with --jwt-secret S');
    expect(r.stderr).toContain('--user EMAIL:PASSWORD');
    expect(r.stderr).not.toContain('mint a token with');
  });
});
