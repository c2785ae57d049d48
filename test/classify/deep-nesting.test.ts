// Issue 10 item 10: a regex of deeply nested groups (under the server's 4,096-character limit)
// must not crash validate, test or plan. Up to 200 levels menuctl analyses it as any other
// pattern; deeper, it says where and what to do (a warning: whether Java compiles it depends on
// the device's stack) and `menuctl test` refuses to evaluate that parser instead of guessing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintRegex } from '../../src/classify/lint.js';
import { compileJavaPattern } from '../../src/classify/java-regex.js';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const nested = (open: string, close: string, n: number) => `${open.repeat(n)}a${close.repeat(n)}`;
const WORKS = nested('(?:', ')+', 200); // the deepest nesting menuctl analyses, every level repeated
const ISSUE = nested('(', ')', 1300); // 2,601 characters: the issue's pattern
const TOO_DEEP = nested('(', ')', 2047); // 4,095 characters: the deepest the server accepts
const REPEATED = nested('(', ')+', 1365); // 4,096 characters, every level repeated

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'menuctl-deep-'));
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(regexes: string[]): string {
  const file = join(dir, 'menuctl.yaml');
  const parsers = regexes.map((r, i) => `      - category: p${i}\n        status: succeeded\n        regex: '${r}'\n`).join('');
  writeFileSync(file, `version: 1
actions:
  - name: Deep
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
    parsers:
${parsers}    tests:
      - message: aa
        expect: { category: p0 }
`);
  return file;
}

describe('deeply nested groups', () => {
  it('analyses 200 nested repeated groups like any pattern, and evaluates them', () => {
    expect(lintRegex(WORKS).every((i) => i.code === 'regex.backtracking')).toBe(true);
    const c = compileJavaPattern(WORKS);
    expect(c.ok && c.unfaithful).toEqual([]);
    expect(c.ok && c.regex.exec('aa') !== null).toBe(true);
  });

  it.each([['1,300 nested groups (the issue)', ISSUE, 1299], ['2,047 nested groups', TOO_DEEP, 2046], ['1,365 nested repeated groups', REPEATED, 1364]])(
    'gives a located warning, not a crash, for %s',
    (_, pattern, index) => {
      const issues = lintRegex(pattern);
      expect(issues).toEqual([{ severity: 'warning', code: 'regex.too-deep', index, message: expect.stringMatching(/^groups nested \d+ deep \(the deepest opens at index \d+\), more than the 200 levels .*flatten the nesting$/) }]);
      const c = compileJavaPattern(pattern);
      expect(c.ok ? 'compiled' : c.issues.map((i) => `${i.severity}:${i.code}`)).toEqual(['warning:regex.too-deep']);
    },
  );

  it('gives the same located warning, not a crash, where a smaller stack runs out first', async () => {
    // A child process with a small stack overflows on 200 levels, which the default one analyses.
    const { spawnSync } = await import('node:child_process');
    const script = `import('${new URL('../../dist/classify/lint.js', import.meta.url).href}').then((m) =>
      console.log(JSON.stringify(m.lintRegex(${JSON.stringify(WORKS)}))))`;
    const r = spawnSync(process.execPath, ['--stack-size=120', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const issues = JSON.parse(r.stdout) as { code: string; index: number; severity: string }[];
    expect(issues).toEqual([expect.objectContaining({ code: 'regex.too-deep', severity: 'warning', index: 597 })]);
  });

  it('validate, test and plan run to the end on such a config', async () => {
    const file = config([WORKS, ISSUE]);
    const validate = await runCli(['validate', file]);
    expect(validate.stderr).not.toMatch(/Maximum call stack|RangeError|at .*\.js:\d+/);
    expect(validate.code).toBe(0);

    const test = await runCli(['test', file]);
    expect(test.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(test.stdout.trimEnd().split('\n').pop()).toBe('1 passed, 0 failed');

    const plan = await runCli(['plan', file], { cwd: dir, env: { MENUCTL_API_URL: server.url, MENUCTL_TOKEN: server.token } });
    expect(plan.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(plan.code).toBe(0);
  }, 60_000);
});
