// The token hint of `menuctl serve` names an organization the server's accounts belong to:
// a token for organization 1 when every account is in 62 lists nothing the user can see.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'menuctl-serve-org-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (args: string[]) =>
  runCli(['serve', '--port', '0', '--no-access-log', ...args], { cwd: dir, signal: AbortSignal.abort() });

describe('serve: the token hint names the accounts\' organization', () => {
  it('--user ops@example.com:s3cret:62 -> menuctl token --org 62', async () => {
    const r = await serve(['--data', 'one.sqlite', '--user', 'ops@example.com:s3cret:62']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('mint a token with: menuctl token --org 62 --data one.sqlite');
    expect(r.stderr).not.toContain('--org 1 ');
    expect(r.stdout + r.stderr).not.toContain('s3cret');
  });

  it('accounts in several organizations: the first, and the others named', async () => {
    const r = await serve(['--data', ':memory:', '--jwt-secret', 'x-secret-value', '--user', 'a@example.com:pw:7', '--user', 'b@example.com:pw:62', '--user', 'c@example.com:pw:7']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('menuctl token --org 7 --jwt-secret <secret>');
    expect(r.stderr).toContain('accounts are in organizations 7, 62');
  });

  it('no accounts: organization 1, as before', async () => {
    const r = await serve(['--data', 'none.sqlite']);
    expect(r.stderr).toContain('mint a token with: menuctl token --org 1 --data none.sqlite');
  });
});
