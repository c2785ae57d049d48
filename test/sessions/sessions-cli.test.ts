// menuctl test running whole sessions (issue 13 "Done when"), in-process on temp configs.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ACCOUNT, MENU, MOVED, mpesaBalance, tempDir } from './helpers.js';

const tmp = tempDir('menuctl-sessions-');
afterAll(() => tmp.remove());

const session = (name: string, screens: string[], rest: string) => `      - name: ${name}
        screens:
${screens.map((s) => `          - ${s}`).join('\n')}
${rest}`;

describe('menuctl test: sessions', () => {
  it('passes a session that walks the menu, and the SMS after "request received" is the outcome', async () => {
    const file = tmp.write('ok.yaml', mpesaBalance(session('balance ok', [MENU, ACCOUNT, '"Enter PIN:"', '"Your request has been received."'], `        sms:
          - { sender: MPESA, message: "QAB1CD2EF3 Confirmed. Your balance is Ksh1,200.00 on 2/10/23." }
        expect: { category: balance, status: succeeded, variables: { balance: "1,200.00" } }
`)));
    const r = await runCli(['test', file, '--format', 'json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    const s = body.results.find((x: { kind: string }) => x.kind === 'session');
    expect(s).toMatchObject({
      kind: 'session', session: 'balance ok', status: 'passed', dial: '*334#',
      actual: { category: 'balance', status: 'succeeded', variables: { code: 'QAB1CD2EF3', balance: '1,200.00' } },
    });
    expect(s.steps.map((x: { response: string }) => x.response)).toEqual(['6', '1', '****']);
    expect(s.steps.every((x: { ok: boolean; problem: null }) => x.ok && x.problem === null)).toBe(true);
    expect(s.messages.map((m: { matched: string }) => m.matched)).toEqual(['request-received', 'balance']);
  });

  it('expects the reply\'s outcome when no SMS follows, and fails naming the outcome that differs', async () => {
    const file = tmp.write('pending.yaml', mpesaBalance(session('pending only', [MENU, ACCOUNT, '"Enter PIN:"', '"Your request has been received."'], `        expect: { category: balance }
`)));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ session "pending only"');
    expect(r.stdout).toContain('- category: "balance"\n      + category: "request-received"');
  });

  it('fails at step 1 when "My Account" moved from option 6 to 7, with the file:line of the session and the screen', async () => {
    const file = tmp.write('moved.yaml', mpesaBalance(session('moved', [MOVED, ACCOUNT, '"Enter PIN:"', '"Your request has been received."'], `        expect: { category: request-received }
`)));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ session "moved"\s+\(.*moved\.yaml:26:9\)/);
    expect(r.stdout).toContain('screen 1 is at');
    expect(r.stdout).toMatch(/moved\.yaml:28:13/);
    expect(r.stdout).toContain('failed: step 1: "My Account" is option 7 on this screen, not 6 (6 is "Lipa na M-PESA"): the menu was renumbered; change the step to `press: 7`.');
  });

  it('fails when the pressed option is not on the screen at all', async () => {
    const file = tmp.write('gone.yaml', mpesaBalance(session('gone', ['"M-PESA\\n1. Send money\\n2. Withdraw"', ACCOUNT, '"Enter PIN:"', '"x"'], `        expect: none
`)));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed: step 1: expected "My Account" on the screen, but it shows "M-PESA / 1. Send money / 2. Withdraw".');
  });

  it('fails a session the network ends early, saying so and still showing what the last screen gave', async () => {
    const file = tmp.write('early.yaml', mpesaBalance(session('ended', [MENU, '"Service unavailable. Please try again later."'], `        expect: { category: request-received }
`)));
    const r = await runCli(['test', file, '--format', 'json']);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout).results[0];
    expect(s.status).toBe('failed');
    expect(s.reasons[0]).toBe('the network ended the session early: 2 screen(s) for 3 step(s), so step 2 (press 1 ("Balance")) had nothing to answer; its last screen was "Service unavailable. Please try again later.". A complete session has 4 screens: one per step plus the reply.');
    expect(s.steps).toHaveLength(1);
    expect(s.reasons).toContain('no parser classifies the reply "Service unavailable. Please try again later.".');
    const t = await runCli(['test', file, '--transcript']);
    expect(t.stdout).toContain('      ← Service unavailable. Please try again later.\n        = none (no parser matches)\n        ✗ the network ended the session here');
  });

  it('fails a session with more screens than steps answer', async () => {
    const file = tmp.write('extra.yaml', mpesaBalance(session('extra', [MENU, ACCOUNT, '"Enter PIN:"', '"Your request has been received."', '"Thank you"'], `        expect: { category: request-received }
`)));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed: 1 screen(s) more than the steps answer: the action has 3 step(s), so the session has 4 screens (one per step plus the reply); screen 5 "Thank you" is answered by no step.');
  });

  it('names a reply no parser classifies', async () => {
    const file = tmp.write('unclassified.yaml', mpesaBalance(session('odd reply', [MENU, ACCOUNT, '"Enter PIN:"', '"Dear customer, try later"'], `        expect: { status: pending }
`)));
    const r = await runCli(['test', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed: no parser classifies the reply "Dear customer, try later".');
  });

  it('--transcript shows the dialled code, every screen, what was sent (PIN masked) and the outcome', async () => {
    const file = tmp.write('transcript.yaml', mpesaBalance(session('balance ok', [MENU, ACCOUNT, '"Enter PIN:"', '"Your request has been received."'], `        sms:
          - { sender: MPESA, message: "QAB1CD2EF3 Confirmed. Your balance is Ksh1,200.00 on 2/10/23." }
        expect: { category: balance }
`)));
    const r = await runCli(['test', file, '--transcript']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain([
      '      → *334#',
      '      ← M-PESA',
      '        1. Send money',
      '        2. Withdraw',
      '        6. My Account',
      '      → 6',
      '      ← My Account',
      '        1. Balance',
      '        2. Change PIN',
      '      → 1',
      '      ← Enter PIN:',
      '      → **** (PIN)',
      '      ← Your request has been received.',
      '        = request-received (pending)',
      '      ← sms from MPESA: QAB1CD2EF3 Confirmed. Your balance is Ksh1,200.00 on 2/10/23.',
      '        = balance (succeeded) code="QAB1CD2EF3" balance="1,200.00"',
      '      = outcome: balance (succeeded) code="QAB1CD2EF3" balance="1,200.00"',
    ].join('\n'));
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('--transcript-for NAME shows the dialogue of matching sessions only, and takes no path for a name', async () => {
    const two = session('first', [MENU, ACCOUNT, '"Enter PIN:"', '"Your request has been received."'], '        expect: { category: request-received }\n')
      + session('second', [MENU, ACCOUNT, '"Enter PIN:"', '"You entered a wrong PIN."'], '        expect: { category: wrong-pin }\n');
    const file = tmp.write('two.yaml', mpesaBalance(two));
    const r = await runCli(['test', '--transcript-for', 'sec', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ session "first"\n {2}✓ session "second"\n {6}→ \*334#/);
    expect(r.stdout.match(/→ \*334#/g)).toHaveLength(1);
  });

  it('JUnit carries sessions as testcases with their transcript', async () => {
    const file = tmp.write('junit.yaml', mpesaBalance(session('moved', [MOVED, ACCOUNT, '"Enter PIN:"', '"x"'], `        expect: none
`)));
    const r = await runCli(['test', file, '--format', 'junit']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/<testcase name="session: moved" classname="action\[&quot;Balance&quot;\]" file="[^"]*junit\.yaml" line="26">/);
    expect(r.stdout).toContain('<failure message="step 1: &quot;My Account&quot; is option 7');
    expect(r.stdout).toContain('<system-out>→ *334#');
  });
});

const selectConfig = (value: string, menu: string) => `version: 1
actions:
  - name: Bundle
    root_code: "*175#"
    transport_type: ussd
    operators: [2642]
    steps:
      - press: 1
        expect: Data Bundles
      - select: bundle
      - pin
    parsers:
      - category: bought
        status: succeeded
        regex: '.*You have bought (?<bundle>.+?)\\..*'
    sessions:
      - name: buy
        variables: { bundle: "${value}" }
        screens:
          - "Airtel\\n1. Data Bundles\\n2. Airtime"
          - "${menu}"
          - "Enter PIN:"
          - "You have bought 1GB Weekly. Thank you."
        expect: { category: bought, variables: { bundle: 1GB Weekly } }
`;

describe('menuctl test: select steps', () => {
  const MENU3 = 'Bundles\\n1. 500MB Daily\\n2. 1GB Weekly\\n3. 1GB Weekly Plus';

  it('answers the number of the one option whose text matches (case-insensitive)', async () => {
    const r = await runCli(['test', tmp.write('select.yaml', selectConfig('1gb weekly', MENU3)), '--format', 'json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout).results[0];
    expect(s.steps[1]).toMatchObject({ response: '2', ok: true });
  });

  it('fails when no option matches, listing the options', async () => {
    const r = await runCli(['test', tmp.write('select-none.yaml', selectConfig('2GB Monthly', MENU3))]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed: step 2: select bundle: no option contains "2GB Monthly" (options: 1. 500MB Daily; 2. 1GB Weekly; 3. 1GB Weekly Plus).');
  });

  it('fails when several options match and none is the exact text', async () => {
    const r = await runCli(['test', tmp.write('select-ambiguous.yaml', selectConfig('1GB', MENU3))]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('select bundle: "1GB" is ambiguous, 2 options contain it (2. 1GB Weekly; 3. 1GB Weekly Plus)');
  });

  it('fails naming a variable the session does not give', async () => {
    const text = selectConfig('x', MENU3).replace('        variables: { bundle: "x" }\n', '');
    const r = await runCli(['test', tmp.write('select-missing.yaml', text)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('failed: step 2: the session gives no value for variable `bundle`: add `bundle: ...` under its variables.');
  });
});
