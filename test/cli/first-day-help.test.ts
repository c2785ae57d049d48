// Issue 26 item 4, through the real CLI (in-process): help names each command's environment with
// an example; a token that is not a JWT is called that; plan --out gives the exact apply command;
// test --quiet; the regex lint names other dialects on their line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_EXTRA_COMMANDS } from '../../src/cli/help-extras.js';
import { lintRegex } from '../../src/classify/lint.js';
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
    tests:
      - message: Your balance is 1,200.00
        expect: { category: balance }
      - message: Service unavailable
        expect: none
`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'menuctl-first-day-help-'));
  writeFileSync(join(dir, 'menuctl.yaml'), CONFIG);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--help', () => {
  it('plan --help names the environment it reads, with an example', async () => {
    const r = await runCli(['plan', '--help']);
    expect(r.code).toBe(0);
    for (const v of ['MENUCTL_TOKEN', 'MENUCTL_EMAIL', 'MENUCTL_API_URL', 'MENUCTL_ORGANIZATION_ID']) expect(r.stdout).toContain(v);
    expect(r.stdout).toMatch(/\nEnvironment:\n/);
    expect(r.stdout).toMatch(/\nExamples:\n {2}\$ .*MENUCTL_TOKEN=/);
  });

  it('every command has an example, and each that connects names its credentials', async () => {
    for (const c of HELP_EXTRA_COMMANDS) {
      const r = await runCli([...c.split(' '), '--help']);
      expect(r.stdout, c).toMatch(/\nExamples:\n {2}\$ /);
    }
    for (const c of ['apply', 'drift', 'export', 'state']) expect((await runCli([c, '--help'])).stdout, c).toContain('MENUCTL_TOKEN');
  });

  it.each([['import'], ['secrets', 'pull']])('%s --help has an Environment section naming the credentials and the state, and one Examples section', async (...command) => {
    const r = await runCli([...command, '--help']);
    expect(r.code).toBe(0);
    const env = r.stdout.slice(r.stdout.indexOf('\nEnvironment:\n'));
    expect(env).not.toBe(r.stdout);
    for (const v of ['MENUCTL_API_URL', 'MENUCTL_TOKEN', 'MENUCTL_EMAIL, MENUCTL_PASSWORD', 'MENUCTL_STATE']) expect(env).toContain(v);
    expect(r.stdout.match(/\nExamples?[,:]/g)).toEqual(['\nExamples:']);
  });
});

describe('connecting', () => {
  it('a token that is not a JWT is named as such, not answered with "remove the guard"', async () => {
    const r = await runCli(['plan', join(dir, 'menuctl.yaml')], {
      env: { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: 'abc.def.ghi', MENUCTL_ORGANIZATION_ID: '1' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/MENUCTL_TOKEN is not a JWT/);
    expect(r.stderr).not.toMatch(/remove the guard/);
  });

  it('plan --out suggests the exact apply command, with the config PATH as given', async () => {
    const r = await runCli(['plan', 'menuctl.yaml', '--out', 'plan.json'], { cwd: dir, env: { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('run `menuctl apply menuctl.yaml --plan plan.json` to carry it out');
  });

  it('an empty plan --out is saved but suggests no apply (issue 34 item 5)', async () => {
    const env = { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: await server.mintToken(4242) };
    const empty = join(dir, 'empty');
    const { mkdirSync, writeFileSync, existsSync } = await import('node:fs');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'menuctl.yaml'), 'version: 1\nactions: []\n');
    const r = await runCli(['plan', 'menuctl.yaml', '--out', 'plan.json'], { cwd: empty, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Saved the plan to plan.json: it changes nothing, so there is nothing to apply.');
    expect(r.stdout).not.toContain('menuctl apply');
    expect(existsSync(join(empty, 'plan.json'))).toBe(true);
  });
});

describe('menuctl test --quiet', () => {
  it('prints only the totals when everything passes', async () => {
    const loud = await runCli(['test', join(dir, 'menuctl.yaml')]);
    const quiet = await runCli(['test', join(dir, 'menuctl.yaml'), '--quiet']);
    expect(quiet.code).toBe(0);
    expect(loud.stdout).toContain('Check balance');
    expect(quiet.stdout).not.toContain('Check balance');
    expect(quiet.stdout.trim()).toBe('2 passed, 0 failed');
  });
});

describe('regex lint: other dialects', () => {
  it('flags a JavaScript regex literal and a POSIX class with their line in validate', async () => {
    const file = join(dir, 'dialects.yaml');
    writeFileSync(file, `version: 1
actions:
  - name: A
    root_code: "*1#"
    transport_type: ussd
    operators: [2172]
    parsers:
      - category: wrong-pin
        status: failed
        regex: '/wrong pin/i'
      - category: name
        status: succeeded
        regex: 'Hello [[:alpha:]]+'
`);
    const r = await runCli(['validate', file]);
    expect(r.stdout + r.stderr).toMatch(/dialects\.yaml:10:\d+: warning\[regex\.javascript-literal\].*JavaScript regex literal/);
    expect(r.stdout + r.stderr).toMatch(/dialects\.yaml:13:\d+: warning\[regex\.posix-class\].*POSIX class.*\\p\{Alpha\}/);
  });

  it('names \\k<name> as written, and a (?i) at the end', () => {
    const issues = lintRegex('(?<a>x)?\\k<a>yz(?i)');
    expect(issues.find((i) => i.code === 'regex.backreference')?.message).toContain('\\k<a>');
    expect(issues.find((i) => i.code === 'regex.backreference')?.message).not.toContain('\\1');
    expect(issues.find((i) => i.code === 'regex.inline-flags-position')?.index).toBe(15);
    expect(lintRegex('a(?s).*').map((i) => i.code)).not.toContain('regex.inline-flags-position');
    expect(lintRegex('(?i)wrong pin').map((i) => i.code)).not.toContain('regex.inline-flags-position');
  });
});
