// `menuctl test` end to end, in-process, on small temp configs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'menuctl-test-cmd-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string, parsers: string, tests: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    steps:
      - press: 1
    parsers:
${parsers}
    tests:
${tests}
`);
  return file;
}

const BALANCE = `      - category: balance
        status: succeeded
        regex: 'Your balance is (?<balance>[\\d,.]+) KES\\..*'
`;

describe('menuctl test', () => {
  it('passes fixtures that hold and prints a test-runner report with the summary line last', async () => {
    const file = config('pass', BALANCE, `      - message: Your balance is 1,200.00 KES. Thank you.
        expect: { category: balance, status: succeeded, variables: { balance: "1,200.00" } }
      - message: Service unavailable
        expect: none
`);
    const r = await runCli(['test', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('action["Check balance"]');
    // A passing fixture is listed without its location: locating it would re-parse the config.
    expect(r.stdout).toContain('✓ "Your balance is 1,200.00 KES. Thank you."\n');
    expect(r.stdout).not.toMatch(/pass\.yaml:\d+:\d+/);
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('2 passed, 0 failed');
  });

  it('fails with a diff of expected vs actual and exit 1', async () => {
    const file = config('fail', BALANCE, `      - message: Your balance is 1,200.00 KES. Thank you.
        expect: { category: balance, status: failed, variables: { balance: "1200" } }
      - message: your BALANCE is 5 kes.
        expect: none
`);
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ "Your balance is 1,200.00 KES. Thank you."\s+\(.*fail\.yaml:15:9\)/);
    expect(r.stdout).toMatch(/✗ "your BALANCE is 5 kes."\s+\(.*fail\.yaml:17:9\)/);
    expect(r.stdout).toContain('- status: failed\n      + status: succeeded');
    expect(r.stdout).toContain('- variables.balance: "1200"\n      + variables.balance: "1,200.00"');
    expect(r.stdout).toContain('- parser: (no parser matches)\n      + parser: "balance"');
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('0 passed, 2 failed');
  });

  it('warns when several parsers match, and fails with --strict', async () => {
    const parsers = `${BALANCE}      - category: anything
        status: pending
        regex: '.*'
`;
    const file = config('several', parsers, `      - message: Your balance is 3 KES.
        expect: { category: balance }
`);
    const loose = await runCli(['test', file]);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain('warning: 2 parsers match: "balance", "anything"; the first in config order ("balance") wins');
    const strict = await runCli(['test', '--strict', file]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('several parsers match (--strict)');
    expect(strict.stdout.trimEnd().split('\n').pop()).toBe('0 passed, 1 failed');
  });

  it('says it cannot evaluate a parser faithfully instead of guessing', async () => {
    const parsers = `      - category: letters
        status: succeeded
        regex: '\\X+'
`;
    const file = config('unfaithful', parsers, `      - message: abc
        expect: { category: letters }
`);
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/! "abc".*\n\s+error: cannot evaluate faithfully: parser "letters": .*\\X/);
    expect(r.stdout).toContain('1 could not be evaluated (counted as failed)\n0 passed, 1 failed');
  });

  it('reports a catastrophically backtracking fixture as timed out and carries on', async () => {
    // The look-behind keeps the automaton pre-check (automaton-match.ts) from deciding this reply
    // (it drops look-behinds, so it accepts), so the backtracking engine really runs and times out.
    const parsers = `      - category: evil
        status: failed
        regex: '(?:(a+)+(?<!a)|ab)'
`;
    const file = config('evil', parsers, `      - message: ${'a'.repeat(40)}
        expect: none
      - message: ab
        expect: { category: evil }
`);
    const r = await runCli(['test', '--timeout', '200', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('timed out after 200 ms: catastrophic backtracking?');
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('1 passed, 1 failed');
  });

  it('renders JSON for tools', async () => {
    const file = config('json', BALANCE, `      - message: Your balance is 9 KES.
        expect: { category: balance, variables: { balance: "9" } }
`);
    const r = await runCli(['test', '--format', 'json', file]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ format_version: 1, passed: 1, failed: 0, errors: 0 });
    expect(body.results[0]).toMatchObject({
      action: 'Check balance', status: 'passed', channel: 'ussd',
      actual: { category: 'balance', status: 'succeeded', variables: { balance: '9' } },
    });
  });

  it('renders escaped JUnit XML', async () => {
    const file = config('junit', BALANCE, `      - message: 'Your balance is <5> & "more" KES.'
        expect: { category: balance }
`);
    const r = await runCli(['test', '--format', 'junit', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="menuctl test" tests="1" failures="1" errors="0">/);
    expect(r.stdout).toContain('name="Your balance is &lt;5&gt; &amp; \\&quot;more\\&quot; KES."');
    expect(r.stdout).toContain('<failure message="parser">- parser: "balance"\n+ parser: (no parser matches)</failure>');
    for (const [, value] of r.stdout.matchAll(/="([^"]*)"/g)) {
      expect(value).not.toMatch(/[<>]|&(?!(?:amp|lt|gt|quot|apos);)/);
    }
  });

  it('with --format junit, an invalid config is one errored testcase (CI uploads a report, not an empty file)', async () => {
    const file = join(dir, 'broken-junit.yaml');
    writeFileSync(file, 'version: 1\nactions:\n  - name: X\n    root_code: "*1#"\n    transport_type: usd\n    operators: [2172]\n');
    const r = await runCli(['test', '--format', 'junit', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<\?xml[^]*<testsuites name="menuctl test" tests="1" failures="0" errors="1">/);
    expect(r.stdout).toMatch(/<error message="invalid config: 1 error, 0 warnings; fixtures not run">[^<]*broken-junit\.yaml:5:/);
    expect(r.stderr).toContain('fixtures not run');
  });

  it('prints config errors and exits 1 without running fixtures', async () => {
    const parsers = `      - category: bad
        status: succeeded
        regex: 'Bal (?<bal_1>\\d+)'
`;
    const file = config('invalid', parsers, `      - message: Bal 5
        expect: { category: bad }
`);
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid\.yaml:\d+:\d+: error\[regex\.group-name\]/);
    expect(r.stderr).toContain('fixtures not run');
    expect(r.stdout).toBe('');
  });
});
