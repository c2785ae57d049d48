// Every example validates: no errors and no warnings, with the env vars the README names.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(__dirname, '../..');
const ENV = { AGENT_WEBHOOK_URL: 'https://hooks.example.com/agent', TILL_WEBHOOK_URL: 'https://hooks.example.com/till' };

describe('examples/', () => {
  it('validates as a directory, with a one-line summary', async () => {
    const r = await runCli(['validate', 'examples'], { cwd: ROOT, env: ENV });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^3 files valid: 5 actions, 14 parsers, 2 apps\n$/);
  });

  it.each(['mpesa-kenya.yaml', 'uganda-momo.yaml', 'apps.yaml'])('%s validates on its own and carries the schema modeline', async (f) => {
    const r = await runCli(['validate', `examples/${f}`], { cwd: ROOT, env: ENV });
    expect(r.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path.join(ROOT, 'examples', f), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/menuctl.schema.json');
  });

  it('fails, naming the variable, when the webhook variables are unset', async () => {
    const r = await runCli(['validate', 'examples'], { cwd: ROOT });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^examples\/apps\.yaml:8:18: error\[env\.unset\] app\["com\.example\.agent"\]: environment variable AGENT_WEBHOOK_URL is not set/m);
  });
});
