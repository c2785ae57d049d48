// menuctl test explains failures (issue 11 item 6): near-misses named, coverage summarised,
// --require-fixtures fails on parsers nothing exercises.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-explain-');
afterAll(() => tmp.remove());

const config = (parsers: string, tests: string) => `version: 1
actions:
  - name: Check balance
    root_code: "*144#"
    transport_type: ussd
    operators: [2172]
    parsers:
${parsers}
${tests ? `    tests:\n${tests}` : ''}`;

const BAL = `      - category: bal
        status: succeeded
        regex: 'Your balance is (?<amount>[\\d,.]+)'`;

async function test(parsers: string, tests: string, ...flags: string[]) {
  return runCli(['test', tmp.write(`c${Math.random().toString(36).slice(2)}.yaml`, config(parsers, tests)), ...flags]);
}

describe('menuctl test names near-misses', () => {
  it('says when the regex matches only the start of the reply and suggests .*', async () => {
    const r = await test(BAL, `      - message: Your balance is 1,200.00 KES. Thank you.
        expect: { category: bal }
`);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('hint: parser "bal" matches only the start of the reply, up to "Your balance is 1,200.00"; the device matches the whole message, so end the regex with .*.');
  });

  it('says when the regex matches only the middle of the reply', async () => {
    const r = await test(BAL, `      - message: Dear customer, Your balance is 5 KES
        expect: { category: bal }
`);
    expect(r.stdout).toContain('hint: parser "bal" matches only part of the reply (from "Your balance is 5 KES"); the device matches the whole message, so start the regex with .* and end it with .*.');
  });

  it('names a line break where . stops', async () => {
    const r = await test(`      - category: bal
        status: succeeded
        regex: 'Balance: .* KES'`, `      - message: "Balance: 5\\nKES"
        expect: { category: bal }
`);
    expect(r.stdout).toContain('hint: parser "bal" would match if the reply had no line breaks: `.` stops at the line break after "Balance: 5"; use [\\s\\S]* (or \\s+) where the reply spans lines.');
  });

  it('names trailing whitespace the regex does not allow', async () => {
    const r = await test(BAL, `      - message: "Your balance is 5 "
        expect: { category: bal }
`);
    expect(r.stdout).toContain('hint: parser "bal" would match without the whitespace the reply ends with (" "): allow it with \\s* (or .*) at the end.');
  });

  it('names an SMS sender that differs only in case', async () => {
    const r = await test(`      - category: bal
        status: succeeded
        target_type: sms
        sender: MPESA
        regex: '.*balance.*'`, `      - message: Your balance is 5
        sender: Mpesa
        expect: { category: bal }
`);
    expect(r.stdout).toContain('hint: parser "bal" matches this text, but its sender is "MPESA" and the message\'s is "Mpesa": senders differ only in case, and the device compares them exactly.');
  });

  it('names a fixture of the wrong channel', async () => {
    const r = await test(`      - category: bal
        status: succeeded
        regex: '.*balance.*'`, `      - message: Your balance is 5
        sender: MPESA
        expect: { category: bal }
`);
    expect(r.stdout).toContain('hint: parser "bal" matches this text, but it reads ussd messages and this one is sms (a fixture with `sender:` is an sms).');
  });

  it('gives no hint when none holds (a regex that is simply different)', async () => {
    const r = await test(BAL, `      - message: Service unavailable
        expect: { category: bal }
`);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('hint:');
  });
});

describe('menuctl test coverage', () => {
  const TWO = `      - category: bal
        status: succeeded
        regex: 'Your balance is (?<amount>[\\d,.]+).*'
      - category: wrong-pin
        status: failed
        regex: '.*wrong PIN.*'`;

  it('summarises parsers no fixture exercises, before the summary line', async () => {
    const r = await test(TWO, `      - message: Your balance is 5
        expect: { category: bal }
`);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1 passed, 0 failed');
    expect(r.stdout).toContain('coverage: 1 of 2 parsers exercised by a fixture or session');
    // Named by address; located only when --require-fixtures makes it a failure (a location re-parses the config).
    expect(r.stdout).toContain('\n  action["Check balance"].parser["wrong-pin"]\n');
  });

  it('--require-fixtures fails the run when a parser has no fixture, in text, JSON and JUnit', async () => {
    const tests = `      - message: Your balance is 5
        expect: { category: bal }
`;
    const text = await test(TWO, tests, '--require-fixtures');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('--require-fixtures: 1 parser(s) have no fixture or session');
    expect(text.stdout).toMatch(/ {2}action\["Check balance"\]\.parser\["wrong-pin"\] {2}\(.*:11:9\)/);
    const json = await test(TWO, tests, '--require-fixtures', '--format', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).coverage).toEqual({ parsers: 2, covered: 1, uncovered: ['action["Check balance"].parser["wrong-pin"]'], required: true });
    const junit = await test(TWO, tests, '--require-fixtures', '--format', 'junit');
    expect(junit.stdout).toContain('<testcase name="coverage: action[&quot;Check balance&quot;].parser[&quot;wrong-pin&quot;]"');
    expect(junit.stdout).toContain('failures="1"');
  });

  it('passes --require-fixtures when every parser is exercised', async () => {
    const r = await test(BAL, `      - message: Your balance is 5
        expect: { category: bal }
`, '--require-fixtures');
    expect(r.code).toBe(0);
  });

  it('a config with no fixtures is not a silent "0 passed, 0 failed"', async () => {
    const r = await test(TWO, '');
    expect(r.stdout).toContain('no fixtures or sessions found: add `tests:` or `sessions:` to an action');
    expect(r.stdout).toContain('coverage: 0 of 2 parsers exercised by a fixture or session');
    expect((await test(TWO, '', '--require-fixtures')).code).toBe(1);
  });
});
