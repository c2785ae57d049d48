// Every example validates: no errors and no warnings, with or without the env vars it reads.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');
const ENV = { MENUCTL_VAR_AGENT_WEBHOOK_URL: 'https://hooks.example.com/agent', MENUCTL_VAR_TILL_WEBHOOK_URL: 'https://hooks.example.com/till' };

describe('examples/', () => {
  it('validates as a directory, with a one-line summary', async () => {
    const r = await runCli(['validate', 'examples'], { cwd: ROOT, env: ENV });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^3 files valid: 5 actions, 14 parsers, 2 apps\n$/);
  });

  it.each(['mpesa-kenya.yaml', 'uganda-momo.yaml', 'apps.yaml'])('%s validates on its own and carries the schema modeline', async (f) => {
    const r = await runCli(['validate', `examples/${f}`], { cwd: ROOT, env: ENV });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(ROOT, 'examples', f), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/menuctl.schema.json');
  });

  it('validates and tests in a fresh clone with no variables set (their ${VAR:-default}s apply)', async () => {
    expect(await runCli(['validate', 'examples'], { cwd: ROOT })).toMatchObject({ code: 0, stderr: '' });
    const t = await runCli(['test', 'examples'], { cwd: ROOT });
    expect(t.code).toBe(0);
    // 17 fixtures and 5 sessions.
    expect(t.stdout).toMatch(/\n22 passed, 0 failed\n$/);
  });

  it('is clean under our own parser analysis: `analyze examples --strict` exits 0 with no finding', async () => {
    const r = await runCli(['analyze', 'examples', '--strict'], { cwd: ROOT });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('14 parsers, 14 analysed: 0 errors, 0 warnings, 0 notes\n');
  });
});
