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

describe('a file flag given an empty value', () => {
  // `--out "$PLAN_FILE"` with the variable unset: before, plan quietly saved nothing and exited 0,
  // and export wrote into the current directory.
  it.each([
    [['plan', '--out', ''], '--out'],
    [['export', '--out', ''], '--out'],
    [['drift', '--report-file', ''], '--report-file'],
    [['apply', '--plan', ' '], '--plan'],
    [['apply', '--yes', '--secrets-file', ''], '--secrets-file'],
    [['plan', '--record', ''], '--record'],
    [['sessions', 'import', 'x.json', '--out', ''], '--out'],
  ])('%j is refused before anything runs', async (args, option) => {
    const before = readdirSync(dir).sort();
    const r = await runCli(args, { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`option '${option} <`);
    expect(r.stderr).toMatch(/needs a file path; got an empty one/);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

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

describe('the confirmation question', () => {
  it('is worded for one change and for several', async () => {
    const one = mkdtempSync(join(tmpdir(), 'menuctl-confirm-'));
    try {
      writeFileSync(join(one, 'menuctl.yaml'), 'version: 1\nactions:\n  - name: Only one\n    root_code: "*100#"\n    transport_type: ussd\n    operators: [2172]\n');
      const single = await runCli(['apply'], { cwd: one, env, ttys: { stdin: true }, stdin: 'no\n' });
      expect(single.stdout).toContain("Apply this change? Only 'yes' will be accepted");
      const several = await runCli(['apply'], { cwd: dir, env, ttys: { stdin: true }, stdin: 'no\n' });
      expect(several.stdout).toContain("Apply these 2 changes? Only 'yes' will be accepted");
      for (const r of [single, several]) {
        expect(r.stderr).toContain('Apply cancelled. Nothing was changed.');
        expect(r.code).toBe(1);
      }
    } finally {
      rmSync(one, { recursive: true, force: true });
    }
  });
});
