// menuctl validate: the session checks that need no screens run (issue 13 item 3).
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('menuctl-session-checks-');
afterAll(() => tmp.remove());

const config = (steps: string, sessions: string) => `version: 1
actions:
  - name: Sell
    root_code: "*165#"
    transport_type: ussd
    operators: [2645]
    steps:
${steps}
    parsers:
      - category: sold
        status: succeeded
        regex: '.*sold.*'
${sessions}`;

const OK_SESSION = `    sessions:
      - name: one
        variables: { phone: "256770000000" }
        screens: ["MoMo\\n1. Airtime", "Enter phone:", "Sold"]
        expect: { category: sold }
`;

async function validate(text: string) {
  return runCli(['validate', tmp.write(`v${Math.random().toString(36).slice(2)}.yaml`, text)]);
}

describe('menuctl validate: sessions', () => {
  it('is quiet for an action whose sessions give what its steps need', async () => {
    const r = await validate(config('      - press: 1\n        expect: Airtime\n      - variable: phone', OK_SESSION));
    expect(r.code).toBe(0);
    expect(r.stderr + r.stdout).not.toContain('warning');
  });

  it('does not ask for expect on actions without sessions', async () => {
    const r = await validate(config('      - press: 1\n      - variable: phone', ''));
    expect(r.stderr + r.stdout).not.toContain('semantic.press-without-expect');
  });

  it('warns about a press without expect in an action that has sessions, at the step', async () => {
    const r = await validate(config('      - press: 1\n      - variable: phone', OK_SESSION));
    expect(r.code).toBe(0);
    expect(r.stderr + r.stdout).toMatch(/:8:9.*step 1 \(press 1\) has no `expect:`/s);
  });

  it('warns about a variable no session gives, and a session variable no step uses', async () => {
    const r = await validate(config('      - press: 1\n        expect: Airtime\n      - variable: amount', OK_SESSION));
    const out = r.stderr + r.stdout;
    expect(out).toContain('step 2 (variable amount) uses variable `amount`, which no session of this action gives');
    expect(out).toContain('session "one" gives variable `phone`, which no variable or select step of this action uses');
  });

  it('warns about a USSD screen longer than 182 characters, at the screen', async () => {
    const long = 'x'.repeat(183);
    const r = await validate(config('      - ok', `    sessions:
      - name: long
        screens: ["Welcome", "${long}"]
        expect: none
`));
    expect(r.stderr + r.stdout).toMatch(/:15:30.*screen 2 of session "long" has 183 characters; a USSD screen holds at most 182/s);
  });

  it('counts a screen\'s characters as shown, not UTF-16 units or CRLF pairs', async () => {
    const screen = (yaml: string) => `    sessions:
      - name: s
        screens: ["Welcome", ${yaml}]
        expect: none
`;
    // 182 characters each: 180 + an emoji + an accented letter; 20 lines of 8 joined by CRLF, + 3.
    const emoji = `"${'x'.repeat(180)}🎉é"`;
    const crlf = `"${Array.from({ length: 20 }, () => 'x'.repeat(8)).join('\\r\\n')}xxx"`;
    for (const s of [emoji, crlf]) {
      const r = await validate(config('      - ok', screen(s)));
      expect(r.stderr + r.stdout, s).not.toContain('ussd-screen-length');
    }
    const over = await validate(config('      - ok', screen(`"${'x'.repeat(181)}🎉é"`)));
    expect(over.stderr + over.stdout).toContain('screen 2 of session "s" has 183 characters');
  });

  it('rejects duplicate session names and an expected category the action does not have', async () => {
    const r = await validate(config('      - ok', `    sessions:
      - name: a
        screens: ["Welcome", "Sold"]
        expect: { category: sould }
      - name: a
        screens: ["Welcome", "Sold"]
        expect: none
`));
    expect(r.code).toBe(1);
    const out = r.stderr + r.stdout;
    expect(out).toContain('session "a" is defined twice in this action');
    expect(out).toContain('session "a" expects category "sould", which is not a parser category of this action. Did you mean');
  });

  it('warns about an SMS from a sender no sms parser reads, naming the one differing only in case', async () => {
    const text = config('      - ok', `    sessions:
      - name: sms
        screens: ["Welcome", "Sold"]
        sms: [{ sender: Mpesa, message: "Confirmed" }]
        expect: none
`).replace("        regex: '.*sold.*'\n", "        regex: '.*sold.*'\n      - { category: confirmed, status: succeeded, target_type: sms, sender: MPESA, regex: '.*' }\n");
    const r = await validate(text);
    expect(r.stderr + r.stdout).toMatch(/:17:15.*SMS 1 of session "sms" is from "Mpesa", which no sms parser of this action reads, so it can never be the outcome\. Senders are compared exactly: did you mean "MPESA"\?/s);
  });

  it('rejects a session without screens through the schema', async () => {
    const r = await validate(config('      - ok', `    sessions:
      - name: a
        expect: none
`));
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain('screens');
  });
});
