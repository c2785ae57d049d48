// First-day mistakes through the real CLI (in-process): each error names the option or file and
// what to do, never a bare errno, and leaves nothing half-written behind.

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CONFIG = `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    parsers:
      - category: balance
        status: succeeded
        regex: 'Your balance is (?<balance>[\\d,.]+).*'
`;

let server: TestServer;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token };
  dir = mkdtempSync(join(tmpdir(), 'menuctl-first-day-'));
  writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
  mkdirSync(join(dir, 'a-directory'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const leftovers = (): string[] => readdirSync(dir).filter((f) => f.startsWith('.menuctl-'));

describe('an output path that cannot be written', () => {
  it.each([
    ['plan', '--out'],
    ['drift', '--report-file'],
  ])('%s %s DIR names the option and the reason, not an errno', async (command, option) => {
    const r = await runCli([command, option, 'a-directory'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${option} \\S*a-directory: cannot write it \\(it is a directory\\)\\. Choose a path`));
    expect(r.stderr).not.toMatch(/EISDIR|rename|\.tmp/);
    expect(leftovers()).toEqual([]);
  });

  it('export --out FILE.yaml where a directory stands', async () => {
    mkdirSync(join(dir, 'taken.yaml'));
    const r = await runCli(['export', '--out', 'taken.yaml', '--force'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--out \S*taken\.yaml: cannot write it \(it is a directory\)/);
    expect(r.stderr).not.toMatch(/EISDIR|rename|\.tmp/);
    expect(leftovers()).toEqual([]);
  });
});
